# The SMTP sink for the mail tests (crates/server/tests/server/mail.rs): a real SMTP server on
# loopback, scripts/mail/smtp_sink.py, on aiosmtpd from PyPI. Sourced by scripts/test.sh.
#
#   smtp_sink_start DIR   aiosmtpd in a venv (kept in ~/.cache/evr-test, made again when it
#                         cannot import aiosmtpd; Debian's python3-aiosmtpd if pip cannot reach
#                         PyPI), the sink started on 127.0.0.1 and a free port; mails go to
#                         DIR/mails. Exports EVR_TEST_SMTP_PORT and EVR_TEST_SMTP_DIR.
#   smtp_sink_stop        stops the sink this shell started (SIGTERM; it also stops by itself
#                         after an hour)
#   smtp_sink_stop_dir DIR  stops the sink started in DIR by another shell (its pid file)

SMTP_SINK_PID=""
SMTP_SINK_DIR=""
AIOSMTPD_VERSION="1.4.6"

smtp_sink_python() {
  local venv="${XDG_CACHE_HOME:-$HOME/.cache}/evr-test/aiosmtpd-$AIOSMTPD_VERSION"
  if "$venv/bin/python" -c 'import aiosmtpd' 2>/dev/null; then
    echo "$venv/bin/python"
    return 0
  fi
  rm -rf "$venv"
  if python3 -m venv "$venv" >&2 && "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "aiosmtpd==$AIOSMTPD_VERSION" >&2; then
    echo "$venv/bin/python"
    return 0
  fi
  echo "no venv with aiosmtpd from PyPI: trying Debian's python3-aiosmtpd" >&2
  local sudo=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo"
  $sudo apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-aiosmtpd >&2 \
    && /usr/bin/python3 -c 'import aiosmtpd' && echo /usr/bin/python3
}

smtp_sink_start() {
  local dir="$1" python
  python="$(smtp_sink_python)" || return 1
  mkdir -p "$dir/mails"
  "$python" scripts/mail/smtp_sink.py --dir "$dir/mails" --port-file "$dir/port" --max-secs 3600 \
    >"$dir/sink.log" 2>&1 &
  SMTP_SINK_PID=$!
  SMTP_SINK_DIR="$dir"
  echo "$SMTP_SINK_PID" >"$dir/pid"
  local waited=0
  while [ ! -s "$dir/port" ]; do
    if ! kill -0 "$SMTP_SINK_PID" 2>/dev/null || [ "$waited" -ge 300 ]; then
      cat "$dir/sink.log"
      return 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  export EVR_TEST_SMTP_PORT="$(cat "$dir/port")"
  export EVR_TEST_SMTP_DIR="$dir/mails"
  echo "SMTP sink (aiosmtpd) on 127.0.0.1:$EVR_TEST_SMTP_PORT, mails in $EVR_TEST_SMTP_DIR"
}

smtp_sink_stop() {
  if [ -n "$SMTP_SINK_PID" ]; then
    kill "$SMTP_SINK_PID" 2>/dev/null
    wait "$SMTP_SINK_PID" 2>/dev/null
    SMTP_SINK_PID=""
    rm -f "$SMTP_SINK_DIR/pid"
  fi
}

smtp_sink_stop_dir() {
  [ -f "$1/pid" ] || return 0
  kill "$(cat "$1/pid")" 2>/dev/null
  rm -f "$1/pid"
}
