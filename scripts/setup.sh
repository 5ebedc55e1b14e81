#!/usr/bin/env bash
# scripts/setup.sh — install what starq needs on a Debian 12 machine.
#
# Every make target calls this, so nothing is ever installed by hand. It is
# idempotent and silent when everything is already present: the check is one
# dpkg-query, and apt-get runs only for packages that are missing.
set -euo pipefail

# One package per line: what it gives the build.
packages=(
  build-essential     # gcc, make, libc headers
  pkg-config          # flags for the libraries below
  libuv1-dev          # server/: the event loop
  libssl-dev          # server/: libssl for TLS, libcrypto for SCRAM-SHA-256; planner/: md5()
  openssl             # tests: a test CA and server certificate for TLS
  curl                # tests: an HTTPS client of the status port
  default-jre-headless     # tests: pgjdbc, a real JDBC client (tests/jdbc/)
  libpostgresql-jdbc-java  # tests: pgjdbc itself
  lemon               # parser/: the LALR(1) parser generator
  libsqlite3-dev      # catalog/ and the reference engine in tests
  sqlite3             # the sqlite3 shell, for poking at catalogs by hand
  libpq-dev           # clients/: the CLI speaks libpq
  libedit-dev         # clients/: line editing and history
  postgresql-client   # psql, the reference client in protocol tests
  postgresql          # tests: PostgreSQL 15, the reference server for SQL semantics (tests/pgref.c)
  tzdata              # common/tz.c: the IANA time zones timestamptz is shown in
  clang               # the fuzzer build (libFuzzer)
  libclang-rt-14-dev  # libFuzzer and the sanitizer runtimes for clang
  chromium            # tests: the status dashboard loaded headless from a live server
  python3-psycopg2    # tests: psycopg 2's named cursors and COPY against starqd
  python3-psycopg     # tests: psycopg 3's server-side cursors and COPY against starqd
  python3-sqlalchemy  # tests: SQLAlchemy's inspector against starqd (tests/clients/)
  python3-pandas      # tests: pandas.read_sql through a SQLAlchemy engine (tests/clients/)
)
# tests: node-postgres (tests/clients/pg.js). Debian's node-pg needs Debian's
# nodejs; a machine with NodeSource's keeps it, and that test says it skipped.
if ! dpkg-query -W -f='${Version}' nodejs 2>/dev/null | grep -q nodesource; then
  packages+=(node-pg)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=()
if ((EUID != 0)); then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
# apt's chatter goes to a log that is shown only when something fails.
log=$(mktemp "${TMPDIR:-/tmp}/starq-setup.XXXXXX")
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
if ! { "${sudo[@]}" apt-get update -q &&
       "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "setup: apt-get failed installing ${missing[*]}" >&2
  exit 1
fi
echo "setup: done" >&2
