//! The core over a real SQLite file: whole games, every kind of bad input,
//! restarts, races and redelivered events. The cases are modules under
//! `cases/`; `core_postgres.rs` runs the same ones on PostgreSQL.

#[path = "postgres/mod.rs"]
mod postgres;

/// The backend these cases run on.
const ON_POSTGRES: bool = false;

/// A case: a test on SQLite, always run.
macro_rules! case {
    ($(#[$meta:meta])* async fn $name:ident() $body:block) => {
        $(#[$meta])*
        async fn $name() $body
    };
}

mod cases;

/// What independent programs read of what the bot writes (on SQLite only).
#[path = "cases/readers.rs"]
mod readers;
