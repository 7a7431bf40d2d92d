#!/usr/bin/env bash
# The engine measured in every game (`voidmate engine-match`):
#  1. the engine as it plays against the engine before issue 23 (plain
#     alpha-beta, hand-set evaluation: `--b none --b-eval classic`), both at
#     the same time a move, stopped by a sequential probability ratio test
#     for "better by 200 Elo or more" against "better by 100 or less";
#  2. the tuned evaluation against the untuned one (the same terms with
#     their starting weights) at equal nodes: what tuning brought.
# Usage: scripts/strength.sh [TIME_MS] [MAX_GAMES] [VOIDMATE] [GAMES...]
# THREADS=1 plays one game at a time (to leave a core for something else);
# RESIGN=1000 scores a time match's game as soon as both engines agree, six
# plies running, that one side leads by 1000 centipawns (long games end sooner).
set -euo pipefail
time_ms="${1:-100}"
games="${2:-200}"
voidmate="${3:-${CARGO_TARGET_DIR:-target}/debug/voidmate}"
shift $(( $# < 3 ? $# : 3 ))
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
    variants=(standard void antichess suicide-void suicide-void-pw chess99 black-holes super16)
fi
for v in "${variants[@]}"; do
    "$voidmate" engine-match --variant "$v" --a all --b none --b-eval classic \
        --time-ms "$time_ms" --games "$games" --sprt 100,200 --threads "${THREADS:-2}" \
        --resign "${RESIGN:-0}"
    "$voidmate" engine-match --variant "$v" --a all --b all --b-eval untuned \
        --nodes 10000 --games "$games" --threads "${THREADS:-2}"
done
