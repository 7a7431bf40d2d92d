//! Says whether the system's CJK and colour emoji fonts are installed: the
//! caption tests of names in those scripts need them, and are reported as
//! ignored, with the reason, where they are missing; CI always runs them.

include!("../build-support/test_env.rs");

fn main() {
    fonts();
}
