#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests, on 127.0.0.1 only.
#
#   scripts/postgres.sh install              install Debian's postgresql (if missing)
#   scripts/postgres.sh start DIR PORT [PID] create a cluster in DIR and start it on PORT;
#                                            with PID, stop it when that process ends
#   scripts/postgres.sh stop DIR
#
# The cluster trusts local connections (user `voidmate`, database
# `voidmate`): it lives in a temporary directory and dies with the test.
# PostgreSQL refuses to run as root, so as root the cluster belongs to the
# `postgres` user the package creates.
set -euo pipefail

USER_NAME="voidmate"

bin_dir() {
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/initdb" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

install() {
    if bin_dir >/dev/null; then
        return 0
    fi
    if [ "$(id -u)" -ne 0 ]; then
        echo "PostgreSQL is not installed; as root: apt-get install postgresql" >&2
        return 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
}

# Runs a command as the cluster's owner.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start() {
    local dir="$1" port="$2" bin
    install
    bin="$(bin_dir)"
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres "$dir"
    fi
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U "$USER_NAME" >"$dir/initdb.log" 2>&1
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" -w start >/dev/null
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U "$USER_NAME" "$USER_NAME"
    if [ -n "${3:-}" ]; then
        # A test binary cannot stop the server it started when it exits:
        # a watcher does, and removes the directory.
        local pid="$3"
        nohup bash -c "while kill -0 $pid 2>/dev/null; do sleep 1; done; \
            $(declare -f as_owner); as_owner '$bin/pg_ctl' -D '$dir/data' -m immediate stop; rm -rf '$dir'" \
            >/dev/null 2>&1 &
    fi
}

stop() {
    local dir="$1" bin
    bin="$(bin_dir)"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
}

case "${1:-}" in
    install) install ;;
    start) start "$2" "$3" "${4:-}" ;;
    stop) stop "$2" ;;
    *)
        echo "usage: $0 install | start DIR PORT | stop DIR" >&2
        exit 2
        ;;
esac
