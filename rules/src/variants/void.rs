//! Void Chess: a 9x9 board, the Minister, and captures that leave unstable
//! tiles which turn into permanent voids.
//!
//! Rules: `shared/seeds/000_c717a4840474cea1.txt`; our decisions where it is
//! silent are in `docs/rules/void.md`, and each has a test in
//! `rules/tests/void.rs`.

mod fortress;

use crate::movegen::{destroy, unstable_at};
use crate::movement::minister;
use crate::variant::{CastlingDef, Definition, MoveEffect, Restriction, RoleDef, Variant};
use crate::{Board, BoardSize, Color, DrawReason, Outcome, Role, Rules, Square, WinReason};

pub use fortress::{fortress_of, FORTRESS_SIEGE_PLIES};

pub struct VoidChess;

impl Variant for VoidChess {
    fn voids(&self) -> crate::variant::Voids {
        crate::variant::Voids::ByRule
    }

    fn definition(&self) -> Definition {
        let mut roster = super::standard::orthodox_roster();
        roster.push(RoleDef {
            role: Role::Minister,
            letter: 'M',
            movement: minister(),
        });
        Definition {
            name: crate::GameKind::Void.name(),
            title: crate::GameKind::Void.title(),
            size: BoardSize::new(9, 9).expect("9x9"),
            roster,
            start_fen: "rnbqkbmnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKBMNR w KQkq - 0 1",
            promotion: vec![
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Minister,
            ],
            // Decision 7: the king goes two squares, the rook jumps over it.
            castling: Some(CastlingDef {
                rank: 0,
                king_file: 4,
                rook_from: [8, 0],
                king_to: [6, 2],
                rook_to: [5, 3],
            }),
            royal: Some(Role::King),
        }
    }

    /// Decisions 1, 2 and 6: the mover's old unstable tile turns void
    /// (destroying what still stands on it); then a capture by anything but
    /// the Minister makes its square the mover's new unstable tile, while a
    /// Minister (also a pawn just promoted to one) heals the tile it lands on.
    fn after_move(&self, rules: &Rules, board: &mut Board, effect: &MoveEffect) {
        let us = effect.mover;
        let them = !us;
        if let Some(old) = board.unstable(us) {
            board.set_unstable(us, None);
            let sq = old.square;
            match board.piece_at(sq) {
                // A piece that heals (the Minister) keeps its tile.
                Some(p) if rules.gen(p.color, p.role.index()).heals => {}
                Some(_) => {
                    destroy(rules, board, sq);
                    board.set_void(sq, true);
                    // Decision 8: losing a piece to the void resets the 50-move count.
                    board.halfmove = 0;
                }
                None => board.set_void(sq, true),
            }
        }
        let to = effect.mv.to;
        if rules.gen(effect.mover, effect.landed.role.index()).heals {
            for owner in Color::ALL {
                if board.unstable(owner).is_some_and(|u| u.square == to) {
                    board.set_unstable(owner, None);
                }
            }
        } else if effect.captured.is_some() {
            if board.unstable(them).is_some_and(|u| u.square == to) {
                board.set_unstable(them, None);
            }
            board.set_unstable(us, Some(unstable_at(to, board.fullmove)));
        }
    }

    fn removal_square(&self, board: &Board) -> Option<Square> {
        board.unstable(board.turn()).map(|u| u.square)
    }

    /// Decisions 2 and 3 leave king safety to the tables but for the mover's
    /// unstable tile: after the move it is a void or holds a Minister, and
    /// either blocks riders. (Walkers cross voids; the bitboard route tests
    /// the moves that this could concern by playing them.)
    fn bitboard_legality(&self) -> bool {
        true
    }

    fn limits_or_blocks(&self) -> bool {
        true
    }

    fn blocker_after_move(&self, board: &Board) -> Option<Square> {
        self.removal_square(board)
    }

    /// Decision 4: a king on its own unstable tile must move.
    fn restriction(&self, _rules: &Rules, board: &Board) -> Option<Restriction> {
        let us = board.turn();
        let king = board.king(us)?;
        board
            .unstable(us)
            .filter(|u| u.square == king)
            .map(|_| Restriction {
                only_from: king,
                reason: format!("your king on {king} stands on an unstable tile and must move"),
            })
    }

    /// Decision 4: with no move and not in check, a king on an unstable tile
    /// is destroyed and its side loses.
    fn no_moves_outcome(&self, _rules: &Rules, board: &Board) -> Option<Outcome> {
        let us = board.turn();
        let king = board.king(us)?;
        board
            .unstable(us)
            .filter(|u| u.square == king)
            .map(|_| Outcome::Win {
                winner: !us,
                reason: WinReason::KingLostToVoid,
            })
    }

    fn variant_draw(&self, rules: &Rules, board: &Board) -> Option<DrawReason> {
        if fortress::immediate_draw(rules, board) {
            Some(DrawReason::VoidFortress)
        } else if board.siege_plies() >= FORTRESS_SIEGE_PLIES {
            Some(DrawReason::VoidSiege)
        } else {
            None
        }
    }

    /// The rules page: only kings left.
    fn insufficient_material(&self, _rules: &Rules, board: &Board) -> bool {
        Color::ALL
            .iter()
            .all(|&c| board.occupied(c).len() == board.count(c, Role::King) as usize)
    }

    fn update_counters(&self, rules: &Rules, board: &mut Board) {
        if fortress::siege_holds(rules, board) {
            board.siege = board.siege.saturating_add(1);
        } else {
            board.siege = 0;
        }
    }
}
