//! Glicko-2, as Mark Glickman's "Example of the Glicko-2 system" (2013)
//! defines it, steps 1 to 8, with the choices Voidmate makes (written in
//! `docs/ratings.md`):
//!
//! - every rated game is a rating period of its own;
//! - a new player starts at 1500, deviation 350, volatility 0.06; τ is 0.75;
//! - step 6 grows the deviation by the time since the player's previous
//!   rated game in that pool, as lichess does: φ* = √(φ² + t·σ'²) with
//!   t = days × 0.21436, so that games back to back barely change it; the
//!   same growth is applied whenever a rating is read (a stored rating is
//!   the one after its last game, never grown twice);
//! - the deviation stays within [45, 350], the rating never goes below 400;
//! - a rating is provisional while its deviation is at least 110, and then
//!   shown with a `?` (`1662?`).
//!
//! Pure arithmetic: no storage, no clock. `store::ratings` keeps the rows.

pub use crate::command::Pool;
use std::fmt;

/// Glicko-2's scale: 173.7178 rating points to one unit of μ.
const SCALE: f64 = 173.7178;
/// The centre of the rating scale.
const CENTRE: f64 = 1500.0;
/// The system constant τ: how much the volatility may change.
pub const TAU: f64 = 0.75;
/// How closely step 5's iteration pins the volatility.
const EPSILON: f64 = 0.000_001;
/// Rating periods per day of idleness (lichess's rate).
pub const PERIODS_PER_DAY: f64 = 0.21436;
pub const MIN_DEVIATION: f64 = 45.0;
pub const MAX_DEVIATION: f64 = 350.0;
pub const MIN_RATING: f64 = 400.0;
/// From this deviation up, a rating is provisional.
pub const PROVISIONAL: f64 = 110.0;

/// A player's rating in one pool of one game of one community.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// Where every player starts.
    pub const START: Rating = Rating {
        rating: CENTRE,
        deviation: MAX_DEVIATION,
        volatility: 0.06,
    };

    /// The rating as of `idle_days` after its last game: the deviation
    /// grown by the time (step 6 without a game), at most 350.
    pub fn after_idle(self, idle_days: f64) -> Rating {
        if idle_days <= 0.0 {
            // Exactly as stored (no round trip through the scale).
            return self;
        }
        let phi = self.deviation / SCALE;
        let t = idle_days.max(0.0) * PERIODS_PER_DAY;
        let grown = (phi * phi + t * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            deviation: grown.min(MAX_DEVIATION),
            ..self
        }
    }

    /// Whether the rating is provisional (deviation 110 or more).
    pub fn is_provisional(self) -> bool {
        self.deviation >= PROVISIONAL
    }

    /// Rounded to whole points.
    pub fn points(self) -> i64 {
        self.rating.round() as i64
    }
}

/// `1662`, or `1662?` while provisional.
impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.points())?;
        if self.is_provisional() {
            f.write_str("?")?;
        }
        Ok(())
    }
}

/// Days from a rating's last game at `last_ms` to `now_ms` (0 if later).
pub fn idle_days(last_ms: i64, now_ms: i64) -> f64 {
    (now_ms - last_ms).max(0) as f64 / 86_400_000.0
}

/// A game's result for the player rated: 1 a win, ½ a draw, 0 a loss.
pub type Score = f64;

/// Glicko-2's g(φ).
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// Glicko-2's E(μ, μj, φj).
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// One rating period of Glickman's steps 2 to 8, without Voidmate's
/// bounds: `me` after playing `games` (each opponent's rating and my
/// score), with system constant `tau` and `periods` rating periods since my
/// last one (1 in the paper; step 6's t).
pub fn period(me: Rating, games: &[(Rating, Score)], tau: f64, periods: f64) -> Rating {
    // Step 2: to the Glicko-2 scale.
    let mu = (me.rating - CENTRE) / SCALE;
    let phi = me.deviation / SCALE;
    let sigma = me.volatility;
    if games.is_empty() {
        let grown = (phi * phi + periods * sigma * sigma).sqrt();
        return Rating {
            deviation: grown * SCALE,
            ..me
        };
    }
    let opponents: Vec<(f64, f64, f64)> = games
        .iter()
        .map(|(o, s)| ((o.rating - CENTRE) / SCALE, o.deviation / SCALE, *s))
        .collect();
    // Step 3: the estimated variance v.
    let v = 1.0
        / opponents
            .iter()
            .map(|&(mu_j, phi_j, _)| {
                let e = expected(mu, mu_j, phi_j);
                g(phi_j).powi(2) * e * (1.0 - e)
            })
            .sum::<f64>();
    // Step 4: the estimated improvement Δ.
    let improvement: f64 = opponents
        .iter()
        .map(|&(mu_j, phi_j, s)| g(phi_j) * (s - expected(mu, mu_j, phi_j)))
        .sum();
    let delta = v * improvement;
    // Step 5: the new volatility, by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    // Step 6: the deviation grown by the periods since the last one.
    let phi_star = (phi * phi + periods * sigma_new * sigma_new).sqrt();
    // Step 7: the new deviation and rating.
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * improvement;
    // Step 8: back to the rating scale.
    Rating {
        rating: mu_new * SCALE + CENTRE,
        deviation: phi_new * SCALE,
        volatility: sigma_new,
    }
}

