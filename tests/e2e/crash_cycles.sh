#!/usr/bin/env bash
# 20 kill -9 / restart cycles of the server on one data dir, at random
# points, while clients keep submitting jobs, cancelling them and uploading
# job inputs (create → PUT → complete, docs/api.md §2.9) across the restarts.
# Every cycle must have had at least one job accepted (202) since the
# previous restart, and the run at least one completed upload and one
# callback job: a server refusing everything must fail this test, not pass
# it with nothing to check.
# After each restart:
#   - every job that got a 202 is listed by GET /v1/jobs;
#   - PRAGMA integrity_check of the SQLite file is "ok";
#   - every completed upload is listed ready with its sha256, and its bytes
#     on disk still hash to it;
#   - every callback the receiver got so far is signed validly, its
#     delivery id belongs to one job only and that job has no other id.
# Two of the three submitters name a callback URL (docs/api.md §5) of a loopback
# receiver (examples/callbacks/receiver.py) that answers 500 to every 4th
# request (never twice to one delivery, so none runs out of attempts) and
# takes 20 ms to answer, so deliveries and their retries are in
# flight when the server is killed. Their jobs are the `batch` ones, so the
# server's own list tells which jobs owe a callback.
# At the end the clients stop and every job reaches a terminal status (the
# non-terminal ones were recovered by the restarts), each acknowledged
# cancel ended `cancelled`; once the outbox is drained every `batch` job's
# callback is `delivered` (GET /v1/jobs/{id}), the receiver got at least one
# 200 for it with the job's final status, and nothing for any other job.
# Prints cycles survived, jobs lost, callbacks delivered and duplicates (a
# delivery repeated after a crash: allowed, at-least-once).
# Usage: crash_cycles.sh BIN ROOT [cycles]
# JGRID_E2E_SERVE_ARGS (tests/support/e2e_lib.sh) is appended to every start.
source "$(dirname "$0")/../support/e2e_lib.sh"
cycles="${3:-${JGRID_CRASH_CYCLES:-20}}"
require_tool sqlite3 "the CLI runs PRAGMA integrity_check: apt-get install sqlite3; ./dev installs it"
require_tool jq "apt-get install jq; ./dev installs it"
require_tool python3 "runs the callback receiver: apt-get install python3"
data="$WORK/data"
db="$data/jgrid.db"
body='{"workload_type":"inference","image":"ghcr.io/acme/pytorch-rocm:latest","gpu_vendor":"amd","runtime":"rocm","sim":{"duration_s":3}}'
receiver_log="$WORK/receiver.log"
# submitter N's request: 1 signs with the server's callback.key, 2 with its own token, 3 names no callback.
callback_body() {
  local token=""
  [ "$1" = 2 ] && token='"auth_token":"crash-token",'
  echo "${body/inference/batch}" | sed 's|}$|,"callback":{"url":"'"$hook"'",'"$token"'"metadata":{"run":"crash"}}}|'
}
touch "$WORK/accepted.0" "$WORK/cancelled.0" "$WORK/uploaded.0" "$WORK/client-failures"
RECEIVER_PID=""

# --- clients: loop until $WORK/stop exists; read the current URL each time.
url() { cat "$WORK/url"; }
# post OUT URL BODY: prints the status code, or 000 when the exchange did not
# finish (a kill mid-answer): curl writes -o only once body bytes arrive, so
# OUT is removed first and a cut answer never leaves the previous one there.
post() {
  local code
  rm -f "$1"
  code=$(curl -s -m 5 -o "$1" -w '%{http_code}' -X POST "$2" -H 'Content-Type: application/json' -d "$3") || code=000
  echo "$code"
}

submitter() {
  local n=0 code request="$body"
  [ "$1" = 3 ] || request=$(callback_body "$1")
  while [ ! -e "$WORK/stop" ]; do
    n=$((n + 1))
    code=$(post "$WORK/sub.$1" "$(url)/v1/jobs" "$request")
    [ "$code" = 202 ] && jq -r .job_id "$WORK/sub.$1" >>"$WORK/accepted.$1"
    sleep 0.1
  done
}

canceller() {
  local id code
  while [ ! -e "$WORK/stop" ]; do
    id=$(cat "$WORK"/accepted.* 2>/dev/null | tail -n 30 | shuf -n 1 || true)
    [ -n "$id" ] || { sleep 0.05; continue; }
    code=$(post "$WORK/can.out" "$(url)/v1/jobs/$id/cancel" '{"reason":"crash test"}')
    [ "$code" = 200 ] && echo "$id" >>"$WORK/cancelled.1"
    sleep 0.1
  done
}

