//! Void fortresses (decision 9 of `docs/rules/void.md`).
//!
//! A king's fortress is every non-void square its king could walk to by king
//! steps over non-void squares, pieces ignored, when that is not the whole
//! playable board: the voids cut it off from the rest.
//!
//! "Can get in": an enemy piece can get into a fortress if it stands in it, or
//! if it is a leaper (a knight) whose own jumps over non-void squares, pieces
//! ignored, reach a square of it. Sliders, pawns and kings move through
//! neighbouring squares, so a ring of voids stops them for good; the Minister
//! crosses voids and is treated by the rule itself ("no Minister on the
//! board", or the siege).
//!
//! "Can still promote": a pawn has a path of forward steps, straight or
//! diagonal, over non-void squares to its last rank, pieces ignored (a piece
//! may move away, and a diagonal step needs only something to capture).

use crate::bits;
use crate::board::{is_piece, Board, EMPTY, VOID};
use crate::rules::Rules;
use crate::{Color, Role, Square, SquareSet};

/// A siege of 20 full moves ends the game in a draw.
pub const FORTRESS_SIEGE_PLIES: u16 = 40;

const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

fn walkable(b: &Board, sq: Square) -> bool {
    let c = b.cells[sq.index()];
    c == EMPTY || is_piece(c)
}

/// Squares reached from `start` by repeating `deltas` over non-void squares.
fn reach(b: &Board, start: Square, deltas: &[i16]) -> SquareSet {
    let mut seen = SquareSet::EMPTY;
    seen.insert(start);
    let mut stack = vec![start];
    while let Some(sq) = stack.pop() {
        for &d in deltas {
            let next = sq.offset(d);
            if walkable(b, next) && !seen.contains(next) {
                seen.insert(next);
                stack.push(next);
            }
        }
    }
    seen
}

/// How many squares `king`'s region holds (what it could walk to over
/// non-void squares, pieces ignored), on a board that keeps bit sets: the
/// region grows by king steps, all its squares at once, until it stops.
/// `None` on a board without them. The outcome of every position of a Void
/// Chess game with voids asks this, so it is the search's business too: the
/// square-by-square walk of the mailbox cost a third of the search's time.
fn region_size_bits(rules: &Rules, b: &Board, king: Square) -> Option<usize> {
    if b.width == 0 {
        return None;
    }
    let (w, h) = (u32::from(b.width), u32::from(rules.size().ranks()));
    let n = w * h;
    let board = if n >= 128 { !0u128 } else { (1u128 << n) - 1 };
    let walkable = board & !b.bits.void;
    let first_file = (0..h).fold(0u128, |m, r| m | 1 << (r * w));
    let last_file = first_file << (w - 1);
    let mut region = 1u128 << bits::bit(king, b.width);
    loop {
        let ranks = region | region << w | region >> w;
        let grown = (ranks | (ranks << 1) & !first_file | (ranks >> 1) & !last_file) & walkable;
        if grown == region {
            return Some(region.count_ones() as usize);
        }
        region = grown;
    }
}

/// The fortress of `color`'s king, if the voids cut one off.
pub fn fortress_of(rules: &Rules, b: &Board, color: Color) -> Option<SquareSet> {
    if b.voids().is_empty() {
        return None;
    }
    let king = b.king(color)?;
    let playable = rules.size().area() - b.voids().len();
    // Almost always the king can walk everywhere: the bit sets say so
    // quickly, and the walk below is left for a fortress.
    if region_size_bits(rules, b, king).is_some_and(|n| n >= playable) {
        return None;
    }
    let steps: Vec<i16> = KING_STEPS.iter().map(|&v| crate::rules::delta(v)).collect();
    let region = reach(b, king, &steps);
    (region.len() < playable).then_some(region)
}

/// Can some piece of `enemy` get into `fortress` (the Minister aside)?
fn enemy_can_enter(rules: &Rules, b: &Board, fortress: &SquareSet, enemy: Color) -> bool {
    if b.occupied(enemy).intersects(fortress) {
        return true;
    }
    b.occupied(enemy).iter().any(|sq| {
        let role = b.piece_at(sq).map(|p| p.role).unwrap_or(Role::Pawn);
        let g = rules.gen(enemy, role.index());
        role != Role::Minister && !g.leaps.is_empty() && reach(b, sq, &g.leaps).intersects(fortress)
    })
}

fn pawn_can_promote(rules: &Rules, b: &Board, color: Color, from: Square) -> bool {
    let goal = rules.promotion_rank(color);
    let dr: i8 = if color == Color::White { 1 } else { -1 };
    let mut frontier = vec![from];
    while !frontier.is_empty() {
        if frontier.iter().any(|s| s.rank() == goal) {
            return true;
        }
        let mut next: Vec<Square> = Vec::new();
        for sq in &frontier {
            for df in [-1, 0, 1] {
                if let Some(t) = sq.shifted(df, dr) {
                    if rules.size().contains(t) && b.cells[t.index()] != VOID && !next.contains(&t)
                    {
                        next.push(t);
                    }
                }
            }
        }
        frontier = next;
    }
    false
}