/// Voidmate's rating after one rated game: `me` (as stored after my last
/// rated game in this pool, `idle_days` ago; 0 for a first game) against
/// `opponent` (as read now, its deviation grown by its own idleness),
/// scoring `score`; within Voidmate's bounds.
pub fn after_game(me: Rating, idle_days: f64, opponent: Rating, score: Score) -> Rating {
    let periods = idle_days.max(0.0) * PERIODS_PER_DAY;
    let new = period(me, &[(opponent, score)], TAU, periods);
    Rating {
        rating: new.rating.max(MIN_RATING),
        deviation: new.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
        volatility: new.volatility,
    }
}

/// Where a new puzzle starts: unsure, so that its first solvers place it
/// quickly (lichess's puzzles start so).
pub const PUZZLE_START: Rating = Rating {
    rating: CENTRE,
    deviation: 500.0,
    volatility: 0.09,
};

/// The most a puzzle's rating moves in one attempt.
pub const PUZZLE_MAX_CHANGE: f64 = 700.0;

/// A solver this unsure of their own rating (deviation) moves no puzzle's.
pub const PUZZLE_UNSURE_SOLVER: f64 = 230.0;

/// A first attempt at a puzzle, played as one rated game between the
/// solver and the puzzle (the puzzle wins when it is failed): the solver's
/// rating and the puzzle's after it. The solver's moves as after any rated
/// game (`idle_days` since their last attempt); the puzzle's at most
/// [`PUZZLE_MAX_CHANGE`], and not at all when the solver's deviation is
/// [`PUZZLE_UNSURE_SOLVER`] or more (a newcomer's result says little of the
/// puzzle).
pub fn puzzle_attempt(
    solver: Rating,
    idle_days: f64,
    puzzle: Rating,
    solved: bool,
) -> (Rating, Rating) {
    let score = if solved { 1.0 } else { 0.0 };
    let solver_now = solver.after_idle(idle_days);
    let solver_after = after_game(solver, idle_days, puzzle, score);
    if solver_now.deviation >= PUZZLE_UNSURE_SOLVER {
        return (solver_after, puzzle);
    }
    let raw = period(puzzle, &[(solver_now, 1.0 - score)], TAU, 0.0);
    let change = (raw.rating - puzzle.rating).clamp(-PUZZLE_MAX_CHANGE, PUZZLE_MAX_CHANGE);
    let puzzle_after = Rating {
        rating: (puzzle.rating + change).max(MIN_RATING),
        deviation: raw.deviation.clamp(MIN_DEVIATION, PUZZLE_START.deviation),
        volatility: raw.volatility,
    };
    (solver_after, puzzle_after)
}

