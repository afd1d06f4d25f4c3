# Sourced by scripts/test: starts a throwaway PostgreSQL for the test run and stops it on exit.
# Installs Debian's postgresql package when it is missing, runs initdb in a temporary folder,
# listens on a free loopback port, and exports TEST_DATABASE_URL for the tests. Tests run with
# fsync off; SPLITTER_PG_FSYNC=on keeps Debian's default (scripts/bench measures with it).

as_postgres() {
    # initdb and the server refuse to run as root; Debian's package creates the postgres user.
    if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

stop_postgres() {
    if [[ -n "${SPLITTER_PG_DIR:-}" && -d "$SPLITTER_PG_DIR/data" ]]; then
        as_postgres "$SPLITTER_PG_BIN/pg_ctl" -D "$SPLITTER_PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$SPLITTER_PG_DIR"
    fi
}

start_postgres() {
    if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
        echo "== installing PostgreSQL (Debian package)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq postgresql >/dev/null
    fi
    SPLITTER_PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    SPLITTER_PG_DIR=$(mktemp -d /tmp/splitter-pg.XXXXXX)
    chmod 755 "$SPLITTER_PG_DIR"
    [[ $(id -u) == 0 ]] && chown postgres "$SPLITTER_PG_DIR"
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    trap stop_postgres EXIT
    as_postgres "$SPLITTER_PG_BIN/initdb" -D "$SPLITTER_PG_DIR/data" -U splitter --auth=trust -E UTF8 >/dev/null
    as_postgres "$SPLITTER_PG_BIN/pg_ctl" -D "$SPLITTER_PG_DIR/data" -l "$SPLITTER_PG_DIR/server.log" -w \
        -o "-p $port -k $SPLITTER_PG_DIR -c listen_addresses=127.0.0.1 -c fsync=${SPLITTER_PG_FSYNC:-off} -c max_connections=1000" start >/dev/null
    as_postgres "$SPLITTER_PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U splitter splitter_test
    export TEST_DATABASE_URL="postgres://splitter@127.0.0.1:$port/splitter_test"
    echo "== PostgreSQL $("$SPLITTER_PG_BIN/postgres" --version | awk '{print $3}') on port $port"
}