fn any_pawn_can_promote(rules: &Rules, b: &Board) -> bool {
    Color::ALL.iter().any(|&c| {
        b.occupied(c).iter().any(|sq| {
            b.piece_at(sq).map(|p| p.role) == Some(Role::Pawn) && pawn_can_promote(rules, b, c, sq)
        })
    })
}

/// Neither king can ever be reached by an enemy piece other than a Minister:
/// no enemy stands in its part of the board and no enemy leaper can jump
/// into it. Checked for both kings, because a wall that seals one king in
/// also seals the other king out: if the sealed side still has a piece in
/// the other part (a queen, say), it can still give mate, and the game is no
/// draw.
fn kings_unreachable(rules: &Rules, b: &Board) -> bool {
    let steps: Vec<i16> = KING_STEPS.iter().map(|&v| crate::rules::delta(v)).collect();
    Color::ALL.iter().all(|&c| match b.king(c) {
        Some(king) => !enemy_can_enter(rules, b, &reach(b, king, &steps), !c),
        None => true,
    })
}

/// A king sealed in a fortress, neither king reachable, no Minister on the
/// board and no pawn that can still promote: an immediate draw.
pub(crate) fn immediate_draw(rules: &Rules, b: &Board) -> bool {
    if b.voids().is_empty() || b.count_both(Role::Minister) > 0 {
        return false;
    }
    let sealed = Color::ALL
        .iter()
        .any(|&c| fortress_of(rules, b, c).is_some());
    sealed && kings_unreachable(rules, b) && !any_pawn_can_promote(rules, b)
}

/// A small fortress (15% or less of the non-void squares) while neither king
/// can be reached but by a Minister, and a Minister is on the board.
pub(crate) fn siege_holds(rules: &Rules, b: &Board) -> bool {
    if b.voids().is_empty() || b.count_both(Role::Minister) == 0 {
        return false;
    }
    let playable = rules.size().area() - b.voids().len();
    let small = Color::ALL
        .iter()
        .any(|&c| fortress_of(rules, b, c).is_some_and(|f| f.len() * 100 <= playable * 15));
    small && kings_unreachable(rules, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{variants, Position};

    /// The region's size by bit sets is the walk's, on positions of random
    /// Void Chess games (voids appear as unstable tiles are left) and on
    /// walls built by hand: corners, edges, a ring in the middle, a wall
    /// across the board, a region that winds.
    #[test]
    fn the_bit_sets_size_the_region_as_the_walk_does() {
        let rules = variants::void();
        let steps: Vec<i16> = KING_STEPS.iter().map(|&v| crate::rules::delta(v)).collect();
        let check = |p: &Position| {
            for c in Color::ALL {
                let Some(king) = p.board().king(c) else {
                    continue;
                };
                let walked = reach(p.board(), king, &steps).len();
                assert_eq!(
                    region_size_bits(p.rules(), p.board(), king),
                    Some(walked),
                    "{}",
                    p.fen()
                );
            }
        };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut with_voids = 0;
        for _ in 0..60 {
            let mut p = Position::new(rules);
            for _ in 0..160 {
                if p.outcome().is_some() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let legal = p.legal_moves();
                p.play_unchecked(&legal[(seed % legal.len() as u64) as usize]);
                if !p.board().voids().is_empty() {
                    with_voids += 1;
                }
                check(&p);
            }
        }
        assert!(with_voids > 1000, "the games made voids: {with_voids}");
        for (board, voids) in [
            ("4k4/9/9/9/9/9/9/9/K8", "c1,a2,b2,c2"),
            ("8k/9/9/9/9/9/9/9/K8", "h9,h8,i8"),
            ("4k4/9/9/9/9/9/9/9/K8", "a3,b3,c3,d3,e3,f3,g3,h3,i3"),
            ("4k4/9/9/9/4K4/9/9/9/9", "d4,e4,f4,d5,f5,d6,e6,f6"),
            (
                "4k4/9/9/9/9/9/9/9/K8",
                "b1,b2,b3,b4,b5,b6,b7,b8,d2,d3,d4,d5,d6,d7,d8,d9",
            ),
            ("k8/9/9/9/9/9/9/9/8K", "h1,h2,i2,a8,b8,b9"),
            ("k8/9/9/9/9/9/9/9/8K", "i3,h3,g3,g2,g1"),
        ] {
            let p = Position::from_fen(rules, &format!("{board} w - - 0 30 void:{voids}")).unwrap();
            assert!(!p.board().voids().is_empty());
            check(&p);
        }
    }
}