uploader() {
  local n=0 ticket iid put_url done_url token code sha file="$WORK/blob.$1"
  while [ ! -e "$WORK/stop" ]; do
    n=$((n + 1))
    head -c $(( (RANDOM % 64 + 1) * 1024 )) /dev/urandom >"$file"
    code=$(post "$WORK/up.$1" "$(url)/v1/job-inputs" "{\"filename\":\"in-$1-$n.bin\",\"content_type\":\"application/octet-stream\",\"kind\":\"input\"}")
    [ "$code" = 201 ] || [ "$code" = 200 ] || { sleep 0.05; continue; }
    iid=$(jq -r .upload.input_id "$WORK/up.$1"); put_url=$(jq -r .upload.upload_url "$WORK/up.$1")
    done_url=$(jq -r .upload.complete_url "$WORK/up.$1"); token=$(jq -r .upload.token "$WORK/up.$1")
    curl -s -m 5 -o /dev/null -X PUT -H 'Content-Type: application/octet-stream' --data-binary @"$file" "$put_url" || continue
    code=$(post "$WORK/done.$1" "$done_url" "{\"token\":\"$token\",\"size_bytes\":$(wc -c <"$file")}")
    [ "$code" = 200 ] || continue
    sha=$(sha256sum "$file" | cut -d' ' -f1)
    [ "$(jq -r .sha256 "$WORK/done.$1")" = "$sha" ] ||
      echo "upload $iid: complete answered sha256 $(jq -r .sha256 "$WORK/done.$1"), sent $sha" >>"$WORK/client-failures"
    echo "$iid $sha" >>"$WORK/uploaded.$1"
    sleep 0.2
  done
}

# --- checks
list_all() {  # list_all PATH KEY JQ_FILTER: every item of a paged list, one per line
  local cursor="" page
  while :; do
    page=$(curl -fsS -m 10 "$(url)$1${cursor:+&cursor=$cursor}") || fail "GET $1 failed"
    jq -r ".$2[] | $3" <<<"$page"
    [ "$(jq -r .has_more <<<"$page")" = true ] || break
    cursor=$(jq -r .next_cursor <<<"$page")
  done
}

check_jobs() {
  cat "$WORK"/accepted.* 2>/dev/null | sort -u >"$WORK/accepted"
  list_all "/v1/jobs?limit=100" jobs '.job_id + " " + .status' | sort -u >"$WORK/listed"
  cut -d' ' -f1 "$WORK/listed" | comm -23 "$WORK/accepted" - >"$WORK/lost"
  [ ! -s "$WORK/lost" ] || fail "cycle $1: $(wc -l <"$WORK/lost") accepted jobs lost, e.g. $(head -n1 "$WORK/lost")"
}

check_database() {
  local result
  result=$(sqlite3 -readonly "$db" 'PRAGMA integrity_check;') || fail "cycle $1: sqlite3 could not open $db"
  [ "$result" = ok ] || fail "cycle $1: integrity_check: $result"
}

check_uploads() {
  cat "$WORK"/uploaded.* 2>/dev/null | sort -u >"$WORK/uploaded"
  [ "$1" != final ] || [ -s "$WORK/uploaded" ] || fail "no upload completed in the whole run: nothing was checked"
  list_all "/v1/job-inputs?limit=100&status=ready" inputs '.input_id + " " + .sha256' | sort -u >"$WORK/ready"
  comm -23 "$WORK/uploaded" "$WORK/ready" >"$WORK/missing"
  [ ! -s "$WORK/missing" ] || fail "cycle $1: completed upload missing or changed: $(head -n1 "$WORK/missing")"
  while read -r iid sha; do
    [ "$(sha256sum "$data/uploads/$iid" 2>/dev/null | cut -d' ' -f1)" = "$sha" ] ||
      fail "cycle $1: bytes of completed upload $iid lost or changed on disk"
  done <"$WORK/uploaded"
}

# The receiver's lines as "job delivery answer signature status", one per request.
received() {
  sed -n 's/^callback [^ ]* job \([^ ]*\) status \([^ ]*\) delivery \([^ ]*\) signature \([^ ]*\) .* answer \([0-9]*\)$/\1 \3 \5 \4 \2/p' \
    "$receiver_log"
}

