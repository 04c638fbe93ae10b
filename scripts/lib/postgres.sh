# shellcheck shell=bash
# A throwaway PostgreSQL server for the tests: its own data directory in a temp folder, trust
# auth, listening on 127.0.0.1 only, on a free port.  Sourced after common.sh.
#
#   start_postgres            # sets PG_TMP, PG_PORT, PG_BIN, IPY_ISTRING_PG_DSN
#   create_database NAME      # prints a DSN for a fresh database NAME on that server
#   stop_postgres             # idempotent: safe from an EXIT trap whatever happened

PG_TMP=""
PG_BIN=""
PG_PORT=""

# PostgreSQL refuses to run as root: run its programs as the `postgres` user in that case.
as_postgres() {
  if [[ $EUID -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start_postgres() {
  PG_BIN=$(find /usr/lib/postgresql -path '*/bin/postgres' 2>/dev/null | sort -V | tail -n 1)
  PG_BIN=${PG_BIN%/postgres}
  [[ -n $PG_BIN ]] || die "no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)"
  PG_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ipy-istring-pg.XXXXXX")
  [[ $EUID -eq 0 ]] && chown postgres: "$PG_TMP"
  PG_PORT=$(free_port)
  as_postgres "$PG_BIN/initdb" -D "$PG_TMP/data" -U postgres -A trust -E UTF8 --no-sync \
    >"$PG_TMP/initdb.log" 2>&1 || { cat "$PG_TMP/initdb.log" >&2; die "initdb failed"; }
  # fsync off: the data is thrown away, and durability costs seconds per test run.  The socket
  # goes in the temp folder, since /var/run/postgresql may not exist on a fresh machine.
  as_postgres "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_TMP -c fsync=off -c full_page_writes=off" \
    start >/dev/null || { cat "$PG_TMP/server.log" >&2; die "PostgreSQL did not start"; }
  export IPY_ISTRING_PG_DSN="host=127.0.0.1 port=$PG_PORT user=postgres dbname=postgres"
  note "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT"
}

# One database per Python version, so that versions tested at the same time can't see each
# other's tables.
create_database() {
  as_postgres "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$1" >/dev/null
  say "host=127.0.0.1 port=$PG_PORT user=postgres dbname=$1"
}

stop_postgres() {
  [[ -n $PG_TMP && -d $PG_TMP ]] || return 0
  if [[ -f $PG_TMP/data/postmaster.pid ]]; then
    as_postgres "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
  fi
  rm -rf "$PG_TMP"
  PG_TMP=""
}
