//! Super Chess 16x16: sixteen files and ranks, royal Prince and Princess,
//! the Archbishop, the Super Knight, the Fortress and Super Pawns.
//! `docs/rules/super16.md` has the rules, our set-up and our decisions.
//!
//! - Prince: up to four squares in any direction, jumping. Princess: up to
//!   four, sliding. Archbishop: three squares diagonally, then one
//!   orthogonally, every square of the way empty. Super Knight: three
//!   squares orthogonally, then one diagonally, jumping. Fortress: one step
//!   any way. The Programmable Piece, unprogrammed, steps one square
//!   orthogonally.
//! - Super Pawns advance one or two squares on every move.
//! - A piece next to its own Fortress may be taken by the enemy King, Queen,
//!   Prince or Princess as usual; any other capturer is removed with it.
//! - Castling as in chess; the 100-move rule is a claim.

use super::standard::orthodox_roster;
use crate::board::Board;
use crate::movegen::destroy;
use crate::movement::{Component, Movement, Vector, DIAGONAL, KNIGHT, ORTHOGONAL};
use crate::variant::{CastlingDef, Definition, MoveEffect, RoleDef, Variant};
use crate::{BoardSize, Color, DrawReason, MoveKind, Role, Rules, Square};

pub struct Super16;

const SIZE: BoardSize = match BoardSize::new(16, 16) {
    Some(s) => s,
    None => panic!("16x16 is a board size"),
};

fn all_dirs() -> Vec<Vector> {
    ORTHOGONAL.iter().chain(&DIAGONAL).copied().collect()
}

impl Variant for Super16 {
    fn definition(&self) -> Definition {
        let mut roster = orthodox_roster();
        let prince: Vec<Vector> = all_dirs()
            .into_iter()
            .flat_map(|(f, r)| (1..=4).map(move |k| (f * k, r * k)))
            .collect();
        let mut archbishop = Vec::new();
        for d in DIAGONAL {
            for o in ORTHOGONAL {
                archbishop.push(vec![d, d, d, o]);
            }
        }
        let mut super_knight: Vec<Vector> = Vec::new();
        for (of, or) in ORTHOGONAL {
            for (df, dr) in DIAGONAL {
                let v = (of * 3 + df, or * 3 + dr);
                if !super_knight.contains(&v) {
                    super_knight.push(v);
                }
            }
        }
        debug_assert!(KNIGHT.iter().all(|k| super_knight.contains(k)));
        roster.extend([
            RoleDef {
                role: Role::Prince,
                letter: 'I',
                movement: Movement::of(vec![Component::Leap(prince)]),
            },
            RoleDef {
                role: Role::Princess,
                letter: 'S',
                movement: Movement::of(vec![Component::Ride {
                    dirs: all_dirs(),
                    range: Some(4),
                }]),
            },
            RoleDef {
                role: Role::Archbishop,
                letter: 'H',
                movement: Movement::of(vec![Component::Path(archbishop)]),
            },
            RoleDef {
                role: Role::SuperKnight,
                letter: 'U',
                movement: Movement::of(vec![Component::Leap(super_knight)]),
            },
            RoleDef {
                role: Role::Fortress,
                letter: 'F',
                movement: Movement::of(vec![Component::Leap(all_dirs())]),
            },
            RoleDef {
                role: Role::Programmable,
                letter: 'G',
                movement: Movement::of(vec![Component::Leap(ORTHOGONAL.to_vec())]),
            },
        ]);
        Definition {
            name: crate::GameKind::Super16.name(),
            title: crate::GameKind::Super16.title(),
            size: SIZE,
            roster,
            // Fortresses wait on the second rank in front of the king's two
            // castling squares (f and j), so that after castling on either
            // side the king stands next to one; the Super Pawns start on the
            // third rank.
            start_fen: "rnbhusqkigbhunfr/5f3f6/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/5F3F6/RNBHUSQKIGBHUNFR w KQkq - 0 1",
            promotion: vec![
                Role::Queen,
                Role::Prince,
                Role::Princess,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Archbishop,
                Role::SuperKnight,
                Role::Fortress,
                Role::Programmable,
            ],
            castling: Some(CastlingDef {
                rank: 0,
                king_file: 7,
                rook_from: [15, 0],
                king_to: [9, 5],
                rook_to: [8, 6],
            }),
            royal: Some(Role::King),
        }
    }