# Callbacks seen so far: valid signatures, one job per delivery id and one
# delivery id per job (one terminal transition, one outbox row).
check_callbacks() {
  local bad
  received >"$WORK/received"
  bad=$(awk '$4 != "verified"' "$WORK/received" | head -n1)
  [ -z "$bad" ] || fail "cycle $1: callback with an invalid signature: $bad"
  bad=$(awk '{print $2, $1}' "$WORK/received" | sort -u | awk '{n[$1]++} n[$1] == 2 {print $1}' | head -n1)
  [ -z "$bad" ] || fail "cycle $1: delivery id $bad was sent for two jobs: $(grep -F " $bad " "$WORK/received" | cut -d' ' -f1 | sort -u | xargs)"
  bad=$(awk '{print $1, $2}' "$WORK/received" | sort -u | awk '{n[$1]++} n[$1] == 2 {print $1}' | head -n1)
  [ -z "$bad" ] || fail "cycle $1: job $bad got two delivery ids: $(grep -F "$bad " "$WORK/received" | cut -d' ' -f2 | sort -u | xargs)"
}

# The callback objects of jobs (one curl for all): "job_id status attempts" lines.
callback_states() {
  [ -s "$1" ] || return 0
  sed "s|^|url = $(url)/v1/jobs/|" "$1" | curl -fsS -m 60 -K - |
    jq -r '.job_id + " " + .callback.status + " " + (.callback.attempts | tostring)'
}

# After the last restart: wait until no callback is pending, then every
# `batch` job's callback is delivered per the server and per the receiver.
check_callbacks_final() {
  list_all "/v1/jobs?limit=100&workload_type=batch" jobs '.job_id + " " + .status' | sort -u >"$WORK/owed"
  # The callback jobs are those of submitters 1 and 2: none at all would
  # let every check below pass on an empty list.
  cat "$WORK/accepted.1" "$WORK/accepted.2" 2>/dev/null | sort -u >"$WORK/callers"
  [ -s "$WORK/callers" ] || fail "no callback job was accepted in the whole run: no delivery to check"
  bad=$(cut -d' ' -f1 "$WORK/owed" | comm -23 "$WORK/callers" - | head -n1)
  [ -z "$bad" ] || fail "callback job $bad (accepted with a callback URL) is not listed as a batch job"
  cut -d' ' -f1 "$WORK/owed" >"$WORK/pending"
  : >"$WORK/settled"
  for _ in $(seq 1 120); do
    callback_states "$WORK/pending" >"$WORK/states" || fail "GET /v1/jobs/{id} of the callback jobs failed"
    grep -v ' pending ' "$WORK/states" >>"$WORK/settled" || true
    grep ' pending ' "$WORK/states" | cut -d' ' -f1 >"$WORK/pending" || true
    [ -s "$WORK/pending" ] || break
    sleep 1
  done
  [ ! -s "$WORK/pending" ] || fail "$(wc -l <"$WORK/pending") callbacks still pending 120 s after the last restart, e.g. $(head -n1 "$WORK/pending")"
  sort -o "$WORK/settled" "$WORK/settled"
  bad=$(grep -v ' delivered ' "$WORK/settled" | head -n1 || true)
  [ -z "$bad" ] || fail "callback not delivered (job, status, attempts): $bad"
  check_callbacks final
  awk '$3 == 200 {print $1, $5}' "$WORK/received" | sort -u >"$WORK/answered"
  bad=$(join -v1 "$WORK/owed" "$WORK/answered" | head -n1)
  [ -z "$bad" ] || fail "the server says delivered, the receiver never answered 200 for job (and status): $bad"
  bad=$(comm -13 "$WORK/owed" "$WORK/answered" | head -n1)
  [ -z "$bad" ] || fail "a 200 callback for a job without a callback or with another status (job, status): $bad"
}

callback_figures() {
  local answered delivered duplicates requests failed attempts
  delivered=$(wc -l <"$WORK/settled")
  answered=$(awk '$3 == 200' "$WORK/received" | wc -l)
  duplicates=$(awk '$3 == 200 {print $2}' "$WORK/received" | sort | uniq -d | wc -l)
  requests=$(wc -l <"$WORK/received")
  failed=$(awk '$3 != 200' "$WORK/received" | wc -l)
  attempts=$(awk '{n += $3} END {print n + 0}' "$WORK/settled")
  echo "callbacks: $delivered delivered, $requests requests received ($failed answered 500, $answered answered 200), $duplicates delivery ids answered 200 more than once, $attempts attempts counted by the server"
}

check_clients() {
  [ ! -s "$WORK/client-failures" ] || fail "cycle $1: $(head -n1 "$WORK/client-failures")"
}

accepted_count() { cat "$WORK"/accepted.* | wc -l; }

# await_accepted CYCLE: before the kill, the running server has accepted at
# least one job (a 202 recorded since the previous restart, whose count is
# $since); waits up to 10 s for it. A cycle with nothing accepted has nothing
# to lose or recover, so it fails instead of counting as survived.
await_accepted() {
  for _ in $(seq 1 200); do
    [ "$(accepted_count)" -gt "$since" ] && return 0
    sleep 0.05
  done
  fail "cycle $1: no job accepted (202) since the previous restart in 10 s; the server refuses every submit?"
}

