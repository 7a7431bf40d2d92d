//! Says whether the reference corpus of Swiss tournaments is here (made by
//! `scripts/swiss-reference.sh corpus`, which `scripts/test.sh` runs): the
//! comparison with it is reported as ignored, with the reason, where it is
//! not; CI always runs it.

include!("../build-support/test_env.rs");

fn main() {
    swiss_reference();
}
