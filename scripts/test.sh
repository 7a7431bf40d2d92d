#!/usr/bin/env bash
# Runs every test: installs what the tests need where it is missing, then
# `cargo test --workspace` (any arguments are passed on to it).
#
#   bash scripts/test.sh                 everything
#   bash scripts/test.sh -p voidmate-game one crate (cargo test's own arguments,
#                                         instead of --workspace)
#
# What the tests need beyond Rust, each installed once (and skipped when
# present):
#   - the CJK and colour emoji fonts (Debian's fonts-noto-cjk and
#     fonts-noto-color-emoji), for the caption tests;
#   - Synapse, from PyPI into a virtual environment (scripts/synapse.sh), for
#     the Matrix tests;
#   - PostgreSQL (Debian's postgresql, scripts/postgres.sh), for the core's
#     cases on PostgreSQL and the cluster tests;
#   - python-chess and Pillow (scripts/pgn-read.sh), the independent readers
#     of our PGN and GIFs;
#   - Fairy-Stockfish (Debian's fairy-stockfish), the independent engine our
#     puzzles are checked with;
#   - pyffish (Fairy-Stockfish's Python build, scripts/pyffish.sh), the
#     reference for hoppers and one-way pieces in variants files;
#   - caissify-pairings and the corpus of random Swiss tournaments it pairs
#     (scripts/swiss-reference.sh), the independent reference for our Dutch
#     system (made once, about 10 minutes, then kept in the cache).
# Debian's packages need root (apt-get). A step that cannot be done here (no
# network, not root) is reported and the run goes on: the tests that need it
# then say they were not run, and why (outside CI, where they must run).
set -uo pipefail
cd "$(dirname "$0")/.."

missing=()

# Runs an install step; on failure notes it and goes on (under CI, stops).
step() {
    local what="$1"
    shift
    if ! "$@"; then
        if [ -n "${CI:-}" ]; then
            echo "test.sh: cannot install $what, which CI needs" >&2
            exit 1
        fi
        missing+=("$what")
    fi
}

apt_install() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "test.sh: $* missing; as root: apt-get install $*" >&2
        return 1
    fi
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; } 2>&1 | tail -3
    return "${PIPESTATUS[0]}"
}

if ! command -v cargo >/dev/null 2>&1; then
    echo "test.sh: cargo is not installed; the Rust toolchain is required (https://rustup.rs)" >&2
    exit 1
fi

# Python 3 with venv, for Synapse and the readers.
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
    step "python3-venv" apt_install python3 python3-venv
fi
if ! dpkg -s fonts-noto-cjk fonts-noto-color-emoji >/dev/null 2>&1; then
    step "the CJK and emoji fonts" apt_install fonts-noto-cjk fonts-noto-color-emoji
fi
step "Synapse" bash scripts/synapse.sh install
step "PostgreSQL" bash scripts/postgres.sh install
step "python-chess and Pillow" bash scripts/pgn-read.sh install
step "the Swiss reference corpus" bash scripts/swiss-reference.sh corpus
if [ ! -x /usr/games/fairy-stockfish ]; then
    step "Fairy-Stockfish" apt_install fairy-stockfish
fi
step "pyffish" bash scripts/pyffish.sh install

if [ "${#missing[@]}" -gt 0 ]; then
    printf 'test.sh: not installed here: %s; the tests that need them are reported as ignored\n' \
        "$(IFS=,; echo "${missing[*]}")" >&2
fi

# Old test binaries pile up in the target directory at every build.
bash scripts/prune-tests.sh

if [ "$#" -gt 0 ]; then
    exec cargo test "$@"
fi
# Every test binary runs even after one fails: a run names all failures.
exec cargo test --workspace --no-fail-fast
