#!/usr/bin/env bash
# Every screening block and its fix: submits each examples/jobs/block--*.json,
# prints the 422 SCREENING_REJECTED the server answers (the blocked rule and
# its fix), applies that fix to the request and shows the fixed request
# passes screening (as a dry run: nothing is created). Needs curl, jq and a
# server:
#   jgrid-local serve --ephemeral &   then   examples/scripts/screening-fixes.sh
set -euo pipefail
api="${JUNGLE_GRID_API:-http://127.0.0.1:8420}"
jobs="$(cd "$(dirname "$0")/../jobs" && pwd)"

# The fix of each blocking rule, as a jq edit of the request.
declare -A fixes=(
  [intent.conflict]='.gpu_vendor = "amd"'
  [gpu.required]='.gpu_count = 1'
  [image.cuda_name]='.image = "rocm/pytorch:latest"'
  [command.nvidia_tool]='.command = ["rocm-smi"]'
  [command.cuda_wheels]='.command[2] |= sub("whl/cu121"; "whl/rocm6.1")'
  [env.nvidia]='.environment = {"ROCR_VISIBLE_DEVICES": "0"}'
  [path.nvidia_device]='.command = ["rocminfo"]'
  [labels.nvidia]='.labels = {"amd.com/gpu": "1"}'
  [framework.cuda_only]='.framework = "vllm-rocm"'
  [image.rocm_on_nvidia]='.gpu_vendor = "amd" | .runtime = "rocm"'
)

post() {  # post QUERY FILE: prints the body, then the HTTP status on its own line
  curl -sS -X POST "$api/v1/jobs$1" -H 'Content-Type: application/json' --data-binary @"$2" -w '\n%{http_code}\n'
}

failed=0
for file in "$jobs"/block--*.json; do
  rule=$(basename "$file" .json); rule=${rule#block--}; rule=${rule%%--*}
  reply=$(post "" "$file")
  code=$(tail -n1 <<<"$reply"); body=$(sed '$d' <<<"$reply")
  echo "== $rule"
  echo "  submit: HTTP $code $(jq -r '.error.code // .code' <<<"$body")"
  jq -r --arg rule "$rule" '(.error.details // .details).checks[] | select(.rule == $rule)
    | "  blocked \(.field): \(.message)\n  fix: \(.fix)"' <<<"$body"
  jq "${fixes[$rule]}" "$file" >fixed.json
  reply=$(post "?dry_run=1" fixed.json)
  code=$(tail -n1 <<<"$reply"); body=$(sed '$d' <<<"$reply")
  blocked=$(jq -r '.screening.blocked_checks | join(", ")' <<<"$body")
  echo "  fixed with ${fixes[$rule]}: dry run HTTP $code, can_submit $(jq -r .can_submit <<<"$body"), blocked: ${blocked:-none}"
  [ "$code" = 200 ] && [ -z "$blocked" ] || failed=1
done
rm -f fixed.json
exit "$failed"
