//! Spending a clock: how long one move may take when the engine plays on a
//! clock rather than at a fixed time a move.
//!
//! A strong player does not give every move the same time. The plan has two
//! limits, as engines' time managers do:
//! - the **optimum**, a share of what is left over the moves still to come,
//!   which the search stretches when its best move keeps changing or its
//!   score falls, and cuts short when the move is forced or stable;
//! - the **maximum**, which no search passes, so that one hard position
//!   cannot cost the game on time.
//!
//! The search starts no new iteration once it has spent more than
//! [`START_SHARE`] of the adjusted optimum (a new iteration costs several
//! times the last, so one started late is mostly wasted).

use std::time::Duration;
use voidmate_rules::Position;

/// A clock as the side to move sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub left: Duration,
    /// Added to it after each move.
    pub increment: Duration,
    /// Moves to the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
    /// Time lost between the search ending and the clock stopping: writing
    /// the move, a process or a network on the way. Kept in reserve on every
    /// move.
    pub overhead: Duration,
}

impl Clock {
    /// A sudden-death clock with an increment and the default overhead.
    pub fn new(left: Duration, increment: Duration) -> Clock {
        Clock {
            left,
            increment,
            moves_to_go: None,
            overhead: DEFAULT_OVERHEAD,
        }
    }
}

/// The reserve a move keeps for what happens after the search, when the
/// caller does not say.
pub const DEFAULT_OVERHEAD: Duration = Duration::from_millis(30);

/// How many more moves a sudden-death game is planned for, whatever its
/// length so far: a game that has gone long may go longer.
const MIN_MOVES_TO_GO: u32 = 30;
const MAX_MOVES_TO_GO: u32 = 45;

/// The share of the adjusted optimum after which no new iteration starts.
pub const START_SHARE: f64 = 0.55;

/// No move takes more than this share of what is left (less the reserve).
const MAX_SHARE: f64 = 0.3;

/// One move's time plan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    /// The time the move is planned to take, before adjustment.
    pub optimum: Duration,
    /// The most it may take.
    pub maximum: Duration,
}

impl Plan {
    /// The plan for the side to move in `pos` with `clock`.
    pub fn new(clock: &Clock, pos: &Position) -> Plan {
        let usable = clock.left.saturating_sub(clock.overhead);
        // Moves still to come: a sudden-death game is planned as if it
        // had MAX_MOVES_TO_GO moves left at the start, fewer as it goes on,
        // never fewer than MIN_MOVES_TO_GO.
        let played = u32::from(pos.board().fullmove_number().saturating_sub(1));
        let to_go = match clock.moves_to_go {
            Some(n) => n.clamp(1, MAX_MOVES_TO_GO),
            None => MAX_MOVES_TO_GO
                .saturating_sub(played / 2)
                .max(MIN_MOVES_TO_GO),
        };
        // What the moves to come may spend: the time left and the
        // increments they will earn, less each one's reserve.
        let earned = clock.increment.saturating_mul(to_go - 1);
        let reserves = clock.overhead.saturating_mul(to_go);
        let pool = (usable + earned).saturating_sub(reserves);
        let mut optimum = pool / to_go;
        // The opening's first moves are the best known; the middlegame's
        // need the thought. A move of the first ten gets from half the
        // share, growing to all of it.
        if played < 10 {
            optimum = optimum.mul_f64(0.5 + 0.05 * played as f64);
        }
        let share = if clock.moves_to_go == Some(1) {
            0.9
        } else {
            MAX_SHARE
        };
        let maximum = usable
            .mul_f64(share)
            .max(clock.increment.min(usable).mul_f64(0.75))
            .min(optimum.saturating_mul(5));
        Plan {
            optimum: optimum.min(maximum),
            maximum,
        }
    }
}

/// How the search adjusts the optimum as its iterations come in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stretch {
    /// The factor the optimum is multiplied by now.
    factor: f64,
}

