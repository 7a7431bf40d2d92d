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

/// The fortress of `color`'s king, if the voids cut one off.
pub fn fortress_of(rules: &Rules, b: &Board, color: Color) -> Option<SquareSet> {
    if b.voids().is_empty() {
        return None;
    }
    let king = b.king(color)?;
    let steps: Vec<i16> = KING_STEPS.iter().map(|&v| crate::rules::delta(v)).collect();
    let region = reach(b, king, &steps);
    let playable = rules.size().area() - b.voids().len();
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
