#!/usr/bin/env bash
# Start a throwaway PostgreSQL cluster on a loopback port and print its URL.
# Usage: eval "$(bash .ci/postgres.sh)"   → exports SKALD_TEST_PG_URL
# Installs Debian's postgresql when no server binaries are present. Runs the server as
# the `postgres` user (it refuses root). Safe to call twice: reuses a running cluster.
set -euo pipefail
PORT="${SKALD_PG_PORT:-54329}"
DATA="${SKALD_PG_DATA:-/tmp/skald-pg-$PORT}"
find_bin() {
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/pg_ctl" ] && { echo "$dir"; return 0; }
  done
  return 1
}
if ! BIN=$(find_bin); then
  echo "installing postgresql..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2
  BIN=$(find_bin)
fi
id postgres >/dev/null 2>&1 || useradd --system --home /var/lib/postgresql postgres
if ! runuser -u postgres -- "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  rm -rf "$DATA"
  install -d -o postgres -g postgres "$DATA"
  runuser -u postgres -- "$BIN/initdb" -D "$DATA" -A trust -U postgres >/dev/null
  runuser -u postgres -- "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w \
    -o "-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >&2
fi
runuser -u postgres -- "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -tAc \
  "SELECT 1 FROM pg_database WHERE datname='skald_test'" | grep -q 1 ||
  runuser -u postgres -- "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres skald_test
echo "export SKALD_TEST_PG_URL=postgresql+psycopg://postgres@127.0.0.1:$PORT/skald_test"
