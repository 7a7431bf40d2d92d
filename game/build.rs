//! Says which of the tests' outside needs this machine has: PostgreSQL (the
//! core's cases run on it too, `tests/core_postgres.rs`) and the
//! independent readers of our PGN and GIFs. Tests that need a missing one
//! are reported as ignored, with the reason; CI always runs them.

include!("../build-support/test_env.rs");

fn main() {
    // `sqlx::migrate!` reads the folders when the crate compiles: a new
    // migration must rebuild it.
    println!("cargo::rerun-if-changed=../migrations");
    postgres();
    readers();
}
