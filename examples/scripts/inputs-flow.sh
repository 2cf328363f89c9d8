#!/usr/bin/env bash
# Uploads an input file and a script with the three-step job-inputs flow
# (create -> PUT the bytes to the signed URL -> complete), runs a job that
# mounts them, and downloads its artifact. Needs curl, jq and a server:
#   jgrid-local serve --ephemeral &   then   examples/scripts/inputs-flow.sh
# On the simulated fleet a fake node writes the expected artifact; with a
# container executor the script runs for real.
set -euo pipefail
api="${JUNGLE_GRID_API:-http://127.0.0.1:8420}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="${1:-summary.txt}"


# upload FILE KIND CONTENT_TYPE: prints the ready input id.
upload() {
  local file="$1" kind="$2" type="$3" ticket upload_url complete_url token size
  ticket=$(curl -fsS -X POST "$api/v1/job-inputs" -H 'Content-Type: application/json' \
    -d "{\"filename\": \"$(basename "$file")\", \"content_type\": \"$type\", \"kind\": \"$kind\"}")
  upload_url=$(printf '%s' "$ticket" | jq -r .upload.upload_url)
  complete_url=$(printf '%s' "$ticket" | jq -r .upload.complete_url)
  token=$(printf '%s' "$ticket" | jq -r .upload.token)
  curl -fsS -X PUT -H "Content-Type: $type" --data-binary @"$file" "$upload_url" >/dev/null
  size=$(wc -c <"$file" | tr -d ' ')
  curl -fsS -X POST "$complete_url" -H 'Content-Type: application/json' -d "{\"token\": \"$token\", \"size_bytes\": $size}" | jq -r .input_id
}

printf 'a red fox\na blue bird\n' >"$work/prompts.txt"
printf '#!/bin/sh\nwc -l /workspace/inputs/prompts.txt > /workspace/artifacts/summary.txt\n' >"$work/run.sh"
input=$(upload "$work/prompts.txt" input text/plain)
script=$(upload "$work/run.sh" script text/x-shellscript)
echo "uploaded input $input and script $script"

job=$(curl -fsS -X POST "$api/v1/jobs" -H 'Content-Type: application/json' -d @- <<JSON | jq -r .job_id
{"name": "inputs-flow", "workload_type": "batch", "image": "ghcr.io/acme/pytorch-rocm:latest",
 "gpu_vendor": "amd", "runtime": "rocm", "command": ["sh", "/workspace/scripts/run.sh"],
 "input_files": ["$input"], "script_files": ["$script"],
 "expected_artifacts": ["/workspace/artifacts/summary.txt"]}
JSON
)
echo "submitted $job"

status=""
for _ in $(seq 1 600); do
  status=$(curl -fsS "$api/v1/jobs/$job" | jq -r .status)
  case "$status" in completed|failed|rejected|cancelled) break ;; esac
  sleep 0.2
done
echo "job $job is $status"
[ "$status" = completed ] || exit 1

artifact=$(curl -fsS "$api/v1/jobs/$job/artifacts" | jq -r ".artifacts[0].artifact_id")
url=$(curl -fsS -X POST "$api/v1/jobs/$job/artifacts/$artifact/download" | jq -r .url)
curl -fsS -o "$out" "$url"
echo "downloaded $out ($(wc -c <"$out" | tr -d ' ') bytes)"
