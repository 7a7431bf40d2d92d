//! Whether a quiet move gives check, told from the position before it.
//!
//! A search skips most quiet moves near its leaves, but never one that
//! gives check, so it must know which do. Playing each move and testing the
//! king costs a copy of the board and a full attack test; on Super Chess's
//! 16x16 mailbox most of those moves are then thrown away. A quiet move
//! changes two cells only, the one it leaves and the one it lands on, so
//! only three things can newly attack the enemy king: the moved piece from
//! its new square, a rider whose line ran through the square left, and a
//! lame walker whose path did. Everything else attacks after the move just
//! as before it, and before it nothing did: in a legal position the side
//! not to move is not in check.

use crate::board::{code, is_color, Board, EMPTY};
use crate::rules::Rules;
use crate::{Move, MoveKind};

/// Whether the quiet move `mv` (no capture, no promotion, a plain move or a
/// double step) leaves the opponent's king attacked, as
/// [`crate::Position::is_check`] would say after it; `None` for any other
/// move, and in games where a move can act beyond its two squares or
/// pieces attack in ways this does not follow ([`plain_quiet_checks`]).
/// `b` must be a legal position (its side not to move is not in check),
/// as every position read or played is.
pub(crate) fn quiet_check(rules: &Rules, b: &Board, mv: &Move) -> Option<bool> {
    let (f, t) = (mv.from.index(), mv.to.index());
    if mv.promotion.is_some()
        || !matches!(mv.kind, MoveKind::Normal | MoveKind::DoubleStep)
        || b.cells[t] != EMPTY
    {
        return None;
    }
    if rules.def.royal.is_none() {
        // No royal piece: nothing is ever in check.
        return Some(false);
    }
    if !rules.plain_quiet_checks {
        return None;
    }
    let us = b.turn;
    let Some(king) = b.kings[(!us).index()] else {
        return Some(false);
    };
    let mover = b.cells[f];
    if !is_color(mover, us) {
        return None;
    }
    let role = crate::board::role_of(mover);
    let (f, t, k) = (f as i16, t as i16, king.index() as i16);
    // The board after the move, as far as attacks on the king can see it.
    let cells = &b.cells;
    let after = |s: i16| -> u8 {
        if s == f {
            EMPTY
        } else if s == t {
            mover
        } else {
            cells[s as usize]
        }
    };

    // The moved piece by a leap: other leapers attack as they did.
    if rules
        .leap_attacks
        .iter()
        .any(|&(d, masks)| k + d == t && masks[us.index()] & role.bit() != 0)
    {
        return Some(true);
    }
    // Rides: only lines from the king through the square left, or to the
    // square landed on by a piece that rides that way, can have changed.
    let beyond = |offset: i16, d: i16| offset % d == 0 && offset / d > 0;
    for ride in &rules.ride_attacks {
        let d = ride.d;
        let ours = ride.masks[us.index()];
        if ours == 0 || !(beyond(f - k, d) || ours & role.bit() != 0 && beyond(t - k, d)) {
            continue;
        }
        let mut s = k + d;
        let mut n = 1;
        while after(s) == EMPTY && n < ride.range {
            s += d;
            n += 1;
        }
        if ride.attacks(after(s), us, n) {
            return Some(true);
        }
    }
    // Lame paths: the moved piece's own, and any of ours through the square
    // left (one that ran clear before would already have given check).
    for (color, walker, paths) in &rules.path_attackers {
        if *color != us || (b.counts[us.index()][walker.index()] == 0 && *walker != role) {
            continue;
        }
        let piece = code(us, *walker);
        for path in paths {
            let total: i16 = path.iter().sum();
            let origin = k - total;
            if origin < 0 || origin as usize >= cells.len() || after(origin) != piece {
                continue;
            }
            let mut s = origin;
            if path[..path.len() - 1].iter().all(|&d| {
                s += d;
                after(s) == EMPTY
            }) {
                return Some(true);
            }
        }
    }
    Some(false)
}

/// Whether a game's quiet moves may be judged by [`quiet_check`]: the
/// variant says such a move changes only its own two squares
/// ([`crate::Variant::plain_quiet_moves`]), and pieces attack only by the
/// leap, ride and path tables (no two-step walkers, hoppers, reprogrammed
/// pieces, pawns waiting to promote, or attacks of the variant's own).
pub(crate) fn plain_quiet_checks(rules: &Rules) -> bool {
    rules.variant.plain_quiet_moves()
        && rules.two_step_attackers.is_empty()
        && rules.hop_attacks.is_empty()
        && rules.programs.is_none()
        && !rules.extra_attacks
        && !rules.delayed_promotion
}

#[cfg(test)]
mod tests {
    use crate::{GameKind, Position};

    /// A small random source (splitmix64), so the games are the same on
    /// every run.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// For every legal quiet move in random games of every game, the answer
    /// told from before the move is the one the position after it gives.
    #[test]
    fn a_quiet_check_told_before_the_move_is_the_check_after_it() {
        let mut state = 52;
        for kind in GameKind::ALL {
            let mut told = 0;
            let mut checks = 0;
            for _ in 0..12 {
                let mut pos = Position::new(kind.rules());
                for _ in 0..160 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    for m in &moves {
                        if let Some(quick) = pos.quiet_check(m) {
                            let after = pos.after(m).is_check();
                            assert_eq!(
                                quick,
                                after,
                                "{}: {} in {}",
                                kind.name(),
                                pos.san(m),
                                pos.fen()
                            );
                            told += 1;
                            checks += usize::from(after);
                        }
                    }
                    let m = moves[(next(&mut state) % moves.len() as u64) as usize];
                    pos.play_unchecked(&m);
                }
            }
            let expected = matches!(kind, GameKind::Standard | GameKind::Super16);
            if expected {
                assert!(told > 1000, "{}: only {told} moves told", kind.name());
                assert!(checks > 10, "{}: only {checks} checks told", kind.name());
            }
        }
    }
}
