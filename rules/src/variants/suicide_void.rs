//! Suicide Void Chess: antichess with one movable void square.
//! `docs/rules/suicide-void.md` has the rules and our decisions in our words.
//!
//! - Antichess underneath: compulsory capture, no check, no castling, pawns
//!   may promote to a king, no pieces or no moves left wins.
//! - Black opens by putting the void on an empty square (`@e5`), before
//!   White's first move.
//! - Nothing lands on the void; sliders and pawns cannot pass it; knights
//!   jump it. (The void is a void tile, so the move generator already knows.)
//! - Every capture moves the void, in the same move, to another empty square
//!   (`Bxe5@d4`). Whether a capture is possible is judged with the void
//!   where it stood.
//! - Optionally ("promotion wins"), a pawn reaching its last rank wins, unless
//!   that move took the opponent's last piece: then the opponent has nothing
//!   left and wins.

use super::antichess::Antichess;
use super::standard::orthodox_roster;
use crate::board::Board;
use crate::movegen::is_capture;
use crate::variant::{Definition, MoveEffect, Variant};
use crate::{BoardSize, MoveKind, MoveList, Outcome, Rules, Square, WinReason};

pub struct SuicideVoid {
    /// A pawn reaching its last rank wins at once.
    pub promotion_wins: bool,
}

const SIZE: BoardSize = match BoardSize::new(8, 8) {
    Some(s) => s,
    None => panic!("8x8 is a board size"),
};

impl Variant for SuicideVoid {
    fn voids(&self) -> crate::variant::Voids {
        crate::variant::Voids::Placed
    }

    fn definition(&self) -> Definition {
        let kind = if self.promotion_wins {
            crate::GameKind::SuicideVoidPromotionWins
        } else {
            crate::GameKind::SuicideVoid
        };
        let (name, title) = (kind.name(), kind.title());
        Definition {
            name,
            title,
            size: SIZE,
            roster: orthodox_roster(),
            // Black moves first: it places the void.
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1",
            // As in antichess: a pawn may become a king too.
            promotion: Antichess.definition().promotion,
            castling: None,
            royal: None,
        }
    }

    /// The void is on the board from Black's opening placement on: a
    /// position without it is before that placement, so Black is to move.
    fn validate_setup(&self, _rules: &Rules, board: &Board) -> Result<(), String> {
        if board.voids().is_empty() && board.turn() == crate::Color::White {
            return Err(
                "a position without the void must have Black to move: Black places the void before White's first move"
                    .into(),
            );
        }
        Ok(())
    }

    fn after_move(&self, _rules: &Rules, board: &mut Board, effect: &MoveEffect) {
        if let Some(to) = effect.mv.via {
            board.move_void(to);
        }
        if self.promotion_wins
            && effect.mv.promotion.is_some()
            && !board.occupied(!effect.mover).is_empty()
        {
            board.winner = Some(effect.mover);
        }
    }

    fn filter_moves(&self, rules: &Rules, board: &Board, moves: &mut MoveList) {
        if board.winner.is_some() {
            moves.clear();
            return;
        }
        if board.voids().is_empty() {
            // The opening placement: any empty square.
            moves.clear();
            for sq in SIZE.squares().filter(|&sq| board.is_empty(sq)) {
                moves.push(crate::Move::place_void(sq));
            }
            return;
        }
        Antichess.filter_moves(rules, board, moves);
        if !moves.first().is_some_and(|m| is_capture(board, m)) {
            return;
        }
        // Every capture, once per square the void may move to, in board
        // order: empty now or emptied by the capture, but not where it lands.
        let captures: Vec<crate::Move> = moves.drain(..).collect();
        for m in captures {
            let taken_en_passant =
                (m.kind == MoveKind::EnPassant).then(|| Square::new(m.to.file(), m.from.rank()));
            let targets = SIZE.squares().filter(|&sq| {
                sq != m.to && (board.is_empty(sq) || sq == m.from || Some(sq) == taken_en_passant)
            });
            for to in targets {
                moves.push(crate::Move { via: Some(to), ..m });
            }
        }
    }

    fn filters_moves(&self) -> bool {
        true
    }

    fn no_moves_outcome(&self, _rules: &Rules, board: &Board) -> Option<Outcome> {
        Some(match board.winner {
            Some(winner) => Outcome::Win {
                winner,
                reason: WinReason::PawnPromoted,
            },
            None => Outcome::Win {
                winner: board.turn(),
                reason: WinReason::NothingLeftToGive,
            },
        })
    }

    fn insufficient_material(&self, _rules: &Rules, _board: &Board) -> bool {
        false
    }
}
