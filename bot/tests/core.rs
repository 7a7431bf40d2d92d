//! The core over a real SQLite file: whole games, every kind of bad input,
//! restarts, races and redelivered events (the cases are in `cases/core.rs`;
//! `core_postgres.rs` runs them on PostgreSQL).

#[path = "postgres/mod.rs"]
mod postgres;

const ON_POSTGRES: bool = false;

macro_rules! skip_without_backend {
    () => {};
}

include!("cases/core.rs");
