#!/usr/bin/env bash
# Starts the example callback receiver (examples/callbacks/receiver.py),
# submits a job whose callback points at it, and shows the signed POST that
# arrives when the job ends, then the job's callback state and events.
# Needs curl, jq, python3 and a server:
#   jgrid-local serve --ephemeral &   then   examples/scripts/callbacks.sh
set -euo pipefail
api="${JUNGLE_GRID_API:-http://127.0.0.1:8420}"
here="$(cd "$(dirname "$0")/.." && pwd)"
log="$(mktemp)"
python3 "$here/callbacks/receiver.py" --token example-token --fail-first 1 --count 1 >"$log" &
receiver=$!
trap 'kill $receiver 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
  url=$(sed -n 's/^receiver listening on //p' "$log")
  [ -n "$url" ] && break
  sleep 0.05
done
echo "receiver at $url"

job=$(curl -fsS -X POST "$api/v1/jobs" -H 'Content-Type: application/json' -d '{
  "name": "callback-demo", "workload_type": "inference", "image": "ghcr.io/acme/pytorch-rocm:latest",
  "gpu_vendor": "amd", "runtime": "rocm", "command": ["python", "infer.py"], "sim": {"duration_s": 5},
  "callback": {"url": "'"$url"'", "auth_token": "example-token", "metadata": {"ticket": "DEMO-1"}}}' | jq -r .job_id)
echo "submitted $job"

# The receiver answers 500 once, so the first attempt is retried after ~1 s.
for _ in $(seq 1 600); do
  [ "$(curl -fsS "$api/v1/jobs/$job" | jq -r '.callback.status')" = delivered ] && break
  sleep 0.1
done
cat "$log" | grep '^callback'
curl -fsS "$api/v1/jobs/$job" | jq -cS '{status, callback}'
curl -fsS "$api/v1/jobs/$job/events" | jq -r '.items[] | select(.source == "callback") | .message'
grep -q 'signature verified.*answer 200' "$log"
