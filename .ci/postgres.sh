#!/usr/bin/env bash
# Install (if missing) and start a throwaway PostgreSQL on a free loopback port for the tests.
# Prints "URL DATA_DIR"; `.ci/postgres.sh stop DATA_DIR` stops it again.
set -euo pipefail

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

if [ "${1:-}" = "stop" ]; then
  as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sh -c "$1"; fi; }
  as_pg "$(pg_bin)/pg_ctl -D $2 -m fast stop" >/dev/null 2>&1 || true
  exit 0
fi

if [ -z "$(pg_bin)" ]; then
  echo "installing PostgreSQL from Debian packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi
BIN=$(pg_bin)
DATA=$(mktemp -d /tmp/longdoc-pg.XXXXXX)
if [ "$(id -u)" = 0 ]; then
  # PostgreSQL refuses to run as root; the Debian package creates the postgres user.
  chown postgres "$DATA"
  as_pg() { su postgres -s /bin/sh -c "$1"; }
else
  as_pg() { sh -c "$1"; }
fi
as_pg "$BIN/initdb -D $DATA -A trust -U postgres" >/dev/null
as_pg "$BIN/pg_ctl -D $DATA -l $DATA/log -w -o \"-p $PORT -k /tmp -c listen_addresses=127.0.0.1\" start" >&2
echo "postgresql://postgres@127.0.0.1:$PORT/postgres $DATA"
