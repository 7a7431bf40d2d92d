//! The core's cases, run on SQLite (`tests/core.rs`) and on PostgreSQL
//! (`tests/core_postgres.rs`): the same bodies, the backend chosen by the
//! binary (`crate::ON_POSTGRES`, `case!`).

pub(crate) mod support;

mod core;
mod defined;
mod leases;
mod puzzles;
mod ratings;
mod replays;
mod reviews;
mod tournaments;
mod views;
