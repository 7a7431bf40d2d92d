//! The core's cases (`cases/`) on PostgreSQL: a throwaway server for this
//! binary (`scripts/postgres.sh`), a database for each bot. Where
//! PostgreSQL is not installed every case is reported as ignored, saying
//! why (the build script looks for it); CI always runs them. The races of
//! several processes on one database (`cases/cluster.rs`) run here only.

#[path = "postgres/mod.rs"]
mod postgres;

/// The backend these cases run on.
const ON_POSTGRES: bool = true;

/// A case: a test on PostgreSQL, ignored (and counted as not run) where
/// PostgreSQL is not installed.
macro_rules! case {
    ($(#[$meta:meta])* async fn $name:ident() $body:block) => {
        $(#[$meta])*
        #[cfg_attr(
            not(voidmate_postgres),
            ignore = "PostgreSQL is not installed: `bash scripts/postgres.sh install` (as root) runs these"
        )]
        async fn $name() $body
    };
}

mod cases;

/// Races of processes on one PostgreSQL database.
#[path = "cases/cluster.rs"]
mod cluster;
