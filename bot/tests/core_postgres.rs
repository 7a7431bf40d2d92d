//! The core's cases (`cases/core.rs`) on PostgreSQL: a throwaway server for
//! this binary (`scripts/postgres.sh`), a database for each bot. Skipped,
//! saying why, where PostgreSQL is not installed; CI always runs them.

#[path = "postgres/mod.rs"]
mod postgres;

const ON_POSTGRES: bool = true;

macro_rules! skip_without_backend {
    () => {
        if !postgres::available() {
            return;
        }
    };
}

include!("cases/core.rs");
