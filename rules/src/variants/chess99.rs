//! Chess 99: 9x9, the paladin (knight + bishop), capture the king.
//! `docs/rules/chess99.md` has the rules and our decisions in our words.
//!
//! - The paladin (`A`) leaps like a knight and slides like a bishop.
//! - Pawns advance one or two empty squares on every move; a two-square
//!   advance may be taken en passant by any piece that could capture on the
//!   square passed, landing there.
//! - The king castles with an own piece next to it on the first rank (they
//!   swap), or with the queen or a rook there across empty squares (the king
//!   steps once towards it, the piece takes the king's square), any number of
//!   times, in or into check.
//! - The goal is the king: moves may leave one's own king attacked. Taking the
//!   king while one's own king is attacked after the capture, or with nothing
//!   left but one's king, draws.
//! - A pawn on the last rank waits; on a later turn it becomes a knight or
//!   bishop and moves as that piece in the same move (`e9=Nd7`).
//! - No stalemate, no automatic draws; both kings attacked, or 99 moves by the
//!   opponent, let the player to move claim a draw.

use super::standard::orthodox_roster;
use crate::board::Board;
use crate::legal::attacked;
use crate::movegen::{moves_as, pseudo_moves, role_at};
use crate::movement::{Component, Movement, DIAGONAL, KNIGHT};
use crate::variant::{Definition, RoleDef, Variant};
use crate::{
    BoardSize, Color, DrawReason, Move, MoveKind, MoveList, Outcome, Role, Rules, Square, WinReason,
};

pub struct Chess99;

const SIZE: BoardSize = match BoardSize::new(9, 9) {
    Some(s) => s,
    None => panic!("9x9 is a board size"),
};

/// The opponent has completed this many moves: the player to move may claim.
const CLAIM_AFTER_MOVES: u16 = 99;

impl Variant for Chess99 {
    fn definition(&self) -> Definition {
        let mut roster = orthodox_roster();
        roster.push(RoleDef {
            role: Role::Paladin,
            letter: 'A',
            movement: Movement::of(vec![
                Component::Leap(KNIGHT.to_vec()),
                Component::Ride {
                    dirs: DIAGONAL.to_vec(),
                    range: None,
                },
            ]),
        });
        Definition {
            name: crate::GameKind::Chess99.name(),
            title: crate::GameKind::Chess99.title(),
            size: SIZE,
            roster,
            start_fen: "rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w - - 0 1",
            promotion: vec![Role::Knight, Role::Bishop],
            castling: None,
            royal: Some(Role::King),
        }
    }

    fn king_capture(&self) -> bool {
        true
    }

    fn double_step_anywhere(&self) -> bool {
        true
    }

    fn delayed_promotion(&self) -> bool {
        true
    }

    fn en_passant_by_any_piece(&self) -> bool {
        true
    }

    fn automatic_draws(&self) -> bool {
        false
    }

    fn filter_moves(&self, rules: &Rules, board: &Board, moves: &mut MoveList) {
        let us = board.turn();
        if board.king(us).is_none() || board.king(!us).is_none() {
            // A king was taken: the game is over.
            moves.clear();
            return;
        }
        waiting_pawn_moves(rules, board, moves);
        if let Some(passed) = board.en_passant() {
            // Decision (docs/rules/chess99.md): the pawn is taken as if it
            // had stopped on the square it passed. Whatever could capture a
            // pawn standing there may take it, even a piece whose way the
            // pawn now blocks; the taker lands on the passed square.
            moves.retain(|m| m.to != passed);
            let pushed_back = pushed_back(board, passed);
            let mut takes = MoveList::new();
            pseudo_moves(rules, &pushed_back, &mut takes);
            waiting_pawn_moves(rules, &pushed_back, &mut takes);
            for m in takes.iter().filter(|m| m.to == passed) {
                moves.push(Move {
                    kind: MoveKind::EnPassant,
                    ..*m
                });
            }
        }
        castling(board, us, home_rank_of(us), moves);
    }

    fn filters_moves(&self) -> bool {
        true
    }

    /// Whatever takes the pawn en passant takes it on the square it passed
    /// (see `filter_moves`), so nothing can unless that square, the pawn
    /// pushed back onto it, is attacked: one attack test instead of two
    /// move lists after every double step.
    fn may_take_en_passant(&self, rules: &Rules, board: &Board) -> bool {
        board.en_passant().is_some_and(|passed| {
            attacked(rules, &pushed_back(board, passed), passed, board.turn())
        })
    }

    fn no_moves_outcome(&self, rules: &Rules, board: &Board) -> Option<Outcome> {
        let mover = board.turn();
        if board.king(mover).is_some() {
            // The page says a player always has a move; if none is left, we
            // call it a draw rather than invent a loss.
            return Some(Outcome::Draw(DrawReason::Stalemate));
        }
        let taker = !mover;
        let Some(k) = board.king(taker) else {
            return Some(Outcome::Draw(DrawReason::KingTakenInCheck));
        };
        Some(if attacked(rules, board, k, mover) {
            Outcome::Draw(DrawReason::KingTakenInCheck)
        } else if board.occupied(taker).iter().count() == 1 {
            Outcome::Draw(DrawReason::PyrrhicVictory)
        } else {
            Outcome::Win {
                winner: taker,
                reason: WinReason::KingCaptured,
            }
        })
    }

