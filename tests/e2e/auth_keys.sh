#!/usr/bin/env bash
# serve --auth keys: the keys file is checked at start (one line naming the
# file and field, exit 2), keys gate the API, introspection answers with the
# service token, keys never reach the output, POST /v1/sim/reset needs the
# sim:reset scope (jobs:write is not enough), and binding beyond loopback
# with auth off warns.
source "$(dirname "$0")/../support/e2e_lib.sh"

KEY=jg_e2e_key_000000001
WRITE_KEY=jg_e2e_write_00000001
RESET_KEY=jg_e2e_reset_00000001
SERVICE=svc_e2e_token_0000001

check_bad_keys() {  # check_bad_keys FIELD JSON
  printf '%s' "$2" >"$WORK/bad-keys.json"
  set +e
  "$BIN" serve --ephemeral --port 0 --auth keys --keys-file "$WORK/bad-keys.json" >"$WORK/bad.out" 2>"$WORK/bad.err"
  local code=$?
  set -e
  [ "$code" = 2 ] || fail "keys file with bad $1 exits 2 (got $code)"
  [ "$(wc -l <"$WORK/bad.err")" = 1 ] || fail "bad $1: one line: $(cat "$WORK/bad.err")"
  grep -qF "bad-keys.json" "$WORK/bad.err" && grep -qF -- "$1" "$WORK/bad.err" ||
    fail "bad $1: names the file and the field: $(cat "$WORK/bad.err")"
}
check_bad_keys "(file)" '{"keys": ['
check_bad_keys "keys" '{"key": []}'
check_bad_keys "keys[0].key" '{"keys": [{"workspace": "w1", "scopes": []}]}'
check_bad_keys "keys[0].workspace" '{"keys": [{"key": "jg_abcdefgh", "scopes": []}]}'
check_bad_keys "keys[0].scopes[0]" '{"keys": [{"key": "jg_abcdefgh", "workspace": "w1", "scopes": ["root"]}]}'
check_bad_keys "keys[1].revoked" '{"keys": [{"key": "jg_abcdefgh", "workspace": "w1", "scopes": []},
  {"key": "jg_abcdefgi", "workspace": "w1", "scopes": [], "revoked": "no"}]}'
check_bad_keys "keys[1].key" '{"keys": [{"key": "jg_abcdefgh", "workspace": "w1", "scopes": []},
  {"key": "jg_abcdefgh", "workspace": "w2", "scopes": []}]}'
pass "bad keys files: one line naming file and field, exit 2"

cat >"$WORK/keys.json" <<JSON
{"keys": [{"key": "$KEY", "workspace": "w1", "scopes": ["jobs:read"]},
          {"key": "$WRITE_KEY", "workspace": "w2", "scopes": ["jobs:write"]},
          {"key": "$RESET_KEY", "workspace": "w3", "scopes": ["sim:reset"]}]}
JSON
start_server keyed --ephemeral --auth keys --keys-file "$WORK/keys.json" --service-token "$SERVICE" --log-level debug
code=$(curl -sS -o "$WORK/r.json" -D "$WORK/r.head" -w '%{http_code}' "$URL/v1/jobs")
[ "$code" = 401 ] || fail "no key: 401 (got $code)"
grep -qi '^WWW-Authenticate: Bearer' "$WORK/r.head" || fail "401 carries WWW-Authenticate: Bearer"
code=$(curl -sS -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" "$URL/v1/jobs")
[ "$code" = 200 ] || fail "key with jobs:read lists jobs (got $code)"
code=$(curl -sS -o "$WORK/r.json" -w '%{http_code}' -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d @"$ROOT/examples/jobs/rocm-inference.json" "$URL/v1/jobs")
[ "$code" = 403 ] && grep -q 'jobs:submit' "$WORK/r.json" || fail "submit without jobs:submit: 403 naming it ($code)"
curl -fsS "$URL/healthz" | grep -q '"ok":true' || fail "/healthz stays open"
curl -fsS -H "Authorization: Bearer $SERVICE" -d "token=$KEY" "$URL/oauth/introspect" >"$WORK/i.json"
grep -q '"active":true' "$WORK/i.json" && grep -q '"workspace_id":"w1"' "$WORK/i.json" || fail "introspect: $(cat "$WORK/i.json")"
! grep -qF "$KEY" "$WORK/i.json" || fail "introspection answer holds the key"
! grep -qF "$KEY" "$WORK/keyed.out" "$WORK/keyed.err" || fail "the key appears in the server output"
pass "auth keys: 401, 403 naming the scope, 200, introspection, key never printed"

# The reset deletes every workspace's jobs: jobs:write is not enough.
reset() {  # reset KEY : the HTTP status of POST /v1/sim/reset
  curl -sS -o "$WORK/reset.json" -w '%{http_code}' -X POST -H "Authorization: Bearer $1" "$URL/v1/sim/reset"
}
code=$(reset "$WRITE_KEY")
[ "$code" = 403 ] && grep -q 'sim:reset' "$WORK/reset.json" ||
  fail "reset with a jobs:write key: 403 naming sim:reset (got $code: $(cat "$WORK/reset.json"))"
code=$(curl -sS -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $WRITE_KEY" "$URL/v1/sim/clock")
[ "$code" = 200 ] || fail "jobs:write still opens the other /v1/sim routes (got $code)"
code=$(curl -sS -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $RESET_KEY" "$URL/v1/sim/clock")
[ "$code" = 403 ] || fail "sim:reset opens only the reset (got $code on /v1/sim/clock)"
code=$(reset "$RESET_KEY")
[ "$code" = 200 ] && grep -q '"ok": *true' "$WORK/reset.json" || fail "reset with a sim:reset key: 200 (got $code: $(cat "$WORK/reset.json"))"
pass "sim reset: jobs:write refused with 403 naming sim:reset, sim:reset admitted"

kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
start_server open --ephemeral --host 0.0.0.0
grep -q 'beyond loopback with auth off' "$WORK/open.err" "$WORK/open.out" || fail "warning when binding 0.0.0.0 with auth off"
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
start_server shut --ephemeral --host 0.0.0.0 --auth keys --keys-file "$WORK/keys.json"
! grep -q 'beyond loopback' "$WORK/shut.err" "$WORK/shut.out" || fail "no warning with --auth keys"
pass "warning beyond loopback only with auth off"
