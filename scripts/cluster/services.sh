# Throwaway PostgreSQL and HAProxy on loopback, for the tests of several server nodes on one
# store (`tests/cluster/`). Sourced by scripts/test.sh; every function works in a directory the
# caller made and removes afterwards, and `services_stop` stops whatever was started.
#
#   services_install             installs PostgreSQL and HAProxy from Debian's packages if missing
#   postgres_start DIR           initdb + pg_ctl start in DIR (as a non-root user), a free port;
#                                sets EVR_TEST_POSTGRES to its postgres:// URL
#   postgres_tls_start DIR       a second PostgreSQL in DIR with ssl=on and a certificate for
#                                `localhost` (not 127.0.0.1) from a CA made here; sets
#                                EVR_TEST_POSTGRES_TLS (its URL, host localhost, no sslmode),
#                                EVR_TEST_POSTGRES_TLS_CA (that CA) and EVR_TEST_POSTGRES_TLS_OTHER_CA
#                                (a CA that signed nothing the server has) for tests/cluster/tls.rs
#   services_stop                stops PostgreSQL (and anything else started here)

PG_BIN=""
PG_DIR=""
PG_USER=""
PG_TLS_DIR=""

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

services_install() {
  local missing=()
  PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  [ -x "$PG_BIN/initdb" ] || missing+=(postgresql)
  command -v haproxy >/dev/null || missing+=(haproxy)
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing ${missing[*]} (apt-get)"
    local sudo=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  fi
  [ -x "$PG_BIN/initdb" ] && command -v haproxy >/dev/null
}

# as_pg_user CMD...: runs CMD as the cluster's owner (PostgreSQL refuses to run as root).
as_pg_user() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$PG_USER" -- "$@"
  else
    "$@"
  fi
}

postgres_start() {
  PG_DIR="$1"
  PG_USER="$(id -un)"
  [ "$(id -u)" -eq 0 ] && PG_USER=nobody
  mkdir -p "$PG_DIR/data" "$PG_DIR/socket"
  [ "$(id -u)" -eq 0 ] && chown -R "$PG_USER" "$PG_DIR"
  local port
  port="$(free_port)"
  # a password over TCP, as in production (the tests check that a wrong one is refused)
  local password
  password="$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')"
  echo "$password" >"$PG_DIR/pwfile"
  [ "$(id -u)" -eq 0 ] && chown "$PG_USER" "$PG_DIR/pwfile"
  as_pg_user "$PG_BIN/initdb" -D "$PG_DIR/data" -U evr --pwfile="$PG_DIR/pwfile" --auth-local=trust \
    --auth-host=scram-sha-256 --no-sync -E UTF8 >"$PG_DIR/initdb.log" 2>&1 \
    || { cat "$PG_DIR/initdb.log"; return 1; }
  # fsync stays on: the tests kill servers, not the machine, but the settings are the real ones
  as_pg_user "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 \
    -o "-h 127.0.0.1 -p $port -k $PG_DIR/socket -c max_connections=200" start >/dev/null \
    || { cat "$PG_DIR/postgres.log"; return 1; }
  as_pg_user "$PG_BIN/psql" -h "$PG_DIR/socket" -p "$port" -U evr -d postgres -qc "CREATE DATABASE evr" >/dev/null
  export EVR_TEST_POSTGRES="postgres://evr:$password@127.0.0.1:$port/evr"
  echo "PostgreSQL on 127.0.0.1:$port (data $PG_DIR/data)"
}

# tls_certs DIR: a test CA, a server certificate it signs for DNS:localhost only (so that
# connecting by 127.0.0.1 is a wrong host name for verify-full), and a second, unrelated CA.
# ECDSA P-256 (quick to make), valid for two days.
tls_certs() {
  local d="$1"
  mkdir -p "$d"
  local ca_ext="basicConstraints=critical,CA:TRUE"
  for ca in ca other-ca; do
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=EvR test $ca" \
      -addext "$ca_ext" -addext "keyUsage=critical,keyCertSign,cRLSign" \
      -keyout "$d/$ca.key" -out "$d/$ca.crt" 2>/dev/null || return 1
  done
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
    -keyout "$d/server.key" -out "$d/server.csr" 2>/dev/null || return 1
  printf '%s\n' "subjectAltName=DNS:localhost" "basicConstraints=CA:FALSE" \
    "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" >"$d/server.ext"
  openssl x509 -req -in "$d/server.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 2 \
    -extfile "$d/server.ext" -out "$d/server.crt" 2>/dev/null
}

postgres_tls_start() {
  PG_TLS_DIR="$1"
  PG_USER="$(id -un)"
  [ "$(id -u)" -eq 0 ] && PG_USER=nobody
  mkdir -p "$PG_TLS_DIR/data" "$PG_TLS_DIR/socket"
  tls_certs "$PG_TLS_DIR/certs" || { echo "openssl could not make the test certificates"; return 1; }
  # PostgreSQL refuses a key that others can read; the CAs stay readable for the tests
  chmod 600 "$PG_TLS_DIR/certs/server.key"
  chmod 755 "$PG_TLS_DIR/certs"
  [ "$(id -u)" -eq 0 ] && chown -R "$PG_USER" "$PG_TLS_DIR"
  local port password
  port="$(free_port)"
  password="$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')"
  echo "$password" >"$PG_TLS_DIR/pwfile"
  [ "$(id -u)" -eq 0 ] && chown "$PG_USER" "$PG_TLS_DIR/pwfile"
  # `host` lines (initdb's) take TLS and plain connections alike: the tests set up databases
  # over plain ones and read pg_stat_ssl to tell which the server's connections are
  as_pg_user "$PG_BIN/initdb" -D "$PG_TLS_DIR/data" -U evr --pwfile="$PG_TLS_DIR/pwfile" --auth-local=trust \
    --auth-host=scram-sha-256 --no-sync -E UTF8 >"$PG_TLS_DIR/initdb.log" 2>&1 \
    || { cat "$PG_TLS_DIR/initdb.log"; return 1; }
  as_pg_user "$PG_BIN/pg_ctl" -D "$PG_TLS_DIR/data" -l "$PG_TLS_DIR/postgres.log" -w -t 60 \
    -o "-h 127.0.0.1 -p $port -k $PG_TLS_DIR/socket -c max_connections=50 -c ssl=on \
        -c ssl_cert_file=$PG_TLS_DIR/certs/server.crt -c ssl_key_file=$PG_TLS_DIR/certs/server.key" start >/dev/null \
    || { cat "$PG_TLS_DIR/postgres.log"; return 1; }
  as_pg_user "$PG_BIN/psql" -h "$PG_TLS_DIR/socket" -p "$port" -U evr -d postgres -qc "CREATE DATABASE evr" >/dev/null
  export EVR_TEST_POSTGRES_TLS="postgres://evr:$password@localhost:$port/evr"
  export EVR_TEST_POSTGRES_TLS_CA="$PG_TLS_DIR/certs/ca.crt"
  export EVR_TEST_POSTGRES_TLS_OTHER_CA="$PG_TLS_DIR/certs/other-ca.crt"
  echo "PostgreSQL with TLS on 127.0.0.1:$port (data $PG_TLS_DIR/data)"
}

services_stop() {
  if [ -n "$PG_TLS_DIR" ] && [ -f "$PG_TLS_DIR/data/postmaster.pid" ]; then
    as_pg_user "$PG_BIN/pg_ctl" -D "$PG_TLS_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  PG_TLS_DIR=""
  if [ -n "$PG_DIR" ] && [ -f "$PG_DIR/data/postmaster.pid" ]; then
    as_pg_user "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  PG_DIR=""
}
