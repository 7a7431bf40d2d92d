#!/usr/bin/env bash
# pyffish, Fairy-Stockfish's own Python build (from PyPI), as a reference for the
# Betza our variants files read beyond what Debian's Fairy-Stockfish 11.1 can check
# (it crashes here on custom pieces).
#
#   scripts/pyffish.sh install          install pyffish into the cache (if missing)
#   scripts/pyffish.sh ARGS...          run scripts/pyffish-perft.py ARGS (see its help)
#
# The virtual environment lives in ${VOIDMATE_CACHE:-$HOME/.cache/voidmate}/pyffish-venv,
# outside the clone.
set -euo pipefail

CACHE="${VOIDMATE_CACHE:-$HOME/.cache/voidmate}"
VENV="$CACHE/pyffish-venv"
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/venv.sh"

install() {
    venv_install "$VENV" "pyffish" "pyffish==0.0.90"
}

case "${1:-}" in
    install) install ;;
    "") echo "usage: $0 install | record INI VARIANT OUT | count INI VARIANT DEPTH" >&2; exit 2 ;;
    *)
        install
        exec "$VENV/bin/python" "$HERE/pyffish-perft.py" "$@"
        ;;
esac