    /// The page: a Super Pawn promotes to a Queen unless the player picks
    /// another piece.
    fn default_promotion(&self) -> Option<Role> {
        Some(Role::Queen)
    }

    fn double_step_anywhere(&self) -> bool {
        true
    }

    fn fifty_move_rule(&self) -> bool {
        false
    }

    /// Only a capture can remove a piece (the Fortress's capturer, below).
    fn plain_quiet_moves(&self) -> bool {
        true
    }

    /// Fortress protection: a non-royal capturer of a piece standing next
    /// to its own side's Fortress is removed too.
    fn after_move(&self, rules: &Rules, board: &mut Board, effect: &MoveEffect) {
        let Some(victim) = effect.captured else {
            return;
        };
        let at = if effect.mv.kind == MoveKind::EnPassant {
            Square::new(effect.mv.to.file(), effect.mv.from.rank())
        } else {
            effect.mv.to
        };
        let capturer = if effect.mv.promotion.is_some() {
            Role::Pawn
        } else {
            effect.landed.role
        };
        if self.capturer_removed(board, at, capturer, victim.color) {
            destroy(rules, board, effect.mv.to);
        }
    }

    /// Any capturer but the King, Queen, Prince and Princess of a piece
    /// next to its own side's Fortress.
    fn capturer_removed(&self, board: &Board, at: Square, capturer: Role, victim: Color) -> bool {
        !matches!(
            capturer,
            Role::King | Role::Queen | Role::Prince | Role::Princess
        ) && guarded(board, at, victim)
    }

    fn claimable_draw(&self, _rules: &Rules, board: &Board) -> Option<DrawReason> {
        (board.halfmove_clock() >= 200).then_some(DrawReason::HundredMoveRule)
    }

    /// Decision (docs/rules/super16.md): the orthodox dead positions, with
    /// this game's pieces. Besides the kings, nothing; or a single piece
    /// that can never mate a bare king with its own king's help (Knight,
    /// Bishop, Super Knight, Archbishop, or an unprogrammed Programmable
    /// Piece: `cannot_mate_alone` below enumerates every position to show
    /// it); or bishops all on squares of one colour. Reprogrammed pieces
    /// may move any way, so in such games only bare kings draw.
    fn insufficient_material(&self, rules: &Rules, board: &Board) -> bool {
        // Asked at every node of a search: answered from the counts, with
        // no walk of the board while any pawn stands (a pawn may promote).
        if board.count_both(Role::Pawn) > 0 {
            return false;
        }
        let pieces = board.occupied(Color::White).len() + board.occupied(Color::Black).len();
        let others = pieces - usize::from(board.count_both(Role::King));
        let mut roles = Color::ALL
            .iter()
            .flat_map(|&c| board.occupied(c).iter())
            .filter_map(|sq| board.piece_at(sq).map(|p| p.role))
            .filter(|&r| r != Role::King);
        match others {
            0 => true,
            _ if rules.is_programmed() => false,
            1 => roles
                .next()
                .is_some_and(|one| CANNOT_MATE_ALONE.contains(&one)),
            _ => roles.all(|r| r == Role::Bishop) && super::standard::bishops_on_one_colour(board),
        }
    }
}

/// Pieces that, with their king, can never checkmate a bare king.
const CANNOT_MATE_ALONE: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::SuperKnight,
    Role::Archbishop,
    Role::Programmable,
];

/// Is `sq` next to a Fortress of `color`?
pub fn guarded(board: &Board, sq: Square, color: Color) -> bool {
    ORTHOGONAL.iter().chain(&DIAGONAL).any(|&(f, r)| {
        let (x, y) = (sq.file() as i16 + f as i16, sq.rank() as i16 + r as i16);
        (0..16).contains(&x)
            && (0..16).contains(&y)
            && board
                .piece_at(Square::new(x as u8, y as u8))
                .is_some_and(|p| p.color == color && p.role == Role::Fortress)
    })
}