# restart_server NAME: serve on the data dir and the port of the first start.
restart_server() {
  "$BIN" serve --port "$port" --data-dir "$data" --time-scale 10 "${SERVE_EXTRA[@]}" >"$WORK/$1.out" 2>"$WORK/$1.err" &
  SERVER_PID=$!
  for _ in $(seq 1 400); do
    grep -q '^jgrid-local ready' "$WORK/$1.out" 2>/dev/null && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/$1.err" >&2; fail "server $1 exited early"; }
    sleep 0.05
  done
  fail "no ready line from server $1"
}

# Clients stop with the test, whichever way it ends.
clients=()
cleanup() {
  touch "$WORK/stop"
  for pid in "${clients[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait "${clients[@]}" 2>/dev/null || true
  [ -n "$SERVER_PID" ] && kill -9 "$SERVER_PID" 2>/dev/null || true
  [ -n "$RECEIVER_PID" ] && kill "$RECEIVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}

# --- the cycles
start_server cycle0 --data-dir "$data" --time-scale 10
echo "$URL" >"$WORK/url"
port="${URL##*:}"
python3 "$ROOT/examples/callbacks/receiver.py" --secret-file "$data/callback.key" --token crash-token \
  --fail-every 4 --delay-ms 20 >"$receiver_log" 2>"$WORK/receiver.err" &
RECEIVER_PID=$!
hook=""
for _ in $(seq 1 100); do
  hook=$(sed -n 's/^receiver listening on //p' "$receiver_log")
  [ -n "$hook" ] && break
  sleep 0.05
done
[ -n "$hook" ] || fail "the callback receiver starts"
for c in 1 2 3; do submitter "$c" & clients+=($!); done
canceller & clients+=($!)
for c in 1 2; do uploader "$c" & clients+=($!); done

survived=0
since=0
for cycle in $(seq 1 "$cycles"); do
  # Kill at a random point: sometimes right after the restart (recovery
  # still running), mostly after 0.3–3 s of traffic.
  if [ $((RANDOM % 5)) = 0 ]; then sleep 0.0$((RANDOM % 10)); else sleep "$((RANDOM % 3)).$((RANDOM % 10))"; fi
  await_accepted "$cycle"
  kill -9 "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  new=$(( $(accepted_count) - since ))
  sleep 0.$((RANDOM % 3))
  restart_server "cycle$cycle"
  since=$(accepted_count)
  check_jobs "$cycle"; check_database "$cycle"; check_uploads "$cycle"; check_callbacks "$cycle"; check_clients "$cycle"
  survived=$cycle
  echo "cycle $cycle: ok ($new jobs accepted before the kill, $(wc -l <"$WORK/accepted") in all, $(wc -l <"$WORK/uploaded") uploads, $(grep -vcE ' (completed|failed|rejected|cancelled)$' "$WORK/listed" || true) non-terminal at restart, $(wc -l <"$WORK/received") callbacks received)"
done
touch "$WORK/stop"
wait "${clients[@]}" 2>/dev/null || true

# Every job recovered by a restart reaches a terminal status.
check_jobs final
for _ in $(seq 1 120); do
  live=$(list_all "/v1/jobs?limit=100" jobs 'select(.status | IN("completed","failed","rejected","cancelled") | not) | .job_id' | wc -l)
  [ "$live" = 0 ] && break
  sleep 1
done
[ "$live" = 0 ] || fail "$live jobs still non-terminal 120 s after the last restart"
list_all "/v1/jobs?limit=100" jobs '.job_id + " " + .status' | sort -u >"$WORK/listed"
cat "$WORK"/cancelled.* 2>/dev/null | sort -u >"$WORK/cancelled"
join "$WORK/cancelled" "$WORK/listed" | grep -v ' cancelled$' >"$WORK/uncancelled" || true
[ ! -s "$WORK/uncancelled" ] || fail "acknowledged cancel did not end cancelled: $(head -n1 "$WORK/uncancelled")"
check_database final; check_uploads final; check_callbacks_final; check_clients final
callback_figures
pass "$survived kill -9 cycles survived: $(wc -l <"$WORK/accepted") accepted jobs, 0 lost, all terminal; $(wc -l <"$WORK/cancelled") acknowledged cancels ended cancelled; $(wc -l <"$WORK/uploaded") completed uploads intact; integrity_check ok; $(wc -l <"$WORK/settled") callbacks delivered, every signature valid, one job per delivery id"
