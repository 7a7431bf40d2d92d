//! The developer tools of the `voidmate` binary, beside its adapters: they
//! serve whoever works on the bot, not its players.
//! - `inspect`: positions by hand (`moves`, `perft`, `fen`, `render`,
//!   `analyse`, `check-db` and the database tools' reports);
//! - `play`: the engine against itself from the command line;
//! - `engine_match`: matches, with `openings` (their sets) and `uci_client`
//!   (a UCI program as one side: the engine at another commit);
//! - `tune`: self-play data and the evaluation's tuning; `tune_reach`: the
//!   odds behind a defined game's piece values, tuned on self-play data;
//! - `uci`: the engine over UCI, for other programs to play it;
//! - `bench`: `voidmate bench`, the core's speed under load;
//! - `puzzles`: `voidmate puzzles measure`, what puzzles our games give
//!   and what finding them costs;
//! - `proxy`: a latency proxy in front of a database, for the cluster bench.

pub(crate) mod bench;
pub(crate) mod engine_match;
pub(crate) mod inspect;
pub(crate) mod openings;
pub(crate) mod play;
pub(crate) mod proxy;
pub(crate) mod puzzles;
pub(crate) mod tune;
pub(crate) mod tune_reach;
pub(crate) mod uci;
pub(crate) mod uci_client;
