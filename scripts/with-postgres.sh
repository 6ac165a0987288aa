#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL cluster: initdb in a temporary directory, a free
# port on loopback, TEST_DATABASE_URL exported for the command, and the cluster removed afterwards.
# Usage: scripts/with-postgres.sh npx vitest run src/server
set -euo pipefail

command -v initdb >/dev/null && command -v pg_ctl >/dev/null || {
  echo "with-postgres: initdb and pg_ctl must be on PATH (PostgreSQL server binaries)" >&2
  exit 1
}

dir=$(mktemp -d /tmp/afp-pg.XXXXXX)
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')

# PostgreSQL refuses to run as root; use the postgres account when we are root.
as_pg() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" = "0" ] && chown postgres "$dir"

cleanup() {
  as_pg pg_ctl -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

as_pg initdb -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --no-sync >/dev/null
as_pg pg_ctl -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL $(as_pg pg_ctl --version | awk '{print $3}') on port $port"
"$@"
