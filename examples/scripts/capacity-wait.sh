#!/usr/bin/env bash
# Waiting for capacity: fills every MI300X GPU of the fleet with long jobs,
# submits one more that waits in `queued` with delay_reason
# CAPACITY_UNAVAILABLE, then cancels a blocker and watches the waiting job
# start. Needs curl, jq and a server on the built-in fleet:
#   jgrid-local serve --ephemeral &   then   examples/scripts/capacity-wait.sh
set -euo pipefail
api="${JUNGLE_GRID_API:-http://127.0.0.1:8420}"

submit() {  # submit NAME DURATION_S: prints the job id
  curl -fsS -X POST "$api/v1/jobs" -H 'Content-Type: application/json' -d "{
    \"name\": \"$1\", \"workload_type\": \"training\", \"image\": \"ghcr.io/acme/pytorch-rocm:latest\",
    \"gpu_vendor\": \"amd\", \"runtime\": \"rocm\", \"gpu_type\": \"MI300X\", \"gpu_count\": 8,
    \"command\": [\"python\", \"train.py\"], \"sim\": {\"duration_s\": $2}}" | jq -r .job_id
}
wait_status() {  # wait_status JOB STATUS_REGEX
  for _ in $(seq 1 600); do
    [[ "$(curl -fsS "$api/v1/jobs/$1" | jq -r .status)" =~ ^($2)$ ]] && return 0
    sleep 0.1
  done
  echo "job $1 never reached $2" >&2
  return 1
}

nodes=$(curl -fsS "$api/v1/nodes" | jq '[.nodes[] | select(.gpu_model == "MI300X")] | length')
echo "the fleet has $nodes MI300X nodes of 8 GPUs"
blockers=()
for i in $(seq 1 "$nodes"); do
  job=$(submit "blocker-$i" 3600)
  wait_status "$job" running
  blockers+=("$job")
done
echo "every MI300X GPU is busy: ${blockers[*]}"

waiting=$(submit waiting 5)
for _ in $(seq 1 600); do  # until the scheduler has tried to place it
  job=$(curl -fsS "$api/v1/jobs/$waiting")
  printf '%s' "$job" | grep -q 'CAPACITY_UNAVAILABLE' && break
  sleep 0.1
done
echo "job $waiting is $(printf '%s' "$job" | jq -r .status): $(printf '%s' "$job" | jq -c .delay_reason)"
printf '%s' "$job" | grep -q 'CAPACITY_UNAVAILABLE'

curl -fsS -X POST "$api/v1/jobs/${blockers[0]}/cancel" -H 'Content-Type: application/json' -d '{"reason": "make room"}' >/dev/null
echo "cancelled ${blockers[0]}"
wait_status "$waiting" 'running|completed'
echo "job $waiting got the freed GPUs and is running"
for job in "${blockers[@]:1}"; do curl -fsS -X POST "$api/v1/jobs/$job/cancel" >/dev/null; done
wait_status "$waiting" completed
echo "job $waiting completed"