/// `alice 1500? -> 1662? (+162)`: a player's change, in whole points.
pub fn change_words(name: &str, before: Rating, after: Rating) -> String {
    let diff = after.points() - before.points();
    format!("{name} {before} -> {after} ({diff:+})")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solved puzzle raises its solver and lowers the puzzle; a failed one
    /// the other way; an unsure solver (deviation 230 or more) moves no
    /// puzzle; and a puzzle never moves more than 700 in one attempt, though
    /// Glicko-2 alone would move an unsure puzzle failed by a strong solver
    /// further.
    #[test]
    fn a_puzzle_attempt_is_a_game_between_solver_and_puzzle() {
        let solver = Rating {
            rating: 1600.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let (s, p) = puzzle_attempt(solver, 0.0, PUZZLE_START, true);
        assert!(
            s.rating > solver.rating && p.rating < PUZZLE_START.rating,
            "{s:?} {p:?}"
        );
        let (s, p) = puzzle_attempt(solver, 0.0, PUZZLE_START, false);
        assert!(
            s.rating < solver.rating && p.rating > PUZZLE_START.rating,
            "{s:?} {p:?}"
        );
        let newcomer = Rating::START;
        let (s, p) = puzzle_attempt(newcomer, 0.0, PUZZLE_START, true);
        assert!(s.rating > newcomer.rating);
        assert_eq!(p, PUZZLE_START, "a newcomer moves no puzzle");
        let master = Rating {
            rating: 2900.0,
            deviation: 45.0,
            volatility: 0.06,
        };
        let raw = period(PUZZLE_START, &[(master, 1.0)], TAU, 0.0);
        assert!(
            raw.rating - PUZZLE_START.rating > PUZZLE_MAX_CHANGE,
            "{raw:?}"
        );
        let (_, p) = puzzle_attempt(master, 0.0, PUZZLE_START, false);
        assert_eq!(p.rating, PUZZLE_START.rating + PUZZLE_MAX_CHANGE);
        assert!(p.deviation < PUZZLE_START.deviation);
    }

    fn r(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    /// Glickman's worked example (section "Example calculation"): a player
    /// of 1500, RD 200, σ 0.06, with τ = 0.5, beats a 1400 (RD 30) and
    /// loses to a 1550 (RD 100) and a 1700 (RD 300): 1464.06, RD 151.52,
    /// σ 0.05999.
    #[test]
    fn the_papers_example() {
        let new = period(
            r(1500.0, 200.0, 0.06),
            &[
                (r(1400.0, 30.0, 0.06), 1.0),
                (r(1550.0, 100.0, 0.06), 0.0),
                (r(1700.0, 300.0, 0.06), 0.0),
            ],
            0.5,
            1.0,
        );
        assert!((new.rating - 1464.06).abs() < 0.01, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.01, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.00001, "{new:?}");
    }

    #[test]
    fn bounds_hold_and_provisional_ratings_say_so() {
        // A win against a far weaker player moves a settled rating little,
        // and the deviation never drops below 45.
        let settled = r(2000.0, 45.0, 0.06);
        let after = after_game(settled, 0.0, r(1000.0, 45.0, 0.06), 1.0);
        assert!(after.deviation >= MIN_DEVIATION);
        assert!(after.rating >= 2000.0 && after.rating < 2001.0, "{after:?}");
        // A loss at the floor stays at the floor.
        let floor = after_game(r(400.0, 300.0, 0.06), 0.0, r(2500.0, 50.0, 0.06), 0.0);
        assert_eq!(floor.rating, MIN_RATING);
        // Long idleness grows the deviation, never past 350.
        assert_eq!(r(1800.0, 60.0, 0.06).after_idle(100_000.0).deviation, 350.0);
        assert!(r(1800.0, 60.0, 0.06).after_idle(30.0).deviation > 60.0);
        assert_eq!(r(1800.0, 60.0, 0.06).after_idle(0.0).deviation, 60.0);
        assert_eq!(Rating::START.to_string(), "1500?");
        assert_eq!(r(1661.6, 109.9, 0.06).to_string(), "1662");
        assert_eq!(r(1661.6, 110.0, 0.06).to_string(), "1662?");
        assert_eq!(
            change_words("alice", Rating::START, r(1661.6, 290.0, 0.06)),
            "alice 1500? -> 1662? (+162)"
        );
        assert_eq!(
            change_words("bob", r(1500.4, 80.0, 0.06), r(1490.0, 79.0, 0.06)),
            "bob 1500 -> 1490 (-10)"
        );
    }

    #[test]
    fn pools_read_the_words_players_use_and_nothing_else() {
        for pool in Pool::ALL {
            assert_eq!(Pool::from_name(pool.name()), Some(pool));
            assert_eq!(Pool::from_name(&pool.name().to_uppercase()), Some(pool));
        }
        assert_eq!(Pool::from_name(" daily "), Some(Pool::Correspondence));
        for odd in ["", "liv", "ライブ", &"live".repeat(1000)] {
            assert_eq!(Pool::from_name(odd), None, "{odd}");
        }
    }
}
