#!/usr/bin/env bash
# Failure diagnosis through the built binary and real HTTP: each simulated
# failure (sim.failure, and the same as a fault rule of the chaos API) prints
# its real error lines, and the failed job carries {code, message, fix,
# evidence} in the job object, the job.failed event, the callback body, and
# `status` / `logs` print why and what to change.
source "$(dirname "$0")/../support/e2e_lib.sh"
python3 - "$WORK/callbacks" <<'PY' &
import http.server, sys, socketserver
out = open(sys.argv[1], "a")
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        out.write(self.rfile.read(int(self.headers["Content-Length"])).decode() + "\n"); out.flush()
        self.send_response(200); self.end_headers()
    def log_message(self, *a): pass
with socketserver.TCPServer(("127.0.0.1", 0), H) as s:
    open(sys.argv[1] + ".port", "w").write(str(s.server_address[1])); s.serve_forever()
PY
receiver=$!
trap 'kill $receiver 2>/dev/null; cleanup' EXIT
for _ in $(seq 1 50); do [ -s "$WORK/callbacks.port" ] && break; sleep 0.1; done
hook="http://127.0.0.1:$(cat "$WORK/callbacks.port")/hook"
start_server diag --data-dir "$WORK/data"

submit() {  # submit SIM_JSON : a ROCm job on an MI300X node with that sim object; prints its id
  curl -fsS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d "{\"workload_type\":\"inference\",
    \"image\":\"rocm/pytorch:latest\",\"gpu_vendor\":\"amd\",\"runtime\":\"rocm\",\"gpu_type\":\"MI300X\",
    \"command\":[\"python\",\"run.py\"],\"callback_url\":\"$hook\",\"sim\":$1}" | jq -r .job_id
}
wait_failed() {
  for _ in $(seq 1 200); do
    status=$(curl -fsS "$URL/v1/jobs/$1" | jq -r .status)
    [ "$status" = failed ] && return 0
    [ "$status" = completed ] && fail "job $1 completed"
    sleep 0.1
  done
  fail "job $1 is $status, not failed"
}
check() {  # check ID CODE : the job's diagnosis, its evidence line in the logs, the event
  local id="$1" code="$2" job
  job=$(curl -fsS "$URL/v1/jobs/$id")
  [ "$(echo "$job" | jq -r .diagnosis.code)" = "$code" ] || fail "$id: diagnosis $(echo "$job" | jq -c .diagnosis), not $code"
  [ -n "$(echo "$job" | jq -r '.diagnosis.fix // empty')" ] || fail "$id: no fix text"
  if [ "$code" != OOM_KILLED ]; then
    line=$(echo "$job" | jq -r .diagnosis.evidence.line)
    text=$(echo "$job" | jq -r .diagnosis.evidence.text)
    curl -fsS "$URL/v1/jobs/$id/logs?limit=1000" | jq -e --arg l "$line" --arg t "$text" \
      '.items[] | select(.entry_id == $l and .message == $t and .stream == "stderr")' >/dev/null ||
      fail "$id: evidence line $line ('$text') is not that stored stderr line"
  fi
  curl -fsS "$URL/v1/jobs/$id/events" | jq -e --arg c "$code" \
    '.items[] | select(.type == "job.failed" and .data.diagnosis.code == $c)' >/dev/null ||
    fail "$id: job.failed event lacks the diagnosis"
}

declare -A expected=([rocm_userspace_missing]=ROCM_USERSPACE_MISSING [no_gpu_visible]=NO_GPU_VISIBLE
  [gpu_isa_unsupported]=GPU_ISA_UNSUPPORTED [gpu_device_permission]=GPU_DEVICE_PERMISSION
  [hip_out_of_memory]=HIP_OUT_OF_MEMORY [cuda_on_amd]=CUDA_ON_AMD [oom_killed]=OOM_KILLED)
declare -A ids
for effect in "${!expected[@]}"; do ids[$effect]=$(submit "{\"duration_s\":2,\"failure\":\"$effect\"}"); done
for effect in "${!expected[@]}"; do wait_failed "${ids[$effect]}"; check "${ids[$effect]}" "${expected[$effect]}"; done
pass "sim.failure: all ${#expected[@]} failures diagnosed, with the evidence line as stored and in job.failed"

isa=$(curl -fsS "$URL/v1/jobs/${ids[gpu_isa_unsupported]}" | jq -r .diagnosis.fix)
case "$isa" in *gfx942*HSA_OVERRIDE_GFX_VERSION*) ;; *) fail "ISA fix does not name gfx942 and the override: $isa" ;; esac
oom=$(curl -fsS "$URL/v1/jobs/${ids[hip_out_of_memory]}" | jq -r .diagnosis.message)
case "$oom" in *MI300X*) ;; *) fail "OOM message does not name the GPU: $oom" ;; esac
pass "the fix names the node's arch; the memory message names its GPU"

timeout_id=$(curl -fsS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d '{"workload_type":"inference",
  "image":"rocm/pytorch:latest","gpu_vendor":"amd","runtime":"rocm","command":["x"],"timeout_seconds":1,"sim":{"duration_s":30}}' | jq -r .job_id)
wait_failed "$timeout_id"
[ "$(curl -fsS "$URL/v1/jobs/$timeout_id" | jq -r .diagnosis.code)" = TIMEOUT ] || fail "timeout not diagnosed"
plain=$(submit '{"duration_s":1,"exit_code":3,"stderr":["Traceback (most recent call last):"]}')
wait_failed "$plain"
[ "$(curl -fsS "$URL/v1/jobs/$plain" | jq -r '.diagnosis // "none"')" = none ] || fail "a plain exit 3 got a diagnosis"
pass "a timeout is TIMEOUT; a plain exit 3 has no diagnosis (the member is omitted)"

curl -fsS -X POST "$URL/v1/sim/faults" -H 'Content-Type: application/json' \
  -d '{"effect":"gpu_device_permission","count":1}' >/dev/null
chaos=$(submit '{"duration_s":2}')
wait_failed "$chaos"
check "$chaos" GPU_DEVICE_PERMISSION
pass "the chaos API's fault effect acts out the same failure"

"$BIN" status "${ids[cuda_on_amd]}" --url "$URL" >"$WORK/status.out"
grep -q '^why        CUDA_ON_AMD: ' "$WORK/status.out" && grep -q '^fix        use the ROCm build' "$WORK/status.out" ||
  fail "status: $(cat "$WORK/status.out")"
"$BIN" logs "${ids[cuda_on_amd]}" --url "$URL" >"$WORK/logs.out" 2>"$WORK/logs.err"
grep -q 'Found no NVIDIA driver' "$WORK/logs.out" && grep -q '^why        CUDA_ON_AMD: .*\[stderr line [0-9]*\]' "$WORK/logs.err" ||
  fail "logs: $(cat "$WORK/logs.out" "$WORK/logs.err")"
pass "status and logs print why and fix"

for _ in $(seq 1 100); do grep -q "\"${ids[no_gpu_visible]}\"" "$WORK/callbacks" 2>/dev/null && break; sleep 0.1; done
grep "\"job_id\":\"${ids[no_gpu_visible]}\"" "$WORK/callbacks" | head -n1 | jq -e '.diagnosis.code == "NO_GPU_VISIBLE" and
  .job.diagnosis.code == "NO_GPU_VISIBLE"' >/dev/null || fail "callback body lacks the diagnosis: $(head -c 400 "$WORK/callbacks")"
pass "the callback body carries the diagnosis (top level and in the job)"
