#!/usr/bin/env bash
# docs/api.md §5 against hostile receivers, with the real binary: one
# receiver answers a 3 GB body, one trickles its reply head a byte a second,
# one is healthy. The healthy one gets its callback at once while the
# trickling one is stalled; the server's memory stays bounded (VmRSS within
# 50 MB of its start); the huge reply counts by its status; the trickling
# attempt ends at the 15 s wall deadline and is retried; and no spelling of
# 127.0.0.1 turns a callback back at the server.
source "$(dirname "$0")/../support/e2e_lib.sh"
require_tool python3 "runs the callback receivers: apt-get install python3"
[ -r /proc/self/status ] || skip_or_fail "/proc/PID/status is needed to read the server's VmRSS (Linux procfs)"

python3 "$ROOT/tests/support/hostile_receiver.py" >"$WORK/receivers.log" 2>&1 &
RECEIVERS_PID=$!
trap 'kill "$RECEIVERS_PID" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 1 100); do
  [ "$(grep -c '^listening' "$WORK/receivers.log")" = 3 ] && break
  sleep 0.05
done
hook() { sed -n "s/^listening $1 //p" "$WORK/receivers.log"; }
[ -n "$(hook ok)" ] || fail "the receivers start"

start_server serve
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$SERVER_PID/status"; }
base_rss=$(rss_kb)

submit() {  # submit URL DURATION_S : prints the job id
  curl -fsS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d '{
    "workload_type": "inference", "image": "ghcr.io/acme/pytorch-rocm:latest", "gpu_vendor": "amd",
    "runtime": "rocm", "sim": {"duration_s": '"$2"'}, "callback_url": "'"$1"'"}' | json_field job_id
}
callback_state() { curl -fsS "$URL/v1/jobs/$1" | grep -o '"callback": *{[^}]*}'; }

# Not this server, under any spelling (auth is off: a callback to
# /v1/sim/reset would wipe every job).
port=${URL##*:}
for host in 2130706433 0x7f.0.0.1 0177.0.0.1 127.1 0 localhost. 127.0.0.1. '[::ffff:7f00:1]'; do
  code=$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d '{
    "workload_type": "inference", "image": "ghcr.io/acme/pytorch-rocm:latest", "gpu_vendor": "amd",
    "runtime": "rocm", "sim": {"duration_s": 1}, "callback_url": "http://'"$host"':'"$port"'/v1/sim/reset"}')
  [ "$code" = 400 ] || fail "a callback to http://$host:$port/ is refused at submit (got $code)"
done
pass "every spelling of this server is refused at submit"

# Long jobs, cancelled at once: a cancelled job is owed its callback at
# once. The hostile receivers are called first.
trickle_job=$(submit "$(hook trickle)" 600)
huge_job=$(submit "$(hook huge)" 600)
ok_job=$(submit "$(hook ok)" 600)
[ -n "$trickle_job" ] && [ -n "$huge_job" ] && [ -n "$ok_job" ] || fail "submit the three jobs"
cancel() { curl -fsS -X POST "$URL/v1/jobs/$1/cancel" -H 'Content-Type: application/json' -d '{}' >/dev/null; }
cancel "$trickle_job"
trickle_at=$(date +%s%3N)
cancel "$huge_job"
for _ in $(seq 1 100); do grep -q '^trickle delivery' "$WORK/receivers.log" && break; sleep 0.05; done
cancel "$ok_job"
started=$(date +%s%3N)

# The healthy receiver gets its callback at once (well within the 15 s one
# attempt may take), while the trickling receiver still holds its attempt.
max_rss=$base_rss
for _ in $(seq 1 100); do
  rss=$(rss_kb); [ "$rss" -gt "$max_rss" ] && max_rss=$rss
  grep -q '^ok delivery' "$WORK/receivers.log" && break
  sleep 0.05
done
took=$(( $(date +%s%3N) - started ))
grep -q '^ok delivery' "$WORK/receivers.log" || { cat "$WORK/receivers.log"; fail "the healthy receiver gets its callback within 5 s"; }
grep -q '^trickle delivery' "$WORK/receivers.log" || fail "the trickling receiver was called first"
callback_state "$trickle_job" | grep -q '"attempts": *0' || fail "the trickling attempt is still in flight: $(callback_state "$trickle_job")"
pass "healthy receiver called ${took} ms after its job ended while the trickling one stalls"

for _ in $(seq 1 100); do
  rss=$(rss_kb); [ "$rss" -gt "$max_rss" ] && max_rss=$rss
  callback_state "$huge_job" | grep -q '"status": *"delivered"' && break
  sleep 0.05
done
callback_state "$huge_job" | grep -q '"status": *"delivered"' || fail "a 200 with a huge body is delivered: $(callback_state "$huge_job")"
curl -fsS "$URL/v1/jobs/$huge_job/events?type=job.callback_delivered" | grep -q '"reply_truncated": *true' \
  || fail "the delivered event says the reply was cut"
for _ in $(seq 1 20); do rss=$(rss_kb); [ "$rss" -gt "$max_rss" ] && max_rss=$rss; sleep 0.05; done
grown=$(( (max_rss - base_rss) / 1024 ))
[ "$grown" -lt 50 ] || fail "the server's VmRSS grew by ${grown} MB reading a huge reply (at most 50)"
pass "huge reply: delivered by its status, VmRSS grew ${grown} MB"

# The trickling attempt ends at its 15 s wall deadline, counted and retried.
for _ in $(seq 1 400); do
  callback_state "$trickle_job" | grep -q '"attempts": *1' && break
  sleep 0.05
done
state=$(callback_state "$trickle_job")
echo "$state" | grep -q '"attempts": *1' || fail "the trickling attempt ends within 20 s: $state"
echo "$state" | grep -q '"status": *"pending"' || fail "and is retried: $state"
echo "$state" | grep -q '"last_error": *"timed out' || fail "as timed out: $state"
took=$(( $(date +%s%3N) - trickle_at ))
[ "$took" -ge 14000 ] || fail "the trickling attempt lasted its 15 s (ended ${took} ms after its job)"
pass "trickling attempt timed out ${took} ms after its job ended and is retried"
