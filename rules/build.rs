//! Says whether Fairy-Stockfish is here (Debian's package, which
//! `scripts/test.sh` installs): the live check of our variants files' games
//! against it is reported as ignored, with the reason, where it is not; CI
//! always runs it.

include!("../build-support/test_env.rs");

fn main() {
    fairy_stockfish();
    pyffish();
}
