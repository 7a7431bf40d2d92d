//! The same check as the core's (`game/build.rs`): whether the tests that
//! need PostgreSQL (`tests/cluster.rs`) can run here.

include!("../game/postgres_cfg.rs");