impl Stretch {
    pub(crate) fn new() -> Stretch {
        Stretch { factor: 1.0 }
    }

    /// An iteration finished at `depth`: whether its best move differs from
    /// the last one, and how far its score fell (positive) from the last.
    pub(crate) fn iteration(&mut self, depth: u32, changed: bool, fall: i32) {
        if depth < 4 {
            return;
        }
        if changed {
            self.factor = (self.factor * 1.5).min(2.5);
        } else {
            self.factor = (self.factor * 0.92).max(0.5);
        }
        if fall >= 30 {
            self.factor = self.factor.max(1.5);
        }
    }

    /// The move is forced: every other loses clearly.
    pub(crate) fn forced(&mut self) {
        self.factor = self.factor.min(0.15);
    }

    /// Whether a new iteration may start after `elapsed` of `plan`.
    pub(crate) fn may_start(&self, plan: &Plan, elapsed: Duration) -> bool {
        elapsed
            < plan
                .optimum
                .mul_f64(self.factor * START_SHARE)
                .min(plan.maximum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use voidmate_rules::variants;

    fn plan(left_ms: u64, inc_ms: u64, plies: usize) -> Plan {
        let mut pos = Position::new(variants::standard());
        for _ in 0..plies {
            let m = pos.legal_moves()[0];
            pos.play_unchecked(&m);
        }
        Plan::new(
            &Clock::new(
                Duration::from_millis(left_ms),
                Duration::from_millis(inc_ms),
            ),
            &pos,
        )
    }

    #[test]
    fn the_maximum_keeps_most_of_the_clock() {
        for left in [50, 400, 1_000, 10_000, 60_000, 180_000] {
            for inc in [0, 100, 2_000] {
                let p = plan(left, inc, 30);
                let usable = Duration::from_millis(left).saturating_sub(DEFAULT_OVERHEAD);
                assert!(p.optimum <= p.maximum, "{left}+{inc}: {p:?}");
                assert!(p.maximum <= usable, "{left}+{inc}: {p:?}");
                // Without an increment a move never spends a third of it.
                if inc == 0 {
                    assert!(p.maximum <= usable / 3, "{left}: {p:?}");
                }
            }
        }
    }

    #[test]
    fn the_middlegame_gets_more_than_the_first_moves() {
        let first = plan(60_000, 0, 0);
        let middle = plan(60_000, 0, 30);
        assert!(first.optimum < middle.optimum, "{first:?} {middle:?}");
    }

    #[test]
    fn an_increment_is_spent_and_a_low_clock_lives_on_it() {
        let without = plan(10_000, 0, 40);
        let with = plan(10_000, 2_000, 40);
        assert!(with.optimum > without.optimum + Duration::from_millis(1_000));
        // Nearly out of time, the increment still buys most of a move.
        let low = plan(500, 2_000, 40);
        assert!(low.maximum >= Duration::from_millis(300), "{low:?}");
        assert!(low.maximum <= Duration::from_millis(470), "{low:?}");
    }

    #[test]
    fn the_last_move_before_a_control_may_use_most_of_the_clock() {
        let pos = Position::new(variants::standard());
        let clock = Clock {
            moves_to_go: Some(1),
            ..Clock::new(Duration::from_secs(10), Duration::ZERO)
        };
        let p = Plan::new(&clock, &pos);
        assert!(p.maximum >= Duration::from_secs(8), "{p:?}");
        assert!(p.maximum < Duration::from_secs(10), "{p:?}");
    }

    #[test]
    fn a_changing_move_stretches_and_a_forced_one_shrinks() {
        let p = plan(60_000, 0, 30);
        let at = p.optimum.mul_f64(START_SHARE * 1.2);
        let mut s = Stretch::new();
        assert!(!s.may_start(&p, at));
        s.iteration(8, true, 0);
        assert!(s.may_start(&p, at), "a new best move earns more time");
        s.forced();
        assert!(!s.may_start(&p, p.optimum.mul_f64(0.1)));
    }
}
