//! The engine: a game-tree search over the rules engine that plays every
//! variant Voidmate knows.
//!
//! Iterative deepening principal-variation search (negamax) with a
//! transposition table, aspiration windows, null-move pruning, late-move
//! reductions, check extensions, an exchange estimate for captures, killer
//! and history move ordering, and a quiescence search over captures, within
//! a time or node budget ([`search`]'s module says what each part does, and
//! [`Features`] switches each). Each variant has its own evaluation
//! ([`eval`]). The search is synchronous and pure: callers run it on a
//! thread of their own.

pub mod clock;
pub mod eval;
pub mod puzzle;
mod search;
mod tt;
pub mod tune;

pub use clock::{Clock, Plan};
pub use eval::Eval;
pub use search::{is_capture, search, search_without, Features, Limits, SearchResult, MATE};
pub use tt::Table;

use voidmate_rules::{Move, Position};

/// Playing strength, 1 (beginner) to 5 (full strength).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(5);

    pub fn new(n: u8) -> Option<Level> {
        (1..=5).contains(&n).then_some(Level(n))
    }

    pub fn get(self) -> u8 {
        self.0
    }

    /// How many nodes this level may search (`None`: as many as its time
    /// allows). Budgets in nodes rather than depth or time make a level
    /// equally strong on any machine and under any load, and keep the low
    /// levels' replies short. The budgets are set so that the levels are
    /// about evenly spaced in strength, as measured in
    /// `docs/performance.md`.
    pub fn max_nodes(self) -> Option<u64> {
        match self.0 {
            1 => Some(150),
            2 => Some(1_000),
            3 => Some(2_000),
            4 => Some(15_000),
            _ => None,
        }
    }

    /// Random centipawns added to each root move's score: the slips of a
    /// weaker player, large at level 1 (a beginner who blunders pieces).
    /// With noise every root move is searched in full, which costs the
    /// search much of its depth: only the two lowest levels have it.
    pub fn noise(self) -> i32 {
        match self.0 {
            1 => 250,
            2 => 30,
            _ => 0,
        }
    }
}

/// The move the engine plays at `level` within `limits`; `None` when the
/// game is over. `seed` varies the noise of the weaker levels.
pub fn choose(pos: &Position, level: Level, limits: Limits, seed: u64) -> Option<SearchResult> {
    choose_with(pos, level, limits, seed, &mut Table::new(1 << 16))
}

/// [`choose`] with a transposition table of the caller's (sized from the
/// configuration, kept from one search to the next).
pub fn choose_with(
    pos: &Position,
    level: Level,
    limits: Limits,
    seed: u64,
    table: &mut Table,
) -> Option<SearchResult> {
    let limits = Limits {
        nodes: match (limits.nodes, level.max_nodes()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        },
        noise: level.noise(),
        seed,
        ..limits
    };
    search(pos, &limits, table)
}

/// A one-ply greedy player, for matches: the move whose resulting
/// position evaluates best for the mover.
pub fn greedy(pos: &Position) -> Option<Move> {
    let me = pos.turn();
    pos.legal_moves().into_iter().max_by_key(|m| {
        let after = pos.after(m);
        match after.outcome() {
            Some(o) if o.winner() == Some(me) => i32::MAX,
            Some(o) if o.winner().is_some() => i32::MIN,
            Some(_) => 0,
            None => -eval::evaluate(&after),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use voidmate_rules::variants;

    #[test]
    fn each_level_searches_more_than_the_one_below_and_the_low_ones_answer_at_once() {
        let pos = Position::new(variants::standard());
        let mut last = 0;
        for n in 1..=4 {
            let level = Level::new(n).unwrap();
            let budget = level.max_nodes().unwrap();
            assert!(budget > last, "level {n}");
            last = budget;
            let r = choose(&pos, level, Limits::time(Duration::from_secs(30)), 7).unwrap();
            // Bounded by nodes, not by the clock: the time is never what
            // stops a low level.
            assert!(r.nodes <= budget, "level {n}: {} nodes", r.nodes);
        }
        assert_eq!(Level::MAX.max_nodes(), None, "full strength: all the time");
        assert!(Level::MIN.noise() > Level::new(2).unwrap().noise());
        assert_eq!(Level::MAX.noise(), 0);
    }
}
