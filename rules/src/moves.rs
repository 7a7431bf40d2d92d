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
    /// No piece moves: a void is put on the empty square `to` (`from` is the
    /// same square). Suicide Void Chess opens with it (`@e5`).
    PlaceVoid,
    /// A new piece (`promotion` names it) put on the empty square `to`
    /// (`from` is the same square): Black Holes' hole drops, `(He1)`.
    Drop,
    /// Chess 99's castling: the king (`from`) and an own piece on the same
    /// first rank (`to`). Next to each other they swap; otherwise the king
    /// steps once towards the piece and the piece takes the king's square.
    FreeCastle,
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
    /// The extra square of a compound move: where the void goes after a
    /// capture in Suicide Void Chess (`Bxe5@d4`), or the hole a piece comes
    /// out of in a relativistic move of Black Holes (`Ra1-b1-a4xb4`: a4).
    pub via: Option<Square>,
}

impl Move {
    pub(crate) const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move {
            from,
            to,
            kind,
            promotion: None,
            via: None,
        }
    }

    /// Puts a void on `sq`.
    pub(crate) const fn place_void(sq: Square) -> Move {
        Move::new(sq, sq, MoveKind::PlaceVoid)
    }

    /// Coordinate notation: `e2e4`, `e8e9m` (promotion letter in lower case),
    /// `@e5` (a void placed), `f1e5@d4` (the void moved after a capture).
    pub fn to_coordinate(&self, letter: impl Fn(Role) -> char) -> String {
        if self.kind == MoveKind::PlaceVoid {
            return format!("@{}", self.to);
        }
        let mut s = format!("{}{}", self.from, self.to);
        if let Some(role) = self.promotion {
            s.push(letter(role).to_ascii_lowercase());
        }
        if let Some(v) = self.via {
            s.push('@');
            s.push_str(&v.to_string());
        }
        s
    }
}

/// Room for every legal move of a position: 16x16 boards have a few hundred,
/// and in Suicide Void Chess each capture comes once per square the void may
/// move to (captures times empty squares: a few hundred in play, about 2,700
/// in the most crowded positions we could build). Larger lists cost speed in
/// every game, measured in `docs/performance.md`.
pub const MAX_MOVES: usize = 4096;

/// A list of moves, kept on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
