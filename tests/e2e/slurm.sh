#!/usr/bin/env bash
# The Slurm executor against a real cluster (tests/support/slurm-cluster.sh:
# slurmctld, two slurmd with fake AMD GPUs as GRES, munge), through the HTTP
# API of the built binary: jobs run as Slurm batch jobs that start the test
# image with podman. Covers the example with live logs and its artifact,
# screening and capacity refusals at submit, exit codes, the time limit,
# other users' GPUs, drain, cancel, kill -9 and restart, and a job Slurm
# keeps pending with its reason.
source "$(dirname "$0")/../support/e2e_lib.sh"
require_tool jq "apt-get install jq"
bash "$ROOT/tests/support/fake-rocm-image.sh" podman || exit $?
cluster="$WORK/cluster"
export JGRID_SLURM_PORT=$((17800 + ($$ % 60) * 3))
eval "$(bash "$ROOT/tests/support/slurm-cluster.sh" start "$cluster")" || exit $?
# Containers of this test's jobs left running (a failure, or the job Slurm
# forgot below) are removed too; one name per call: podman 4.3 `rm -f` stops
# at the first name it does not know.
trap 'bash "$ROOT/tests/support/slurm-cluster.sh" stop "$cluster"
      [ -f "$WORK/ids" ] && sed "s/^/jgrid-/" "$WORK/ids" | xargs -n1 podman rm -f -t 0 >/dev/null 2>&1
      cleanup' EXIT
data="$WORK/data"
image=localhost/jgrid-busybox-rocm:latest

fleet() {  # fleet FILE REFRESH_SECONDS : a fleet file with only a slurm section
  cat >"$1" <<YAML
slurm:
  partitions: [gpu]
  gpu_optional: true
  poll_seconds: 0.2
  stop_grace_seconds: 2
  node_refresh_seconds: $2
  engine: podman
  engine_args: [--runtime, runc, --ulimit, "nofile=1024:1024", --ulimit, "nproc=1024:1024"]
YAML
}
fleet "$WORK/fleet.yaml" 0.5
fleet "$WORK/fleet-still.yaml" 600

submit() {  # submit SCRIPT [GPUS [GPU_TYPE [TIMEOUT]]] : prints the HTTP body
  jq -n --arg image "$image" --arg script "$1" --argjson gpus "${2:-1}" --arg type "${3:-}" --argjson timeout "${4:-0}" \
    '{workload_type: "inference", image: $image, gpu_vendor: "amd", runtime: "rocm", gpu_count: $gpus,
      command: ["sh", "-c", $script]} + (if $type == "" then {} else {constraints: {gpu_type: $type}} end)
      + (if $timeout > 0 then {timeout_seconds: $timeout} else {} end)' |
    curl -sS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d @-
}
job() { submit "$@" | jq -r .job_id | tee -a "$WORK/ids"; }
get() { curl -fsS "$URL/v1/jobs/$1"; }
status_of() { get "$1" | jq -r .status; }
wait_status() {  # wait_status ID STATUS [SECONDS]
  for _ in $(seq 1 $((${3:-60} * 10))); do [ "$(status_of "$1")" = "$2" ] && return 0; sleep 0.1; done
  fail "job $1 is $(status_of "$1"), not $2: $(get "$1" | jq -c '{status, failure, delay_reason}')"
}
stdout_of() { curl -fsS "$URL/v1/jobs/$1/logs?limit=200" | jq -r '.items[] | select(.stream == "stdout") | .message' | tr '\n' ' '; }
slurm_active() { squeue -h -t pending,running,completing -n "jgrid-$1" -o %i; }
node_field() { curl -fsS "$URL/v1/nodes" | jq -r ".nodes[] | select(.name == \"$1\") | .$2"; }
wait_node() {  # wait_node NAME FIELD VALUE
  for _ in $(seq 1 100); do [ "$(node_field "$1" "$2")" = "$3" ] && return 0; sleep 0.1; done
  fail "node $1: $2 is $(node_field "$1" "$2"), not $3"
}

start_server first --data-dir "$data" --local off --fleet "$WORK/fleet.yaml"
grep -q "slurm       n1 (2× MI300X, online), n2 (1× Radeon PRO W7900, online) in gpu" "$WORK/first.out" ||
  fail "banner: $(cat "$WORK/first.out")"
[ "$(curl -fsS "$URL/v1/nodes" | jq -r '[.nodes[] | select(.source == "slurm") | .name] | join(",")')" = n1,n2 ] ||
  fail "nodes: $(curl -fsS "$URL/v1/nodes")"
pass "serve with a slurm section: n1 and n2 are nodes with source slurm"

# A time-limit overrun takes over a minute in Slurm (limits are whole
# minutes): it runs on n2 while the rest of the test uses n1. n2's GPU is
# an empty file, for which Slurm sets no SLURM_JOB_GPUS: the script asks
# scontrol for its index.
late=$(job 'echo started on gpu $JGRID_SLURM_GPUS; sleep 300' 1 "Radeon PRO W7900" 20)

