#!/usr/bin/env bash
# kill -9 during 200 submissions from 8 concurrent clients, restart on the
# same data dir: every job that got a 202 is there and none stays stuck.
source "$(dirname "$0")/../support/e2e_lib.sh"
data="$WORK/data"
body='{"workload_type":"inference","image":"ghcr.io/acme/pytorch-rocm:latest","gpu_vendor":"amd","runtime":"rocm","sim":{"duration_s":2}}'

start_server first --data-dir "$data" --time-scale 10
client() {
  for i in $(seq 1 25); do
    code=$(curl -s -m 10 -o "$WORK/resp.$1.$i" -w '%{http_code}' -X POST "$URL/v1/jobs" \
      -H 'Content-Type: application/json' -d "$body") || true
    [ "$code" = 202 ] && json_field job_id <"$WORK/resp.$1.$i" >>"$WORK/accepted.$1"
  done
}
for c in $(seq 1 8); do client "$c" & done
# Kill once the first submissions are in (a loaded machine may take a while
# to answer the first one), while the rest are still arriving.
for _ in $(seq 1 400); do
  [ -n "$(cat "$WORK"/accepted.* 2>/dev/null)" ] && break
  sleep 0.05
done
sleep 0.$((RANDOM % 3 + 1))
kill -9 "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
wait
cat "$WORK"/accepted.* 2>/dev/null | sort -u >"$WORK/accepted"
accepted=$(wc -l <"$WORK/accepted")
[ "$accepted" -gt 0 ] || fail "no submission was accepted before the kill"
echo "accepted before kill -9: $accepted"

start_server second --data-dir "$data" --time-scale 10
while read -r id; do
  curl -fsS "$URL/v1/jobs/$id" >/dev/null || fail "accepted job $id lost after restart"
done <"$WORK/accepted"
pass "all $accepted accepted jobs present after restart"

for _ in $(seq 1 120); do
  live=$(curl -fsS "$URL/v1/jobs?status=pending,queued,assigned,starting,running&limit=1" | grep -c '"job_id"' || true)
  [ "$live" = 0 ] && break
  sleep 1
done
[ "$live" = 0 ] || fail "jobs still non-terminal 120 s after restart"
pass "no job stuck non-terminal after restart"
