#!/usr/bin/env bash
# The independent Dutch-system pairing our Swiss is compared with:
# caissify-pairings from PyPI (its Dutch engine implements FIDE C.04.3 as in
# force from 1 February 2026, checked by its authors against bbpPairings),
# and the corpus of random tournaments paired by it
# (scripts/swiss_reference.py; tournament/tests/reference.rs reads it).
#
#   scripts/swiss-reference.sh install   the package, in a virtual environment
#   scripts/swiss-reference.sh corpus    the corpus (1000 tournaments), if it is
#                                        missing or was made by another version
#                                        of the package or the script
#
# Both live in ${VOIDMATE_CACHE:-$HOME/.cache/voidmate}, outside the clone.
# Making the corpus takes about 20 minutes of CPU, split over two processes.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE="${VOIDMATE_CACHE:-$HOME/.cache/voidmate}"
VENV="$CACHE/swiss-venv"
. scripts/venv.sh
PACKAGE="caissify-pairings==0.5.0"
OUT="$CACHE/swiss-reference"
TOURNAMENTS=1000

install() {
    venv_install "$VENV" "caissify_pairings" "$PACKAGE"
}

corpus() {
    install
    mkdir -p "$OUT"
    local stamp
    stamp="$PACKAGE $TOURNAMENTS $(sha256sum scripts/swiss_reference.py | cut -d' ' -f1)"
    if [ -f "$OUT/corpus.jsonl" ] && [ "$(cat "$OUT/stamp" 2>/dev/null)" = "$stamp" ]; then
        return 0
    fi
    rm -f "$OUT/corpus.jsonl" "$OUT/stamp"
    local half=$((TOURNAMENTS / 2))
    echo "swiss-reference: pairing $TOURNAMENTS random tournaments with $PACKAGE (about 10 minutes on two cores)" >&2
    "$VENV/bin/python" scripts/swiss_reference.py 1 "$half" >"$OUT/part1.jsonl" &
    local first=$!
    "$VENV/bin/python" scripts/swiss_reference.py $((half + 1)) $((TOURNAMENTS - half)) >"$OUT/part2.jsonl"
    wait "$first"
    cat "$OUT/part1.jsonl" "$OUT/part2.jsonl" >"$OUT/corpus.tmp"
    rm -f "$OUT/part1.jsonl" "$OUT/part2.jsonl"
    mv "$OUT/corpus.tmp" "$OUT/corpus.jsonl"
    echo "$stamp" >"$OUT/stamp"
}

case "${1:-}" in
    install) install ;;
    corpus) corpus ;;
    *) echo "usage: $0 install | corpus" >&2; exit 2 ;;
esac
