#!/usr/bin/env bash
# The engine as it is now against the engine as it stood at an earlier
# commit, in any of our games: both play as UCI programs (`voidmate uci`)
# from the game's stored openings (engine/tests/data/openings/GAME.txt),
# each opening twice with colours swapped, and `voidmate engine-match`
# keeps the game, the rules and the clocks. It prints the score with a 95%
# interval, the Elo difference and, with --sprt, stops once a sequential
# probability ratio test decides.
#
# Usage: scripts/versus.sh [--base COMMIT] [--time-ms MS | --nodes N | --clock S+I]
#                          [--games N] [--sprt ELO0,ELO1] [--threads N]
#                          [--resign CP] [--max-plies N] [--from N] GAME...
#   --base     the commit to play against (default: c1886b9, the engine
#              before issue 52)
#   --time-ms  time a move for both (default 150)
#   --games    the most games a game (default 400)
#   --sprt     stop early between these Elo differences (default 0,10: is
#              the engine now better, or not?); --sprt none plays every game
#   --from     the first opening played (default 1): a stopped match goes
#              on from its next opening, and the two runs add up
# GAME: standard, void, antichess, suicide-void, suicide-void-pw, chess99,
# black-holes, super16 (default: the seven games of docs/performance.md).
#
# Each binary is built once, in release mode: the base in a git worktree
# under the cache (~/.cache/voidmate/engines/COMMIT), sharing the build
# cache's dependencies; the tree as it is now into the usual target.
set -euo pipefail
cd "$(dirname "$0")/.."

base=c1886b9
budget=(--time-ms 150)
games=400
sprt=(--sprt 0,10)
threads=2
extra=()
variants=()
while [ $# -gt 0 ]; do
    case "$1" in
        --base) base="$2"; shift 2 ;;
        --time-ms) budget=(--time-ms "$2"); shift 2 ;;
        --nodes) budget=(--nodes "$2"); shift 2 ;;
        --clock) budget=(--clock "$2"); shift 2 ;;
        --games) games="$2"; shift 2 ;;
        --sprt) if [ "$2" = none ]; then sprt=(); else sprt=(--sprt "$2"); fi; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --resign) extra+=(--resign "$2"); shift 2 ;;
        --max-plies) extra+=(--max-plies "$2"); shift 2 ;;
        --from) extra+=(--seed "$2"); shift 2 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        -*) echo "versus.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) variants+=("$1"); shift ;;
    esac
done
if [ ${#variants[@]} -eq 0 ]; then
    variants=(standard void antichess suicide-void chess99 black-holes super16)
fi

cache="${VOIDMATE_CACHE:-$HOME/.cache/voidmate}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$cache/target}"
sha=$(git rev-parse --verify "$base^{commit}")
old="$cache/engines/$sha/voidmate"
if [ ! -x "$old" ]; then
    src="$cache/engines/src-$sha"
    if [ ! -d "$src" ]; then
        git worktree add --detach "$src" "$sha" >&2
    fi
    echo "versus.sh: building the engine at ${sha:0:9}" >&2
    (cd "$src" && cargo build --release --locked -p voidmate >&2)
    mkdir -p "$(dirname "$old")"
    cp "$CARGO_TARGET_DIR/release/voidmate" "$old"
    git worktree remove --force "$src" >&2 || true
fi
echo "versus.sh: building the engine as it is now" >&2
cargo build --release --locked -p voidmate >&2
now="$cache/engines/now/voidmate"
mkdir -p "$(dirname "$now")"
cp "$CARGO_TARGET_DIR/release/voidmate" "$now"

described=$(git describe --always --dirty)
for v in "${variants[@]}"; do
    openings="engine/tests/data/openings/$v.txt"
    if [ ! -f "$openings" ]; then
        echo "versus.sh: no openings for '$v' ($openings); write them with" \
            "voidmate openings --variant $v --out $openings" >&2
        exit 2
    fi
    echo "# $v: $described against ${sha:0:9}" >&2
    "$now" engine-match --variant "$v" --a-uci "$now uci" --b-uci "$old uci" \
        --openings "$openings" "${budget[@]}" --games "$games" "${sprt[@]}" \
        --threads "$threads" "${extra[@]}"
done
