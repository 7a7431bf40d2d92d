//! The core over a real SQLite file: whole games, every kind of bad input,
//! restarts, races and redelivered events (the cases are in `cases/core.rs`;
//! `core_postgres.rs` runs them on PostgreSQL).

#[path = "postgres/mod.rs"]
mod postgres;

const ON_POSTGRES: bool = false;

/// A case: a test on SQLite, always run.
macro_rules! case {
    ($(#[$meta:meta])* async fn $name:ident() $body:block) => {
        $(#[$meta])*
        async fn $name() $body
    };
}

include!("cases/core.rs");
include!("cases/ratings.rs");
include!("cases/views.rs");
include!("cases/replays.rs");
include!("cases/reviews.rs");
