#!/usr/bin/env bash
# Submits a long job, waits until it runs, cancels it with a reason and
# shows the cancellation events. Needs curl, jq and a server:
#   jgrid-local serve --ephemeral &   then   examples/scripts/cancel.sh
set -euo pipefail
api="${JUNGLE_GRID_API:-http://127.0.0.1:8420}"


job=$(curl -fsS -X POST "$api/v1/jobs" -H 'Content-Type: application/json' -d '{
  "name": "long-training", "workload_type": "training", "image": "ghcr.io/acme/pytorch-rocm:latest",
  "gpu_vendor": "amd", "runtime": "rocm", "command": ["python", "train.py"],
  "sim": {"duration_s": 3600}}' | jq -r .job_id)
echo "submitted $job"

for _ in $(seq 1 600); do
  [ "$(curl -fsS "$api/v1/jobs/$job" | jq -r .status)" = running ] && break
  sleep 0.1
done
echo "job $job is running"

curl -fsS -X POST "$api/v1/jobs/$job/cancel" -H 'Content-Type: application/json' -d '{"reason": "wrong dataset"}' >/dev/null
status=$(curl -fsS "$api/v1/jobs/$job" | jq -r .status)
echo "job $job is $status"
curl -fsS "$api/v1/jobs/$job/events?type=job.cancelled" | jq -r '.items[0].message'
# A second cancel is refused: the job is terminal.
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$api/v1/jobs/$job/cancel")
echo "cancelling again: HTTP $code"
[ "$status" = cancelled ] && [ "$code" = 409 ]
