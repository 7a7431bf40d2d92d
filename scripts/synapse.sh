#!/usr/bin/env bash
# A throwaway Synapse homeserver for the Matrix tests, on 127.0.0.1 only.
#
#   scripts/synapse.sh install              install matrix-synapse into the cache (if missing)
#   scripts/synapse.sh start DIR PORT       configure a server in DIR and start it on PORT
#   scripts/synapse.sh register DIR PORT USER PASSWORD
#   scripts/synapse.sh stop DIR
#
# The virtual environment lives in ${VOIDMATE_CACHE:-$HOME/.cache/voidmate}/synapse-venv,
# outside the clone, so CI installs it once per machine (about 45 s).
set -euo pipefail

CACHE="${VOIDMATE_CACHE:-$HOME/.cache/voidmate}"
VENV="$CACHE/synapse-venv"
SECRET="voidmate-test-registration-secret"

install() {
    mkdir -p "$CACHE"
    # One install at a time (tests start servers in parallel); an install
    # cut off half-way (a machine shut down) is started again from scratch.
    exec 9>"$CACHE/synapse-install.lock"
    flock 9
    if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import synapse" 2>/dev/null; then
        flock -u 9
        return 0
    fi
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --upgrade pip
    "$VENV/bin/pip" install --quiet matrix-synapse
    flock -u 9
}

start() {
    local dir="$1" port="$2"
    install
    mkdir -p "$dir/media"
    cat > "$dir/homeserver.yaml" <<YAML
server_name: "localhost"
public_baseurl: "http://127.0.0.1:$port/"
pid_file: "$dir/homeserver.pid"
listeners:
  - port: $port
    tls: false
    type: http
    x_forwarded: false
    bind_addresses: ['127.0.0.1']
    resources:
      - names: [client]
        compress: false
database:
  name: sqlite3
  args:
    database: "$dir/homeserver.db"
media_store_path: "$dir/media"
signing_key_path: "$dir/localhost.signing.key"
registration_shared_secret: "$SECRET"
enable_registration: false
report_stats: false
trusted_key_servers: []
suppress_key_server_warning: true
url_preview_enabled: false
presence:
  enabled: false
# Messages are rate-limited for real (a few a second), so the tests see the
# bot retry after the delay the server asks for; the rest is generous.
rc_message: {per_second: ${SYNAPSE_MESSAGES_PER_SECOND:-4}, burst_count: ${SYNAPSE_MESSAGE_BURST:-8}}
rc_registration: {per_second: 100, burst_count: 200}
rc_joins: {local: {per_second: 100, burst_count: 200}, remote: {per_second: 100, burst_count: 200}}
rc_invites: {per_room: {per_second: 100, burst_count: 200}, per_user: {per_second: 100, burst_count: 200}}
rc_login:
  address: {per_second: 100, burst_count: 200}
  account: {per_second: 100, burst_count: 200}
  failed_attempts: {per_second: 100, burst_count: 200}
YAML
    "$VENV/bin/python" -m synapse.app.homeserver -c "$dir/homeserver.yaml" --generate-keys >/dev/null
    "$VENV/bin/python" -m synapse.app.homeserver -c "$dir/homeserver.yaml" >"$dir/synapse.log" 2>&1 &
    echo $! > "$dir/server.pid"
    for _ in $(seq 1 300); do
        if python3 - "$port" <<'PY' 2>/dev/null
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health", timeout=1).read()
PY
        then
            return 0
        fi
        sleep 0.2
    done
    echo "synapse did not start; its log:" >&2
    tail -n 50 "$dir/synapse.log" >&2
    return 1
}

register() {
    local dir="$1" port="$2" user="$3" password="$4"
    "$VENV/bin/register_new_matrix_user" -u "$user" -p "$password" --no-admin \
        -k "$SECRET" "http://127.0.0.1:$port" >/dev/null
}

stop() {
    local dir="$1"
    if [ -f "$dir/server.pid" ]; then
        kill "$(cat "$dir/server.pid")" 2>/dev/null || true
    fi
}

cmd="${1:-}"
shift || true
case "$cmd" in
    install) install ;;
    start) start "$@" ;;
    register) register "$@" ;;
    stop) stop "$@" ;;
    *) echo "usage: $0 install | start DIR PORT | register DIR PORT USER PASSWORD | stop DIR" >&2; exit 2 ;;
esac
