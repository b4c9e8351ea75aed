#!/usr/bin/env bash
# PgBouncer (Debian's package) in transaction mode with the project's config (ops/pgbouncer/pgbouncer.ini).
#   scripts/pgbouncer.sh start [port]   → listening on 127.0.0.1:<port> (default 6543), in front of 127.0.0.1:5432
#   scripts/pgbouncer.sh stop
# PgBouncer refuses to run as root: it runs as the `postgres` OS user then. Its files are in $PGBOUNCER_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${PGBOUNCER_DIR:-/tmp/sop-pgbouncer}"
PORT="${2:-${PGBOUNCER_PORT:-6543}}"
BIN="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    if [ -f "$DIR/pgbouncer.pid" ] && kill -0 "$(cat "$DIR/pgbouncer.pid")" 2>/dev/null; then
      echo "pgbouncer: already running (pid $(cat "$DIR/pgbouncer.pid"))"
      exit 0
    fi
    [ -x "$BIN" ] || { echo "pgbouncer: not installed (apt-get install -y pgbouncer)" >&2; exit 1; }
    mkdir -p "$DIR"
    sed -e "s|@DIR@|$DIR|g" -e "s|@PORT@|$PORT|g" -e "s|@PGHOST@|${PGHOST_DIRECT:-127.0.0.1}|g" \
      -e "s|@PGPORT@|${PGPORT_DIRECT:-5432}|g" ops/pgbouncer/pgbouncer.ini > "$DIR/pgbouncer.ini"
    echo '"postgres" ""' > "$DIR/userlist.txt"
    [ "$(id -u)" = 0 ] && chown -R postgres "$DIR"
    as_owner "$BIN" -d "$DIR/pgbouncer.ini"
    for _ in $(seq 1 50); do
      (echo > "/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && { echo "pgbouncer: listening on 127.0.0.1:$PORT"; exit 0; }
      sleep 0.1
    done
    echo "pgbouncer: did not start; its log:" >&2
    cat "$DIR/pgbouncer.log" >&2 || true
    exit 1
    ;;
  stop)
    if [ -f "$DIR/pgbouncer.pid" ]; then
      kill "$(cat "$DIR/pgbouncer.pid")" 2>/dev/null || true
      rm -f "$DIR/pgbouncer.pid"
    fi
    ;;
  *)
    echo "usage: $0 start [port] | stop" >&2
    exit 2
    ;;
esac
