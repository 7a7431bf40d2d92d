//! Moves.

use crate::{Role, Square};
use arrayvec::ArrayVec;

/// Castling side: towards the higher files (`O-O`) or the lower (`O-O-O`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    King = 0,
    Queen = 1,
}

/// What kind of move a [`Move`] is, beyond its squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move of a piece from one square to another, capturing whatever
    /// enemy stands there (`Nf3`, `Mxe5`, `e8=M`).
    Normal,
    /// A pawn's two-square advance, which may allow en passant (`e4`).
    DoubleStep,
    /// A pawn capturing a pawn that just passed it (`exd6`): the captured pawn
    /// is not on the destination square.
    EnPassant,
    /// The king moves two squares towards a rook, which jumps over it
    /// (`O-O`): `from`/`to` are the king's squares.
    Castle(CastlingSide),
}

/// A move of the side to move. Only legal moves come out of the engine; to
/// play a move from outside, parse it against a position
/// ([`crate::Position::parse_move`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
    pub promotion: Option<Role>,
}

impl Move {
    pub(crate) const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move {
            from,
            to,
            kind,
            promotion: None,
        }
    }

    /// Coordinate notation: `e2e4`, `e8e9m` (promotion letter in lower case).
    pub fn to_coordinate(&self, letter: impl Fn(Role) -> char) -> String {
        let mut s = format!("{}{}", self.from, self.to);
        if let Some(role) = self.promotion {
            s.push(letter(role).to_ascii_lowercase());
        }
        s
    }
}

/// Enough room for every legal move of any position on a 16x16 board.
pub const MAX_MOVES: usize = 1024;

/// A list of moves, kept on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
