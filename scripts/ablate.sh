#!/usr/bin/env bash
# What each part of the engine's search is worth: the whole search against
# the whole search without one part, at equal nodes per move, for every part
# (`voidmate engine-match`); then the whole search against plain alpha-beta.
# Usage: scripts/ablate.sh VARIANT [NODES] [GAMES] [VOIDMATE]
set -euo pipefail
variant="${1:?usage: scripts/ablate.sh VARIANT [NODES] [GAMES] [VOIDMATE]}"
nodes="${2:-20000}"
games="${3:-60}"
voidmate="${4:-target/release/voidmate}"
for part in pvs aspiration null-move lmr check-extension see killers history futility late-move-pruning \
    improving iir history-malus log-reductions counter-moves \
    partial-iterations swap-exchange see-pruning quiescence-table; do
    "$voidmate" engine-match --variant "$variant" --a all --b "all-$part" --nodes "$nodes" --games "$games"
done
"$voidmate" engine-match --variant "$variant" --a all --b none --nodes "$nodes" --games "$games"
