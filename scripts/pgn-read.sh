#!/usr/bin/env bash
# Reads PGN through python-chess, and GIFs through Pillow: independent readers,
# for the tests.
#
#   scripts/pgn-read.sh install        install python-chess and Pillow into the cache (if missing)
#   scripts/pgn-read.sh FILE           print the variant and FEN after the game in FILE, then
#                                      `tc SECONDS+INCREMENT` (or `tc -`), then `evals N` (moves
#                                      with a [%eval]), `clocks S S ...` (each [%clk] in seconds)
#                                      and `nags SAN:NAG ...`, or fail
#   scripts/pgn-read.sh gif FILE       print `frames N`, `size WxH`, `loop L` and the frames'
#                                      durations in ms, as Pillow reads the GIF
#
# The virtual environment lives in ${VOIDMATE_CACHE:-$HOME/.cache/voidmate}/pgn-venv,
# outside the clone.
set -euo pipefail

CACHE="${VOIDMATE_CACHE:-$HOME/.cache/voidmate}"
VENV="$CACHE/pgn-venv"
. "$(dirname "${BASH_SOURCE[0]}")/venv.sh"

install() {
    venv_install "$VENV" "chess.pgn, PIL" chess pillow
}

case "${1:-}" in
    install) install ;;
    "") echo "usage: $0 install | FILE | gif FILE" >&2; exit 2 ;;
    gif)
        install
        "$VENV/bin/python" - "$2" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1])
print("frames", im.n_frames)
print("size", f"{im.width}x{im.height}")
print("loop", im.info.get("loop"))
durations = []
for i in range(im.n_frames):
    im.seek(i)
    durations.append(str(im.info.get("duration")))
print("durations", " ".join(durations))
PY
        ;;
    *)
        install
        "$VENV/bin/python" - "$1" <<'PY'
import sys, chess.pgn
with open(sys.argv[1]) as f:
    game = chess.pgn.read_game(f)
if game is None:
    sys.exit("no game")
if game.errors:
    sys.exit("; ".join(str(e) for e in game.errors))
board = game.end().board()
print(type(board).uci_variant, board.fen())
# The clock as the reader understands the TimeControl tag: seconds + increment.
try:
    tc = game.time_control()
    part = tc.parts[0] if tc.parts else None
    print("tc", f"{int(part.time)}+{int(part.increment)}" if part else "-")
except Exception as e:
    print("tc unreadable:", e)
nodes = list(game.mainline())
print("evals", sum(1 for n in nodes if n.eval() is not None))
print("clocks", " ".join(str(int(n.clock())) for n in nodes if n.clock() is not None))
print("nags", " ".join(f"{n.san()}:{sorted(n.nags)[0]}" for n in nodes if n.nags))
PY
        ;;
esac
