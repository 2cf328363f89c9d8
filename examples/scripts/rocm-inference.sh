#!/usr/bin/env bash
# Submits the ROCm inference example, follows its live logs until the job
# ends, then downloads result.json. Needs only curl and a running server:
#   jgrid-local serve --ephemeral &   then   examples/scripts/rocm-inference.sh
# Set JUNGLE_GRID_API (default http://127.0.0.1:8420) to point elsewhere.
set -euo pipefail
api="${JUNGLE_GRID_API:-http://127.0.0.1:8420}"
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-result.json}"

field() {  # field NAME: the first "NAME": "value" of the JSON on stdin
  grep -o "\"$1\": *\"[^\"]*\"" | head -n1 | sed 's/.*: *"\(.*\)"/\1/'
}

job=$(curl -fsS -X POST "$api/v1/jobs" -H 'Content-Type: application/json' \
  --data-binary @"$here/../jobs/rocm-inference.json")
job_id=$(printf '%s' "$job" | field job_id)
echo "submitted $job_id"

# Live logs as Server-Sent Events: replays what is stored, follows, and the
# server closes the stream after the `terminal` event.
terminal=""
while IFS= read -r line; do
  case "$line" in
    event:*) event="${line#event: }" ;;
    data:*) echo "[$event] ${line#data: }"; [ "$event" = terminal ] && terminal="${line#data: }" ;;
  esac
done < <(curl -fsS -N -H 'Accept: text/event-stream' "$api/v1/jobs/$job_id/logs/live")

status=$(printf '%s' "$terminal" | field status)
echo "job $job_id is $status"
[ "$status" = completed ] || exit 1

artifact_id=$(curl -fsS "$api/v1/jobs/$job_id/artifacts" | field artifact_id)
url=$(curl -fsS -X POST "$api/v1/jobs/$job_id/artifacts/$artifact_id/download" | field url)
curl -fsS -o "$out" "$url"   # a signed URL: no bearer needed
echo "downloaded $out: $(cat "$out")"
