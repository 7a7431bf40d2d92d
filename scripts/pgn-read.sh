#!/usr/bin/env bash
# Reads PGN through python-chess, an independent PGN reader, for the tests.
#
#   scripts/pgn-read.sh install        install python-chess into the cache (if missing)
#   scripts/pgn-read.sh FILE           print the variant and FEN after the game in FILE, then
#                                      `tc SECONDS+INCREMENT` (or `tc -`), or fail
#
# The virtual environment lives in ${VOIDMATE_CACHE:-$HOME/.cache/voidmate}/pgn-venv,
# outside the clone.
set -euo pipefail

CACHE="${VOIDMATE_CACHE:-$HOME/.cache/voidmate}"
VENV="$CACHE/pgn-venv"

install() {
    if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import chess.pgn" 2>/dev/null; then
        return 0
    fi
    mkdir -p "$CACHE"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet chess
}

case "${1:-}" in
    install) install ;;
    "") echo "usage: $0 install | FILE" >&2; exit 2 ;;
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
PY
        ;;
esac
