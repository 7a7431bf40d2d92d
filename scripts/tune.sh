#!/usr/bin/env bash
# Tunes one game's evaluation weights (Texel's method), from the engine's own
# games: `voidmate tune-data` plays GAMES self-play games at NODES nodes a move
# with the engine as it stands and writes every quiet position with its
# game's result; `voidmate tune` fits the weights to those results and
# writes them into engine/src/eval/weights.rs. The run (commit, commands,
# counts and the tuner's report) is appended to engine/tuning/runs.md, so
# every table in weights.rs says where it came from.
#
# Usage: scripts/tune.sh VARIANT [GAMES] [NODES] [SEED] [VOIDMATE]
# The games are played with the game's weights as they stand (`--eval
# tuned`): a game without a table yet plays with its starting weights.
# The data files (tens of MB) stay in target/tuning/; rerunning the same
# command on the same commit gives the same positions (each game is seeded).
# THREADS=1 plays one game at a time (the same positions, to leave a core
# for something else).
set -euo pipefail
variant="${1:?usage: scripts/tune.sh VARIANT [GAMES] [NODES] [SEED] [VOIDMATE]}"
games="${2:-1600}"
nodes="${3:-5000}"
seed="${4:-1}"
voidmate="${5:-${CARGO_TARGET_DIR:-target}/debug/voidmate}"
dir="${CARGO_TARGET_DIR:-target}/tuning"
mkdir -p "$dir"
data="$dir/$variant-$seed.txt"
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- engine rules || echo '+changes')"
started="$(date -u +%Y-%m-%dT%H:%MZ)"
made=$("$voidmate" tune-data --variant "$variant" --games "$games" --nodes "$nodes" --seed "$seed" \
    --threads "${THREADS:-2}" --out "$data")
report=$("$voidmate" tune --variant "$variant" --data "$data" --write engine/src/eval/weights.rs)
{
    echo
    echo "## $variant, $started, engine at $commit"
    echo
    echo '```'
    echo "voidmate tune-data --variant $variant --games $games --nodes $nodes --seed $seed --out $data"
    echo "$made"
    echo "voidmate tune --variant $variant --data $data --write engine/src/eval/weights.rs"
    echo "$report"
    echo '```'
} >> engine/tuning/runs.md
echo "$made"
echo "$report"
