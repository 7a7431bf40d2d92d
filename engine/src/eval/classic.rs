//! The evaluation the engine played with before its terms were tuned: hand
//! set, kept so that matches can measure the tuned one against it
//! (`voidmate engine-match --b-eval classic`).
//!
//! Each game values what makes it special: the Minister (which the Void
//! Chess page ranks just below the king) and the voids it could heal, pieces
//! left on unstable tiles, a king hemmed in by voids or walled in by them
//! further out; in the giveaway games, having fewer pieces; in
//! Chess 99, a king that can be taken; in Black Holes, holes and the
//! relativistic threats they carry; in Super Chess, Fortress shelters.

use super::{neighbours, value};
use voidmate_rules::{Color, GameKind, Position, Role, Tile};

/// The score of `pos` for the side to move (positive: good for it).
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.turn();
    // Every game has its own line: a new game does not compile until it
    // says how it is judged. A variant from elsewhere is judged by material.
    let white = match pos.rules().kind() {
        Some(GameKind::Antichess | GameKind::SuicideVoid) => giveaway(pos),
        Some(GameKind::SuicideVoidPromotionWins) => giveaway(pos) + pawn_progress(pos, 48),
        Some(GameKind::Void) => material(pos) + void_tiles(pos),
        Some(GameKind::Chess99) => material(pos) + kings_in_reach(pos, 400),
        Some(GameKind::BlackHoles) => material(pos) + kings_in_reach(pos, 150),
        Some(GameKind::Super16) => {
            let m = material(pos);
            m + fortress_shelter(pos) + pawn_progress(pos, 3) + king_hunt(pos, m)
        }
        Some(GameKind::Standard | GameKind::Defined(_)) | None => material(pos),
    };
    if me == Color::White {
        white
    } else {
        -white
    }
}

fn sign(c: Color) -> i32 {
    if c == Color::White {
        1
    } else {
        -1
    }
}

/// Material plus a small bonus for central pieces, White's point of view.
fn material(pos: &Position) -> i32 {
    let size = pos.rules().size();
    let (cf, cr) = ((size.files() as i32 - 1) * 5, (size.ranks() as i32 - 1) * 5);
    let mut score = 0;
    for c in Color::ALL {
        for sq in pos.board().occupied(c).iter() {
            let Some(p) = pos.piece_at(sq) else { continue };
            let central = if matches!(p.role, Role::King) {
                0
            } else {
                // Ten times the distance from the centre, subtracted.
                let df = (sq.file() as i32 * 10 - cf).abs();
                let dr = (sq.rank() as i32 * 10 - cr).abs();
                (40 - (df + dr) / 2).max(0) / 4
            };
            score += sign(c) * (value(p.role) + central);
        }
    }
    score
}

/// Giveaway games: fewer pieces is better; a lone piece that can still be
/// given away is close to a win.
fn giveaway(pos: &Position) -> i32 {
    let count = |c: Color| pos.board().occupied(c).iter().count() as i32;
    (count(Color::Black) - count(Color::White)) * 100
}

/// Void Chess: a piece standing on its owner's unstable tile must move or
/// fall; a king next to voids has fewer ways out.
fn void_tiles(pos: &Position) -> i32 {
    let b = pos.board();
    let mut score = 0;
    for c in Color::ALL {
        if let Some(u) = b.unstable(c) {
            if let Some(p) = pos.piece_at(u.square).filter(|p| p.color == c) {
                if p.role != Role::Minister {
                    score -= sign(c) * value(p.role).max(200) / 3;
                }
            }
        }
        if let Some(k) = b.king(c) {
            let mut exits = 0;
            let mut voids = 0;
            for sq in neighbours(pos, k) {
                match pos.tile(sq) {
                    Tile::Void => voids += 1,
                    _ if pos.piece_at(sq).is_none() => exits += 1,
                    _ => {}
                }
            }
            score += sign(c) * (exits * 4 - voids * 12);
            // Voids two squares out form a wall: fewer ways to run later.
            let wall = b.voids().iter().filter(|v| v.distance(k) == 2).count() as i32;
            score -= sign(c) * wall * 5;
        }
        // A Minister next to voids can heal them: worth a little more.
        for sq in b.occupied(c).iter() {
            if pos.piece_at(sq).is_some_and(|p| p.role == Role::Minister) {
                let healable = neighbours(pos, sq)
                    .filter(|n| pos.tile(*n) == Tile::Void)
                    .count() as i32;
                score += sign(c) * healable.min(3) * 8;
            }
        }
    }
    score
}

/// Pawns that have come far are closer to promoting, which wins outright
/// when promotion wins and is the long road to a mate on the 16x16 board:
/// `weight` / 4 centipawns per rank squared.
fn pawn_progress(pos: &Position, weight: i32) -> i32 {
    let last = pos.rules().size().ranks() as i32 - 1;
    let mut score = 0;
    for c in Color::ALL {
        for sq in pos.board().occupied(c).iter() {
            if pos.piece_at(sq).is_some_and(|p| p.role == Role::Pawn) {
                let rank = sq.rank() as i32;
                let progress = if c == Color::White { rank } else { last - rank };
                score += sign(c) * progress * progress * weight / 4;
            }
        }
    }
    score
}

/// With a clear material lead, drive the enemy king to the edge and bring
/// the own king closer: the long way to a mate on a big board.
fn king_hunt(pos: &Position, material: i32) -> i32 {
    let Some(([white, black], close)) = super::hunt(pos) else {
        return 0;
    };
    if material > 400 {
        black * 12 + close * 6
    } else if material < -400 {
        -(white * 12 + close * 6)
    } else {
        0
    }
}

/// Super Chess: pieces next to their own Fortress are shielded from all but
/// royal capturers, the king most of all.
fn fortress_shelter(pos: &Position) -> i32 {
    let b = pos.board();
    let mut score = 0;
    for c in Color::ALL {
        for sq in b.occupied(c).iter() {
            let Some(p) = pos.piece_at(sq) else { continue };
            let sheltered = neighbours(pos, sq).any(|n| {
                pos.piece_at(n)
                    .is_some_and(|q| q.color == c && q.role == Role::Fortress)
            });
            if sheltered {
                score += sign(c) * if p.role == Role::King { 40 } else { 8 };
            }
        }
    }
    score
}

/// Games won by taking the king (Chess 99) or by threats through holes
/// (Black Holes): a king in reach is worth `weight`.
fn kings_in_reach(pos: &Position, weight: i32) -> i32 {
    let mut score = 0;
    for c in Color::ALL {
        if let Some(k) = pos.board().king(c) {
            if pos.is_attacked(k, !c) {
                score -= sign(c) * weight;
            }
        }
    }
    score
}
