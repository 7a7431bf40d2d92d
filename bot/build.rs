//! Says which of the tests' outside needs this machine has: PostgreSQL
//! (`tests/cluster.rs`) and Synapse (the Matrix tests). Tests that need a
//! missing one are reported as ignored, with the reason; CI always runs
//! them.

include!("../build-support/test_env.rs");

fn main() {
    postgres();
    synapse();
}
