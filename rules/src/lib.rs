//! The Voidmate rules engine: chess variants on boards from 5x8 to 16x16,
//! with a tile layer (normal, unstable, void) under the pieces.
//!
//! ```
//! use voidmate_rules::{variants, Position};
//!
//! let mut pos = Position::new(variants::void());
//! pos.play_text("g4").unwrap();
//! pos.play_text("g6").unwrap();
//! let (_, san) = pos.play_text("Mg3").unwrap(); // the Minister: two steps, g1-g2-g3
//! assert_eq!(san, "Mg3");
//! assert_eq!(pos.legal_moves().len(), pos.perft(1) as usize);
//! ```
//!
//! Vocabulary, as in shakmaty: a [`Role`] is what a piece is (knight,
//! minister), a [`Piece`] is a role with its [`Color`]. A [`Square`] is a
//! square of any board up to 16x16; a [`BoardSize`] says which of them are on
//! the board. Each game is a [`Variant`]: a [`variant::Definition`] (board,
//! roster, set-up, promotion, castling) and a few hooks, turned into
//! [`Rules`] once. A [`Position`] is a [`Board`] under some rules, changed only
//! by legal [`Move`]s.
//!
//! Modules: [`movement`] (how pieces move, as data), [`fen`] (FEN with the
//! tile field), [`san`] (notation out, forgiving notation in), [`variants`]
//! (the games and their registry).

mod attacks;
pub mod betza;
mod bitboard;
mod bits;
mod board;
mod checks;
mod color;
pub mod defined;
mod exchange;
pub mod fen;
mod game;
mod legal;
mod movegen;
pub mod movement;
mod moves;
mod outcome;
mod position;
pub mod program;
mod role;
mod rules;
pub mod san;
mod shared;
mod square;
mod tile;
mod unchecked;
pub mod variant;
pub mod variants;
mod zobrist;

pub use attacks::Attacks;
pub use board::Board;
pub use color::{ByColor, Color};
pub use fen::FenError;
pub use game::{ByKind, DefinedGame, GameKind};
pub use moves::{CastlingSide, Move, MoveKind, MoveList, MAX_MOVES};
pub use outcome::{DrawReason, Outcome, WinReason};
pub use position::{IllegalMove, Position};
pub use program::{Program, ProgramError};
pub use role::{Piece, Role};
pub use rules::Rules;
pub use san::{MoveError, MoveErrorKind};
pub use shared::SharedRules;
pub use square::{file_char, BoardSize, Square, SquareSet, MAX_FILES, MAX_RANKS};
pub use tile::{Tile, Unstable};
pub use unchecked::{LegalityCheck, UncheckedMoves};
pub use variant::Variant;

/// Every error this crate returns, for callers that handle them together.
/// Each message is written for a player to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    UnknownVariant(String),
    Fen(FenError),
    Move(MoveError),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::UnknownVariant(name) => {
                let names: Vec<&str> = GameKind::every().into_iter().map(GameKind::name).collect();
                write!(
                    f,
                    "'{name}' is not a variant I know; try one of: {}",
                    names.join(", ")
                )
            }
            Error::Fen(e) => write!(f, "{e}"),
            Error::Move(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<FenError> for Error {
    fn from(e: FenError) -> Error {
        Error::Fen(e)
    }
}

impl From<MoveError> for Error {
    fn from(e: MoveError) -> Error {
        Error::Move(e)
    }
}

/// Looks a variant up by name, with an error that lists the known ones.
pub fn variant(name: &str) -> Result<&'static Rules, Error> {
    variants::by_name(name).ok_or_else(|| Error::UnknownVariant(name.to_string()))
}
