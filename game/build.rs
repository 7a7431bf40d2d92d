//! Says whether PostgreSQL can be started for the tests: the core's cases
//! run on it too (`tests/core_postgres.rs`), and where it is not installed
//! they are reported as ignored, with the reason, instead of passing
//! without running. Under CI (`CI` set) they always run, and fail if the
//! server is missing: `.ci/run` installs it.

include!("postgres_cfg.rs");