    fn claimable_draw(&self, rules: &Rules, board: &Board) -> Option<DrawReason> {
        let us = board.turn();
        let (Some(ours), Some(theirs)) = (board.king(us), board.king(!us)) else {
            return None;
        };
        if attacked(rules, board, ours, !us) && attacked(rules, board, theirs, us) {
            return Some(DrawReason::BothKingsAttacked);
        }
        let opponent_moves = match us {
            Color::White => board.fullmove_number() - 1,
            Color::Black => board.fullmove_number(),
        };
        (opponent_moves >= CLAIM_AFTER_MOVES).then_some(DrawReason::NinetyNineMoves)
    }

    fn insufficient_material(&self, _rules: &Rules, _board: &Board) -> bool {
        false
    }
}

/// The board with the pawn that just stepped twice standing on `passed`,
/// the square it crossed, and no en-passant right: where an en-passant
/// capture takes it.
fn pushed_back(board: &Board, passed: Square) -> Board {
    let mut b = *board;
    b.take(passed.offset(-Rules::pawn_forward(board.turn())));
    b.put(passed, !board.turn(), Role::Pawn);
    b.set_ep(None);
    b
}

/// Pawns waiting on the last rank: each becomes a knight or bishop and
/// moves as that piece.
fn waiting_pawn_moves(rules: &Rules, board: &Board, moves: &mut MoveList) {
    let us = board.turn();
    let last = rules.promotion_rank(us);
    for from in board.occupied(us).iter() {
        if from.rank() == last && role_at(board, from) == Role::Pawn {
            for &role in rules.promotion_roles() {
                let start = moves.len();
                moves_as(rules, board, from, role, moves);
                for m in &mut moves[start..] {
                    m.promotion = Some(role);
                }
            }
        }
    }
}

fn home_rank_of(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => SIZE.ranks() - 1,
    }
}

/// Castling moves of `us`'s king, if it stands on its first rank `home`.
fn castling(board: &Board, us: Color, home: u8, moves: &mut MoveList) {
    let Some(king) = board.king(us).filter(|k| k.rank() == home) else {
        return;
    };
    for step in [-1i16, 1] {
        let mut file = king.file() as i16 + step;
        while (0..SIZE.files() as i16).contains(&file) {
            let sq = Square::new(file as u8, home);
            match board.piece_at(sq) {
                None if board.tile(sq) == crate::Tile::Normal => {}
                Some(p) if p.color == us => {
                    let next = king.distance(sq) == 1;
                    if next || matches!(p.role, Role::Queen | Role::Rook) {
                        moves.push(Move::new(king, sq, MoveKind::FreeCastle));
                    }
                    break;
                }
                _ => break,
            }
            file += step;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::legal::all_legal_moves;
    use crate::movegen::play;
    use crate::variant::Variant;
    use crate::{MoveKind, Position};

    /// The quick test drops an en-passant right only where the full list
    /// of legal moves has no en-passant capture, and the position keeps
    /// the right exactly when it has one: after every double step of
    /// varied games, with captures taken often so the pawns meet.
    #[test]
    fn the_quick_en_passant_test_never_drops_a_usable_right() {
        let rules = super::super::chess99();
        let (mut dropped, mut usable) = (0, 0);
        for game in 0..40usize {
            let mut pos = Position::new(rules);
            for ply in 0..160usize {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for m in moves.iter().filter(|m| m.kind == MoveKind::DoubleStep) {
                    let mut raw = *pos.board();
                    play(rules, &mut raw, m);
                    let full = all_legal_moves(rules, &raw)
                        .iter()
                        .any(|m| m.kind == MoveKind::EnPassant);
                    let quick = super::Chess99.may_take_en_passant(rules, &raw);
                    assert!(quick || !full, "{} then {m:?}", pos.fen());
                    assert_eq!(pos.after(m).board().en_passant().is_some(), full);
                    dropped += usize::from(!quick);
                    usable += usize::from(full);
                }
                let captures: Vec<_> = moves
                    .iter()
                    .filter(|m| m.kind == MoveKind::EnPassant || pos.piece_at(m.to).is_some())
                    .collect();
                let m = if !captures.is_empty() && ply % 2 == 0 {
                    *captures[(game + ply) % captures.len()]
                } else {
                    moves[(game * 13 + ply * 29 + 7) % moves.len()]
                };
                pos.play(&m).unwrap();
            }
        }
        assert!(dropped > 100, "the quick test dropped {dropped} rights");
        assert!(usable > 10, "only {usable} usable rights were met");
    }
}
