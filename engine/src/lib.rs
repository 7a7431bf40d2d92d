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

pub mod eval;
mod search;
mod tt;

pub use search::{search, Features, Limits, SearchResult, MATE};
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

    /// How deep this level may look (`None`: as deep as time allows).
    pub fn max_depth(self) -> Option<u32> {
        match self.0 {
            1 => Some(1),
            2 => Some(2),
            3 => Some(3),
            4 => Some(5),
            _ => None,
        }
    }

    /// Random centipawns added to each root move's score: mistakes a
    /// beginner would make.
    pub fn noise(self) -> i32 {
        match self.0 {
            1 => 300,
            2 => 120,
            3 => 40,
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
        depth: match (limits.depth, level.max_depth()) {
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
