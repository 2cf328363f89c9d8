# Shared helpers of the black-box tests in tests/e2e: they drive the built
# binary over real HTTP with curl.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/skip.sh"
BIN="$1"
ROOT="$2"
WORK="$(mktemp -d /tmp/jgrid-e2e-XXXXXX)"
SERVER_PID=""
trap 'cleanup' EXIT

cleanup() {
  [ -n "$SERVER_PID" ] && kill -9 "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# JGRID_E2E_SERVE_ARGS: extra `serve` arguments (split on whitespace) appended
# to every server a test starts. Test-only: it exists to run a test against a
# server that refuses everything (e.g. `--auth keys --keys-file K` with a key
# the test never sends) and see the test fail rather than pass on nothing.
SERVE_EXTRA=()
read -ra SERVE_EXTRA <<<"${JGRID_E2E_SERVE_ARGS:-}"

# start_server NAME ARGS… : starts `serve` in the background, waits for the
# ready line, sets SERVER_PID and URL.
start_server() {
  local name="$1"; shift
  "$BIN" serve --port 0 "$@" "${SERVE_EXTRA[@]}" >"$WORK/$name.out" 2>"$WORK/$name.err" &
  SERVER_PID=$!
  for _ in $(seq 1 200); do
    URL=$(sed -n 's/^jgrid-local ready url=//p' "$WORK/$name.out" 2>/dev/null || true)
    [ -n "$URL" ] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/$name.err" >&2; fail "server $name exited early"; }
    sleep 0.05
  done
  fail "no ready line from server $name"
}

json_field() {  # json_field NAME < json : first string value of "NAME"
  grep -o "\"$1\": *\"[^\"]*\"" | head -n1 | sed 's/.*: *"\(.*\)"/\1/'
}