#[cfg(test)]
mod tests {
    use crate::board::Board;
    use crate::legal::legal_moves;
    use crate::movegen::in_check;
    use crate::{Color, MoveList, Role, Square};

    /// Is there a checkmate of a bare Black king by White's king and one
    /// `role`, anywhere on the board? The board and these pieces are
    /// symmetric under the eight turns and mirrors of the square, so the
    /// Black king is tried in one eighth of it.
    fn can_mate(role: Role) -> Option<String> {
        let rules = super::super::super16();
        let mut moves = MoveList::new();
        for kf in 0..8u8 {
            for kr in 0..=kf {
                let bk = Square::new(kf, kr);
                for wk in rules.size().squares() {
                    if wk.distance(bk) < 2 {
                        continue;
                    }
                    for sq in rules.size().squares() {
                        if sq == wk || sq == bk {
                            continue;
                        }
                        let mut b: Board = rules.empty;
                        b.put(bk, Color::Black, Role::King);
                        b.put(wk, Color::White, Role::King);
                        b.put(sq, Color::White, role);
                        b.set_turn(Color::Black);
                        if !in_check(rules, &b) {
                            continue;
                        }
                        moves.clear();
                        legal_moves(rules, &b, &mut moves);
                        if moves.is_empty() {
                            return Some(format!("K{wk} {role:?}{sq} mates k{bk}"));
                        }
                    }
                }
            }
        }
        None
    }

    /// Dead positions: a bare king against a king with a piece that
    /// cannot mate alone, or with bishops on one colour; anything else
    /// (a pawn, which may promote, two minor pieces, bishops on both
    /// colours) plays on.
    #[test]
    fn insufficient_material_is_read_from_the_pieces() {
        use crate::variant::Variant;
        let rules = super::super::super16();
        let board = |pieces: &[(&str, Color, Role)]| {
            let mut b: Board = rules.empty;
            b.put("a1".parse().unwrap(), Color::White, Role::King);
            b.put("p16".parse().unwrap(), Color::Black, Role::King);
            for &(sq, c, r) in pieces {
                b.put(sq.parse().unwrap(), c, r);
            }
            b
        };
        let dead = |pieces: &[(&str, Color, Role)]| {
            super::Super16.insufficient_material(rules, &board(pieces))
        };
        assert!(dead(&[]));
        assert!(dead(&[("h8", Color::White, Role::Knight)]));
        assert!(dead(&[("h8", Color::Black, Role::Archbishop)]));
        assert!(dead(&[("h8", Color::White, Role::SuperKnight)]));
        // h8 and g7 are of one colour, h8 and h7 not.
        assert!(dead(&[
            ("h8", Color::White, Role::Bishop),
            ("g7", Color::Black, Role::Bishop)
        ]));
        assert!(!dead(&[
            ("h8", Color::White, Role::Bishop),
            ("h7", Color::Black, Role::Bishop)
        ]));
        assert!(!dead(&[("h8", Color::White, Role::Pawn)]));
        assert!(!dead(&[("h8", Color::Black, Role::Queen)]));
        assert!(!dead(&[("h8", Color::White, Role::Fortress)]));
        assert!(!dead(&[
            ("h8", Color::White, Role::Knight),
            ("c3", Color::White, Role::Knight)
        ]));
        assert!(!dead(&[
            ("h8", Color::White, Role::Bishop),
            ("c3", Color::White, Role::Pawn)
        ]));
    }

    /// The proof behind [`super::CANNOT_MATE_ALONE`]: no position at all
    /// is mate with those pieces, and the other pieces do have one.
    #[test]
    fn cannot_mate_alone() {
        for role in super::CANNOT_MATE_ALONE {
            assert_eq!(can_mate(role), None, "{role:?}");
        }
        for role in [
            Role::Fortress,
            Role::Prince,
            Role::Princess,
            Role::Rook,
            Role::Queen,
        ] {
            assert!(can_mate(role).is_some(), "{role:?} should have a mate");
        }
    }
}
