#!/usr/bin/env bash
# A throwaway PostgreSQL 15 server for petlog's tests: `start DIR` creates a cluster in DIR (initdb),
# listens on a Unix socket in DIR and on 127.0.0.1 at a free port, and prints shell lines to `eval`:
#   PETLOG_PG_SOCKET_DIR=DIR  PETLOG_PG_PORT=N  PETLOG_PG_SUPERUSER=postgres
# `stop DIR` stops it; `restart DIR` restarts it (the load test's server restart). Local socket
# connections are trusted (the tests' own superuser); TCP connections need a password (scram-sha-256),
# so wrong passwords can be tested. As root the server runs as the `postgres` user (it refuses root).
set -euo pipefail
cmd=${1:?usage: pg-test-server.sh start|stop|restart DIR}; dir=${2:?DIR}
bin=${PETLOG_PG_BIN:-$(ls -d /usr/lib/postgresql/15/bin 2>/dev/null || dirname "$(command -v initdb)")}
[ -x "$bin/initdb" ] || { echo "PostgreSQL 15 is not installed (apt-get install postgresql-15)" >&2; exit 69; }
# PETLOG_PG_NETNS: run the server inside that network namespace (the load test's third host), listening on
# PETLOG_PG_LISTEN (default 127.0.0.1) and taking passwords from PETLOG_PG_CLIENTS (default 127.0.0.1/32).
in_ns() { if [ -n "${PETLOG_PG_NETNS:-}" ]; then ip netns exec "$PETLOG_PG_NETNS" "$@"; else "$@"; fi; }
as_pg() { if [ "$(id -u)" = 0 ]; then in_ns runuser -u postgres -- "$@"; else in_ns "$@"; fi; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
case $cmd in
start)
  mkdir -p "$dir"; [ "$(id -u)" = 0 ] && chown postgres: "$dir"; chmod 0700 "$dir"
  as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 70; }
  port=$(free_port)
  # TLS with a self-signed certificate for 127.0.0.1 (sslmode=require works, verify-full refuses it).
  if command -v openssl >/dev/null; then
    as_pg openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
      -keyout "$dir/data/server.key" -out "$dir/data/server.crt" >/dev/null 2>&1 && chmod 0600 "$dir/data/server.key" \
      && echo "ssl = on" >> "$dir/data/postgresql.conf"
  fi
  cat >> "$dir/data/postgresql.conf" <<CONF
listen_addresses = '${PETLOG_PG_LISTEN:-127.0.0.1}'
port = $port
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 60
shared_buffers = 64MB
log_min_messages = warning
CONF
  cat > "$dir/data/pg_hba.conf" <<HBA
local all all trust
host  all all ${PETLOG_PG_CLIENTS:-127.0.0.1/32} scram-sha-256
HBA
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start >/dev/null || { cat "$dir/server.log" >&2; exit 70; }
  echo "PETLOG_PG_SOCKET_DIR=$dir PETLOG_PG_PORT=$port PETLOG_PG_SUPERUSER=postgres" ;;
stop)
  [ -f "$dir/data/postmaster.pid" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null || true ;;
restart)
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 30 restart >/dev/null ;;
*) echo "usage: pg-test-server.sh start|stop|restart DIR" >&2; exit 64 ;;
esac
