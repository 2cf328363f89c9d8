#!/usr/bin/env bash
# The local container node across kill -9 (docs/rocm.md §4): a running job's
# container is reattached by the restarted server and completes with all its
# output; a job whose container vanished meanwhile fails NODE_LOST; no
# container is left for a terminal job. Also the banner and doctor.
source "$(dirname "$0")/../support/e2e_lib.sh"
bash "$ROOT/tests/support/fake-rocm-image.sh" podman || exit $?
data="$WORK/data"
sandbox=(--engine podman --engine-arg=--runtime --engine-arg=runc --engine-arg=--ulimit
         --engine-arg=nofile=1024:1024 --engine-arg=--ulimit --engine-arg=nproc=1024:1024)
local_on=(--data-dir "$data" --fleet none --local on --local-gpu-optional "${sandbox[@]}")
job() {  # job SCRIPT : submits a ROCm job on the local image, prints its id
  curl -fsS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d "{\"workload_type\":\"inference\",
    \"image\":\"localhost/jgrid-busybox-rocm:latest\",\"gpu_vendor\":\"amd\",\"runtime\":\"rocm\",
    \"command\":[\"sh\",\"-c\",\"$1\"]}" | json_field job_id
}
status_of() {  # the job's status (other objects have a "status" too, with other words)
  curl -fsS "$URL/v1/jobs/$1" | grep -o '"status":"\(pending\|queued\|assigned\|starting\|running\|completed\|failed\|rejected\|cancelled\)"' |
    head -n1 | cut -d'"' -f4
}
wait_status() {  # wait_status ID STATUS
  for _ in $(seq 1 300); do [ "$(status_of "$1")" = "$2" ] && return 0; sleep 0.1; done
  fail "job $1 is $(status_of "$1"), not $2"
}

"$BIN" doctor --local-gpu-optional "${sandbox[@]}" >"$WORK/doctor.out" || { cat "$WORK/doctor.out"; fail "doctor failed"; }
grep -q "^ok    engine.run" "$WORK/doctor.out" || fail "doctor did not run a container"
if "$BIN" doctor --sysfs-root "$ROOT/tests/fixtures/sysfs/none/sys" --dev-root "$ROOT/tests/fixtures/sysfs/none/dev" \
    "${sandbox[@]}" --json >"$WORK/doctor.json"; then fail "doctor passed without a GPU"; fi
grep -q '"status": "fail"' "$WORK/doctor.json" || fail "doctor --json shows no failed check"
pass "doctor: passes with --local-gpu-optional, fails (exit 1, --json) without a GPU"

start_server first "${local_on[@]}"
grep -q "local node  no AMD GPU: containers get no devices" "$WORK/first.out" || fail "banner: $(cat "$WORK/first.out")"
curl -fsS "$URL/v1/nodes" | grep -q '"source":"local"' || fail "no local node in /v1/nodes"
survivor=$(job 'for i in 1 2 3 4 5 6; do echo line $i; sleep 1; done; echo ok > /workspace/artifacts/out.txt')
vanished=$(job 'sleep 30')
wait_status "$survivor" running
wait_status "$vanished" running
sleep 2
kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
podman rm -f "jgrid-$vanished" >/dev/null
pass "killed mid-run; removed the container of $vanished"

start_server second "${local_on[@]}"
wait_status "$survivor" completed
lines=$(curl -fsS "$URL/v1/jobs/$survivor/logs?limit=100" | grep -o '"message":"line [0-9]"' | tr '\n' ' ')
[ "$lines" = '"message":"line 1" "message":"line 2" "message":"line 3" "message":"line 4" "message":"line 5" "message":"line 6" ' ] \
  || fail "logs after reattach: $lines"
curl -fsS "$URL/v1/jobs/$survivor/artifacts" | grep -q '"filename":"out.txt"' || fail "artifact out.txt missing"
pass "reattached job completed with each line once and its artifact"
wait_status "$vanished" failed
curl -fsS "$URL/v1/jobs/$vanished" | grep -q '"NODE_LOST"' || fail "vanished job not NODE_LOST"
pass "job whose container vanished failed NODE_LOST"
for id in "$survivor" "$vanished"; do  # removed once the job's end is recorded: give it a minute
  for _ in $(seq 1 300); do podman container exists "jgrid-$id" || break; sleep 0.2; done
  ! podman container exists "jgrid-$id" || fail "container of terminal job $id left behind"
done
pass "no container left for terminal jobs"
