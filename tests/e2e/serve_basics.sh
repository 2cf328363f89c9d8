#!/usr/bin/env bash
# serve: ready line, health, the ROCm example end to end with curl, option
# errors, busy port, clean shutdown on SIGTERM.
source "$(dirname "$0")/../support/e2e_lib.sh"

help=$("$BIN" serve --help)  # read whole: `| grep -q` would stop reading early and fail the pipe (pipefail)
grep -q -- "--data-dir" <<<"$help" || fail "serve --help lists no --data-dir"
pass "serve --help"

start_server main --ephemeral --time-scale 4
curl -fsS -m 1 "$URL/healthz" | grep -q '"ok":true' || fail "/healthz right after the ready line"
pass "healthz after ready line"
# A burst of new connections must not overflow the listen queue (the HTTP
# library's own backlog is 5): `ss` shows a listening socket's backlog as Send-Q.
if command -v ss >/dev/null; then
  backlog=$(ss -Hltn "sport = :${URL##*:}" | awk '{print $3}' | head -n1)
  [ "${backlog:-0}" -ge 128 ] || fail "listen backlog ${backlog:-?}, expected >= 128"
  pass "listen backlog $backlog"
fi
[ "$(grep -c '^jgrid-local ready url=' "$WORK/main.out")" = 1 ] || fail "exactly one ready line"
data_dir=$(sed -n 's/^  data dir *//p' "$WORK/main.out")
[ -d "$data_dir" ] || fail "ephemeral data dir $data_dir exists while running"

(cd "$WORK" && JUNGLE_GRID_API="$URL" timeout 60 "$ROOT/examples/scripts/rocm-inference.sh" "$WORK/result.json") \
  >"$WORK/example.log" 2>&1 || { cat "$WORK/example.log"; fail "ROCm example script"; }
grep -q '\[stdout\]' "$WORK/example.log" || fail "live logs streamed stdout lines"
grep -q '\[terminal\]' "$WORK/example.log" || fail "live logs ended with terminal"
[ -s "$WORK/result.json" ] || fail "result.json downloaded"
pass "ROCm example: submit, live logs, artifact download"

port=${URL##*:}
set +e
"$BIN" serve --port "$port" --ephemeral >"$WORK/busy.out" 2>"$WORK/busy.err"
code=$?
set -e
[ "$code" = 1 ] || fail "busy port exits 1 (got $code)"
[ "$(wc -l <"$WORK/busy.err")" = 1 ] && grep -q "$port" "$WORK/busy.err" || fail "busy port: one line naming $port: $(cat "$WORK/busy.err")"
pass "busy port"

for bad in "--port abc" "--port 70000" "--log-format xml" "--log-level loud" "--base-path grid" \
           "--public-url ftp://x" "--fleet /nonexistent.json" "--no-such-option"; do
  set +e
  # shellcheck disable=SC2086
  "$BIN" serve $bad --ephemeral >"$WORK/bad.out" 2>"$WORK/bad.err"
  code=$?
  set -e
  [ "$code" = 2 ] || fail "'$bad' exits 2 (got $code)"
  [ "$(wc -l <"$WORK/bad.err")" = 1 ] || fail "'$bad' prints one line: $(cat "$WORK/bad.err")"
  option=${bad%% *}
  grep -q -- "$option" "$WORK/bad.err" || fail "'$bad' names $option: $(cat "$WORK/bad.err")"
done
pass "bad options: one line, exit 2"

start=$(date +%s%N)
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" && code=0 || code=$?
SERVER_PID=""
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$code" = 0 ] || fail "SIGTERM exits 0 (got $code)"
[ "$elapsed_ms" -lt 5000 ] || fail "SIGTERM exit took ${elapsed_ms} ms"
[ ! -d "$data_dir" ] || fail "ephemeral data dir removed at exit"
pass "SIGTERM: exit 0 in ${elapsed_ms} ms, ephemeral dir removed"
