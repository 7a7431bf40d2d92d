//! Antichess (giveaway chess), as played internationally: the yardstick for
//! Suicide Void Chess. `docs/rules/antichess.md` has the rules in our words.
//!
//! - Capturing is compulsory: when any capture is possible, only captures are
//!   legal (the player chooses among them).
//! - The king is an ordinary piece: there is no check, no checkmate and no
//!   castling, and a pawn may promote to a king.
//! - A player with no pieces left, or with no legal move, wins.

use super::standard::orthodox_roster;
use crate::movegen::is_capture;
use crate::variant::{Definition, Variant};
use crate::{Board, BoardSize, MoveList, Outcome, Role, Rules, WinReason};

pub struct Antichess;

impl Variant for Antichess {
    fn definition(&self) -> Definition {
        Definition {
            name: crate::GameKind::Antichess.name(),
            title: crate::GameKind::Antichess.title(),
            size: BoardSize::new(8, 8).expect("8x8"),
            roster: orthodox_roster(),
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            promotion: vec![
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::King,
            ],
            castling: None,
            royal: None,
        }
    }

    fn filter_moves(&self, _rules: &Rules, board: &Board, moves: &mut MoveList) {
        if moves.iter().any(|m| is_capture(board, m)) {
            moves.retain(|m| is_capture(board, m));
        }
    }

    fn filters_moves(&self) -> bool {
        true
    }

    /// No move (which includes having no piece) wins.
    fn no_moves_outcome(&self, _rules: &Rules, board: &Board) -> Option<Outcome> {
        Some(Outcome::Win {
            winner: board.turn(),
            reason: WinReason::NothingLeftToGive,
        })
    }

    /// Any two pieces can still give themselves away; no position is dead
    /// by material alone.
    fn insufficient_material(&self, _rules: &Rules, _board: &Board) -> bool {
        false
    }
}