body=$(submit 'echo never' 3)
[ "$(echo "$body" | jq -r .error.code)" = CAPACITY_UNAVAILABLE ] || fail "3 GPUs on a 2-GPU cluster: $body"
body=$(jq -n '{workload_type: "inference", image: "nvidia/cuda:12.4.1-runtime-ubuntu22.04", gpu_vendor: "amd", runtime: "rocm", command: ["nvidia-smi"]}' |
  curl -sS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d @-)
[ "$(echo "$body" | jq -r .error.code)" = SCREENING_REJECTED ] || fail "CUDA image: $body"
[ "$(squeue -h -o %i | wc -l)" = 1 ] || fail "something besides the time-limit job reached Slurm: $(squeue)"
pass "3-GPU job refused 503 CAPACITY_UNAVAILABLE, CUDA image blocked by screening; neither reached Slurm"

example=$(job 'for i in 1 2 3 4 5; do echo line $i; sleep 1; done; echo done > /workspace/artifacts/out.txt' 1 MI300X)
wait_status "$example" running 30
for _ in $(seq 1 50); do [[ "$(stdout_of "$example")" == *"line 2"* ]] && break; sleep 0.1; done
[ "$(status_of "$example")" = running ] && [[ "$(stdout_of "$example")" == *"line 2"* ]] ||
  fail "no live logs while running: $(stdout_of "$example")"
wait_status "$example" completed 30
[ "$(stdout_of "$example")" = "line 1 line 2 line 3 line 4 line 5 " ] || fail "logs: $(stdout_of "$example")"
[ "$(get "$example" | jq -r .exit_code)" = 0 ] || fail "exit code: $(get "$example" | jq .exit_code)"
curl -fsS "$URL/v1/jobs/$example/artifacts" | jq -e '.artifacts[] | select(.filename == "out.txt")' >/dev/null ||
  fail "artifact out.txt missing"
slurm_id=$(get "$example" | jq -r .scheduling.slurm_job_id)
[ -n "$slurm_id" ] && [ "$slurm_id" != null ] || fail "no slurm_job_id in the placement: $(get "$example" | jq -c .scheduling)"
curl -fsS "$URL/v1/jobs/$example/events" | jq -e --arg id "$slurm_id" '[.items[] | select(.data.slurm_job_id == $id)] | length >= 3' \
  >/dev/null || fail "events without the Slurm job id"
scontrol show job "$slurm_id" | grep -q "JobName=jgrid-$example" || fail "Slurm job $slurm_id is not named after the job"
pass "example ran as Slurm job $slurm_id with podman: live logs, artifact, exit 0, Slurm id in events and placement"

three=$(job 'echo about to fail on gpu $JGRID_SLURM_GPUS; exit 3' 1 MI300X)
wait_status "$three" failed 30
[ "$(get "$three" | jq -r '.failure.code + " " + (.exit_code | tostring)')" = "NONZERO_EXIT 3" ] ||
  fail "exit 3: $(get "$three" | jq -c '{failure, exit_code}')"
[[ "$(stdout_of "$three")" =~ ^"about to fail on gpu "[01]" "$ ]] || fail "GPU index on n1: $(stdout_of "$three")"
pass "exit 3 ends failed NONZERO_EXIT with exit code 3 (and the container was told its Slurm GPU)"

other=$(sbatch --parsable --output /dev/null -J other-user -n1 -w n1 --gres=gpu:mi300x:1 --wrap 'sleep 4')
wait_node n1 gpus_free 1
wait_node n1 gpus_free 2
pass "a GPU taken on n1 by a job outside the grid ($other) shows as not free, then free again"

scontrol update NodeName=n1 State=DRAIN Reason=maintenance
wait_node n1 status draining
drained=$(job 'echo after drain' 1 MI300X)
sleep 2
[ "$(status_of "$drained")" = queued ] && [ -z "$(slurm_active "$drained")" ] ||
  fail "job ran on a drained node: $(get "$drained" | jq -c '{status, assigned_node_id}')"
scontrol update NodeName=n1 State=RESUME
wait_status "$drained" completed 30
pass "n1 drained in Slurm shows draining and gets no work; resumed, the waiting job runs"

cancelled=$(job 'echo running; sleep 120' 1 MI300X)
wait_status "$cancelled" running 30
curl -fsS -X POST "$URL/v1/jobs/$cancelled/cancel" >/dev/null
[ "$(status_of "$cancelled")" = cancelled ] || fail "cancel: $(status_of "$cancelled")"
for _ in $(seq 1 150); do [ -z "$(slurm_active "$cancelled")" ] && ! podman container exists "jgrid-$cancelled" && break; sleep 0.1; done
[ -z "$(slurm_active "$cancelled")" ] || fail "Slurm job left after cancel: $(squeue)"
! podman container exists "jgrid-$cancelled" || fail "container left after cancel"
pass "cancel mid-run: scancel, no Slurm job and no container left"

survivor=$(job 'for i in 1 2 3 4 5 6; do echo line $i; sleep 1; done; echo ok > /workspace/artifacts/out.txt' 1 MI300X)
wait_status "$survivor" running 30
for _ in $(seq 1 50); do [[ "$(stdout_of "$survivor")" == *"line 2"* ]] && break; sleep 0.1; done
seen=$(stdout_of "$survivor")
kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
pass "killed jgrid-local mid-run after: $seen"

