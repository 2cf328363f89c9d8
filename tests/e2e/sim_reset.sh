#!/usr/bin/env bash
# POST /v1/sim/reset on a file store: jobs finished, running and queued are
# all gone (404, empty lists, no files), new jobs run, and a restart on the
# same data dir does not bring the old ones back.
source "$(dirname "$0")/../support/e2e_lib.sh"
require_tool jq "apt-get install jq; ./dev installs it"
data="$WORK/data"
submit() {  # submit DURATION_S : prints the job id
  curl -fsS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' \
    -d "{\"workload_type\":\"inference\",\"image\":\"ghcr.io/acme/pytorch-rocm:latest\",\"gpu_vendor\":\"amd\",\"command\":\"python infer.py\",\"sim\":{\"duration_s\":$1}}" |
    json_field job_id
}
status_of() {  # the job's own status
  curl -fsS "$URL/v1/jobs/$1" | jq -r .status
}
wait_status() {  # wait_status ID STATUS
  for _ in $(seq 1 200); do [ "$(status_of "$1")" = "$2" ] && return 0; sleep 0.05; done
  fail "job $1 did not reach $2: $(curl -sS "$URL/v1/jobs/$1")"
}

start_server first --data-dir "$data" --clock real --time-scale 100
done_id=$(submit 1)
wait_status "$done_id" completed
running_id=$(submit 3600)
wait_status "$running_id" running
curl -fsS "$URL/v1/nodes" | grep -o '"id": *"node_[^"]*"' | sed 's/.*"\(node_[^"]*\)"/\1/' >"$WORK/nodes"
while read -r node; do curl -fsS -X POST "$URL/v1/sim/nodes/$node/drain" >/dev/null; done <"$WORK/nodes"
queued_id=$(submit 60)
wait_status "$queued_id" queued
[ -d "$data/jobs/$done_id" ] || fail "the finished job has a folder under the data dir"

curl -fsS -X POST "$URL/v1/sim/reset" >"$WORK/reset.json"
grep -q '"cancelled_jobs": *2' "$WORK/reset.json" || fail "reset cancels the running and the queued job: $(cat "$WORK/reset.json")"
grep -q '"jobs": *3' "$WORK/reset.json" || fail "reset counts the 3 jobs it deleted: $(cat "$WORK/reset.json")"
for id in "$done_id" "$running_id" "$queued_id"; do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/v1/jobs/$id")" = 404 ] || fail "$id is 404 after reset"
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/v1/jobs/$id/events")" = 404 ] || fail "$id events are 404 after reset"
  [ ! -e "$data/jobs/$id" ] || fail "the folder of $id is removed"
done
curl -fsS "$URL/v1/jobs" | grep -q '"jobs": *\[\]' || fail "the job list is empty after reset"
curl -fsS "$URL/v1/health" | grep -q '"jobs": *0' || fail "/v1/health counts no job after reset"
pass "reset deletes finished, running and queued jobs"

new_id=$(submit 1)
wait_status "$new_id" completed
pass "a job submitted after reset runs"

kill "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
start_server second --data-dir "$data" --clock real --time-scale 100
for id in "$done_id" "$running_id" "$queued_id"; do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/v1/jobs/$id")" = 404 ] || fail "$id stays gone after a restart"
done
[ "$(status_of "$new_id")" = completed ] || fail "the job of after the reset survives the restart"
curl -fsS "$URL/v1/health" | grep -q '"jobs": *1' || fail "/v1/health counts the one new job after the restart"
pass "after a restart on the same data dir the old jobs are still gone"
