#!/usr/bin/env bash
# Output of real containers. Hostile output: 1 GB written without a newline
# must not grow the server's memory (lines are cut at 64 KiB into marked
# pieces, and a job keeps at most --max-log-bytes of output). Also: an image
# reference that starts with '-' is refused at submit; a failing container
# is diagnosed from its stderr.
source "$(dirname "$0")/../support/e2e_lib.sh"
bash "$ROOT/tests/support/fake-rocm-image.sh" podman || exit $?
sandbox=(--engine podman --engine-arg=--runtime --engine-arg=runc --engine-arg=--ulimit
         --engine-arg=nofile=1024:1024 --engine-arg=--ulimit --engine-arg=nproc=1024:1024)
start_server bound --data-dir "$WORK/data" --fleet none --local on --local-gpu-optional "${sandbox[@]}"

code=$(curl -sS -o "$WORK/dash.json" -w '%{http_code}' -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' \
  -d '{"workload_type":"inference","image":"--privileged","gpu_vendor":"amd","runtime":"rocm","command":["true"]}')
[ "$code" = 422 ] || [ "$code" = 400 ] || fail "image '--privileged' answered $code: $(cat "$WORK/dash.json")"
grep -q '"field":"image"' "$WORK/dash.json" || fail "refusal does not name the image field: $(cat "$WORK/dash.json")"
pass "an image reference starting with '-' is refused at submit ($code)"

hwm_kb() { sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$SERVER_PID/status"; }
before=$(hwm_kb)
id=$(curl -fsS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d '{"workload_type":"inference",
  "image":"localhost/jgrid-busybox-rocm:latest","gpu_vendor":"amd","runtime":"rocm",
  "command":["sh","-c","head -c 1073741824 /dev/zero | tr \"\\\\000\" a; echo; echo after"]}' | json_field job_id)
[ -n "$id" ] || fail "no job id"
t0=$(date +%s)
for _ in $(seq 1 1800); do
  status=$(curl -fsS "$URL/v1/jobs/$id" | grep -o '"status":"[a-z]*"' | head -n1 | cut -d'"' -f4)
  case "$status" in completed|failed|cancelled|rejected) break ;; esac
  sleep 0.2
done
[ "$status" = completed ] || fail "1 GB job ended $status: $(curl -fsS "$URL/v1/jobs/$id")"
after=$(hwm_kb)
echo "server peak RSS: ${before} kB before, ${after} kB after 1 GB without a newline ($(( $(date +%s) - t0 )) s)"
[ $(( after - before )) -lt $(( 100 * 1024 )) ] || fail "server peak RSS grew by $(( (after - before) / 1024 )) MB"
pass "1 GB without a newline: the server's peak RSS grew by $(( (after - before) / 1024 )) MB (< 100 MB)"

curl -fsS "$URL/v1/jobs/$id/logs?limit=2" >"$WORK/logs.json"
first=$(jq -r '.items[0].message' "$WORK/logs.json" 2>/dev/null || jq -r '.logs[0].message' "$WORK/logs.json")
[ "${#first}" -eq $(( 65536 + 17 )) ] || fail "first piece is ${#first} bytes, not 64 KiB + marker"
case "$first" in *" [line continues]") ;; *) fail "first piece lacks the marker: ${first: -40}" ;; esac
curl -fsS "$URL/v1/jobs/$id/runtime" >"$WORK/runtime.json"
[ "$(jq -r .runtime_availability.stdout_tail.state "$WORK/runtime.json")" = truncated ] ||
  fail "the job keeps more than --max-log-bytes without saying so: $(cat "$WORK/runtime.json")"
cursor=$(curl -fsS "$URL/v1/jobs/$id/logs?limit=1000" | jq -r .next_cursor)  # pages hold 1000 lines at most
curl -fsS "$URL/v1/jobs/$id/logs?limit=1000&cursor=$cursor" | jq -r '.items[].message' >"$WORK/messages"
grep -q '^log limit of 67108864 bytes reached' "$WORK/messages" ||
  fail "no platform line about the log limit"
pass "pieces of 64 KiB end with ' [line continues]'; the job's log is truncated at --max-log-bytes, and says so"

# A real container that fails the way a ROCm image without its user space fails is diagnosed from its stderr.
id=$(curl -fsS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d '{"workload_type":"inference",
  "image":"localhost/jgrid-busybox-rocm:latest","gpu_vendor":"amd","runtime":"rocm","command":["sh","-c",
  "echo starting; echo \"ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory\" >&2; exit 1"]}' |
  json_field job_id)
for _ in $(seq 1 300); do
  status=$(curl -fsS "$URL/v1/jobs/$id" | jq -r .status)
  case "$status" in completed|failed|cancelled|rejected) break ;; esac
  sleep 0.1
done
curl -fsS "$URL/v1/jobs/$id" >"$WORK/failed.json"
[ "$(jq -r .diagnosis.code "$WORK/failed.json")" = ROCM_USERSPACE_MISSING ] &&
  [ "$(jq -r .diagnosis.evidence.stream "$WORK/failed.json")" = stderr ] ||
  fail "container failure not diagnosed: $(jq -c '{status, diagnosis}' "$WORK/failed.json")"
pass "a real container's missing libamdhip64 is diagnosed ROCM_USERSPACE_MISSING from its stderr line"
