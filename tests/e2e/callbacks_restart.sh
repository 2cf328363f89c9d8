#!/usr/bin/env bash
# docs/api.md §5 across a crash: the receiver answers 500 to the first 3
# attempts; jgrid-local is killed -9 between attempts and restarted on the
# same data dir. The delivery still arrives, once, with a signature that
# verifies with the server's callback key, and its attempts count across
# the restart.
source "$(dirname "$0")/../support/e2e_lib.sh"
require_tool python3 "runs the callback receiver: apt-get install python3"
data="$WORK/data"

start_server first --data-dir "$data"
[ "$(stat -c %a "$data/callback.key")" = 600 ] || fail "callback.key is created with mode 0600"
python3 "$ROOT/examples/callbacks/receiver.py" --secret-file "$data/callback.key" --fail-first 3 --count 1 \
  >"$WORK/receiver.log" 2>&1 &
RECEIVER_PID=$!
trap 'kill "$RECEIVER_PID" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 1 100); do
  hook=$(sed -n 's/^receiver listening on //p' "$WORK/receiver.log")
  [ -n "$hook" ] && break
  sleep 0.05
done
[ -n "$hook" ] || fail "the receiver starts"

job=$(curl -fsS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d '{
  "workload_type": "inference", "image": "ghcr.io/acme/pytorch-rocm:latest", "gpu_vendor": "amd",
  "runtime": "rocm", "sim": {"duration_s": 1}, "webhook_url": "'"$hook"'",
  "callback_metadata": {"run": "e2e"}}' | json_field job_id)
[ -n "$job" ] || fail "submit with webhook_url"

failed_events() {
  curl -fsS "$URL/v1/jobs/$job/events?type=job.callback_failed&limit=50" | grep -o '"type": *"job.callback_failed"' | wc -l
}
# Two failed attempts recorded (the third is due 2 s after the second): kill now.
for _ in $(seq 1 300); do
  [ "$(failed_events)" -ge 2 ] && break
  sleep 0.05
done
[ "$(failed_events)" = 2 ] || fail "two failed attempts are recorded before the kill"
kill -9 "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
pass "killed -9 between attempts 2 and 3"

start_server second --data-dir "$data"
for _ in $(seq 1 600); do
  grep -q 'answer 200' "$WORK/receiver.log" && break
  sleep 0.05
done
grep -q 'answer 200' "$WORK/receiver.log" || { cat "$WORK/receiver.log"; fail "the delivery arrives after the restart"; }
pass "delivered after restart"

lines=$(grep -c '^callback' "$WORK/receiver.log")
successes=$(grep -c 'answer 200' "$WORK/receiver.log")
deliveries=$(grep -o 'delivery dlv_[^ ]*' "$WORK/receiver.log" | sort -u | wc -l)
invalid=$(grep -c 'signature INVALID' "$WORK/receiver.log" || true)
[ "$lines" = 4 ] && [ "$successes" = 1 ] && [ "$deliveries" = 1 ] && [ "$invalid" = 0 ] \
  || { cat "$WORK/receiver.log"; fail "4 requests, 1 success, 1 delivery id, valid signatures"; }
grep -q 'metadata {"run": "e2e"}' "$WORK/receiver.log" || fail "callback_metadata is sent"
pass "one delivery id, one success, every signature verifies with callback.key"

for _ in $(seq 1 100); do
  state=$(curl -fsS "$URL/v1/jobs/$job")
  echo "$state" | grep -q '"attempts": *4' && break
  sleep 0.05
done
echo "$state" | grep -q '"callback": *{[^}]*"status": *"delivered"' || fail "job.callback.status is delivered: $state"
echo "$state" | grep -o '"callback": *{[^}]*}' | grep -q '"attempts": *4' || fail "attempts count across the restart: $state"
echo "$state" | grep -q '"status": *"completed"' || fail "the job stays completed"
[ "$(failed_events)" = 3 ] || fail "three job.callback_failed events"
metrics=$(curl -fsS "$URL/metrics")
echo "$metrics" | grep -q '^jgrid_callback_deliveries_total{result="delivered"} 1$' \
  || fail "/metrics counts the delivery: $(echo "$metrics" | grep callback)"
pass "job.callback {status: delivered, attempts: 4}, 3 failed events, metrics"