start_server second --data-dir "$data" --local off --fleet "$WORK/fleet-still.yaml"
wait_status "$survivor" completed 30
[ "$(stdout_of "$survivor")" = "line 1 line 2 line 3 line 4 line 5 line 6 " ] || fail "logs after restart: $(stdout_of "$survivor")"
curl -fsS "$URL/v1/jobs/$survivor/artifacts" | jq -e '.artifacts[] | select(.filename == "out.txt")' >/dev/null ||
  fail "artifact missing after restart"
pass "restarted: the Slurm job was followed again and completed with each log line once and its artifact"

# This server reads the nodes only at start, so the grid does not know of
# the GPU taken below: Slurm holds the job, and the job shows it.
holder=$(sbatch --parsable --output /dev/null -J other-user -n1 -w n1 --gres=gpu:mi300x:1 --wrap 'sleep 6')
for _ in $(seq 1 50); do [ "$(squeue -h -j "$holder" -o %T)" = RUNNING ] && break; sleep 0.1; done
both=$(job 'echo both GPUs' 2)
for _ in $(seq 1 50); do [ "$(get "$both" | jq -r '.delay_reason.message // ""')" != "" ] && break; sleep 0.1; done
waiting=$(get "$both" | jq -c '{status, delay_reason}')
[ "$(echo "$waiting" | jq -r '.status + " " + .delay_reason.code')" = "queued CAPACITY_UNAVAILABLE" ] &&
  [[ "$(echo "$waiting" | jq -r .delay_reason.message)" == *"pending: Resources"* ]] ||
  fail "2-GPU job while another holds one: $waiting"
kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
start_server third --data-dir "$data" --local off --fleet "$WORK/fleet-still.yaml"
wait_status "$both" completed 30
pass "2-GPU job waited ($waiting), survived a kill -9 while held by Slurm, and then ran"

other=$(job 'echo waiting; sleep 120' 1 MI300X)
wait_status "$other" running 30
scancel "$(get "$other" | jq -r .scheduling.slurm_job_id)"
wait_status "$other" failed 30
[ "$(get "$other" | jq -r .failure.code)" = CANCELLED_BY_SCHEDULER ] || fail "scancel by someone else: $(get "$other" | jq -c .failure)"
pass "a Slurm job cancelled outside the grid ends failed CANCELLED_BY_SCHEDULER"

if SLURM_CONF="$WORK/no-such/slurm.conf" "$BIN" serve --port 0 --slurm --local off --data-dir "$WORK/bad-conf" \
    >"$WORK/bad-conf.out" 2>&1; then
  fail "serve started with a SLURM_CONF that names no file"
fi
grep -q "SLURM_CONF is .*no-such/slurm.conf, which does not exist" "$WORK/bad-conf.out" || fail "bad SLURM_CONF: $(cat "$WORK/bad-conf.out")"
pass "a SLURM_CONF naming no file is refused at once, saying so"

# A data dir the compute nodes do not see: a tmpfs mounted only in the
# server's own mount namespace.
if unshare -m true 2>/dev/null; then
  mkdir -p "$WORK/private"
  if unshare -m --propagation private sh -c "mount -t tmpfs none '$WORK/private' &&
      exec '$BIN' serve --port 0 --slurm --slurm-gpu-optional --local off --data-dir '$WORK/private/data'" \
      >"$WORK/private.out" 2>&1; then
    fail "serve started with a data dir the nodes cannot see"
  fi
  grep -q "DATA_DIR_NOT_SHARED\|is not visible on Slurm node" "$WORK/private.out" || fail "refusal: $(cat "$WORK/private.out")"
  pass "a data dir the nodes do not see is refused at start: $(grep -o 'is not visible on Slurm node [a-z0-9]*' "$WORK/private.out")"
else
  skip_or_fail "unshare -m is not permitted here (needed to hide the data dir from the nodes)"
fi

wait_status "$late" failed 150
[ "$(get "$late" | jq -r .failure.code)" = TIMED_OUT ] || fail "time limit: $(get "$late" | jq -c .failure)"
[ -z "$(slurm_active "$late")" ] || fail "timed-out Slurm job still there"
[ "$(stdout_of "$late")" = "started on gpu 0 " ] || fail "GPU index on n2 (from scontrol): $(stdout_of "$late")"
pass "a --time overrun ends failed TIMED_OUT (its GPU index came from scontrol)"

vanished=$(job 'echo long; sleep 120' 1 MI300X)
wait_status "$vanished" running 30
kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
bash "$ROOT/tests/support/slurm-cluster.sh" forget-jobs "$cluster"
start_server fourth --data-dir "$data" --local off --fleet "$WORK/fleet.yaml"
wait_status "$vanished" failed 30
[ "$(get "$vanished" | jq -r .failure.code)" = NODE_LOST ] || fail "vanished Slurm job: $(get "$vanished" | jq -c .failure)"
pass "a Slurm job the controller forgot while jgrid-local was down ends failed NODE_LOST after the restart"
