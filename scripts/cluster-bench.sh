#!/usr/bin/env bash
# The cluster benchmark of issue 40: moves per second and a move's latency
# (median, p99) with 1, 2 and 3 processes on one PostgreSQL database, with
# the database local and at a distance (a latency proxy adding a delay each
# way: 0.5 ms each way is about 1.3 ms away, 1.1 ms about 2.5 ms, 1.25 ms
# about 2.8 ms, 1.5 ms about 3.3 ms, as the bench measures and prints),
# and the round trips of a move, counted by the proxy.
#
#   scripts/cluster-bench.sh [BINARY] [GAMES]
#
# BINARY defaults to target/release/voidmate (build it first:
# `cargo build --release -p voidmate`); GAMES to 60. A throwaway PostgreSQL
# server is started for the run (scripts/postgres.sh) and stopped after.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN="${1:-target/release/voidmate}"
GAMES="${2:-60}"
if [ ! -x "$BIN" ]; then
    echo "no binary at $BIN: cargo build --release -p voidmate" >&2
    exit 1
fi
DIR="$(mktemp -d /tmp/voidmate-cluster-bench.XXXXXX)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
bash scripts/postgres.sh start "$DIR" "$PORT" >/dev/null
trap 'bash scripts/postgres.sh stop "$DIR" >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT
PG_BIN="$(dirname "$(ls /usr/lib/postgresql/*/bin/createdb | head -1)")"

n=0
run() {
    local delay="$1" processes="$2"
    n=$((n + 1))
    "$PG_BIN/createdb" -h 127.0.0.1 -p "$PORT" -U voidmate "bench$n"
    local url="postgres://voidmate@127.0.0.1:$PORT/bench$n"
    echo "== delay ${delay:-none} ms each way, $processes process(es)"
    if [ -z "$delay" ]; then
        "$BIN" bench --db "$url" --games "$GAMES" --processes "$processes"
    else
        "$BIN" bench --db "$url" --games "$GAMES" --processes "$processes" --delay-ms "$delay"
    fi
}

for processes in 1 2 3; do
    run "" "$processes"
done
for delay in 0 0.5 1.1 1.25 1.5; do
    for processes in 1 2 3; do
        run "$delay" "$processes"
    done
done
