#!/usr/bin/env bash
# Runs every example script and client of examples/ against a fresh server
# and checks what each one says it shows, so no example rots. A script added
# to examples/scripts, examples/clients or examples/ci without a check here
# fails this test.
source "$(dirname "$0")/../support/e2e_lib.sh"
# Most example scripts read the API's answers with jq.
require_tool jq "apt-get install jq; ./dev installs it"

start_server examples --ephemeral --time-scale 30
export JUNGLE_GRID_API="$URL"
ex="$ROOT/examples"

# run NAME COMMAND… : runs an example in $WORK/NAME, output in $WORK/NAME.log.
run() {
  local name="$1"; shift
  mkdir -p "$WORK/$name"
  (cd "$WORK/$name" && timeout 180 "$@") >"$WORK/$name.log" 2>&1 || { cat "$WORK/$name.log"; fail "example $name exits 0"; }
}
expect() {  # expect NAME PATTERN
  grep -q -- "$2" "$WORK/$1.log" || { cat "$WORK/$1.log"; fail "example $1 prints '$2'"; }
}

checked=()
# needs TOOL HOW_TO_INSTALL : true when TOOL is installed; otherwise records
# the example as not run, so the test ends skipped (or failed under CI=true)
# after running all the others, instead of passing without it.
not_run=()
needs() {
  command -v "$1" >/dev/null 2>&1 && return 0
  not_run+=("$current needs $1 ($2)")
  return 1
}
check_rocm_inference() {
  run rocm-inference "$ex/scripts/rocm-inference.sh"
  expect rocm-inference '\[terminal\]'
  expect rocm-inference 'is completed'
  [ -s "$WORK/rocm-inference/result.json" ] || fail "rocm-inference downloads result.json"
}
check_screening_fixes() {
  run screening-fixes "$ex/scripts/screening-fixes.sh"
  local blocks rejected fixed
  blocks=$(ls "$ex"/jobs/block--*.json | wc -l)
  rejected=$(grep -c 'submit: HTTP 422 SCREENING_REJECTED' "$WORK/screening-fixes.log" || true)
  fixed=$(grep -c 'dry run HTTP 200, can_submit true, blocked: none' "$WORK/screening-fixes.log" || true)
  [ "$blocks" -gt 0 ] && [ "$rejected" = "$blocks" ] && [ "$fixed" = "$blocks" ] \
    || { cat "$WORK/screening-fixes.log"; fail "screening-fixes: $blocks blocks, $rejected rejected, $fixed fixed"; }
  expect screening-fixes 'fix: use rocm-smi or amd-smi'
}
check_inputs_flow() {
  run inputs-flow "$ex/scripts/inputs-flow.sh"
  expect inputs-flow 'uploaded input inp_.* and script inp_'
  expect inputs-flow 'is completed'
  [ -s "$WORK/inputs-flow/summary.txt" ] || fail "inputs-flow downloads summary.txt"
}
check_cancel() {
  run cancel "$ex/scripts/cancel.sh"
  expect cancel 'is cancelled'
  expect cancel 'HTTP 409'
}
check_capacity_wait() {
  run capacity-wait "$ex/scripts/capacity-wait.sh"
  expect capacity-wait 'CAPACITY_UNAVAILABLE'
  expect capacity-wait 'is running'
  expect capacity-wait 'completed'
}
check_callbacks() {
  needs python3 "apt-get install python3" || return 0
  run callbacks "$ex/scripts/callbacks.sh"
  expect callbacks 'signature verified .* answer 500'
  expect callbacks 'signature verified .*"ticket": "DEMO-1".* answer 200'
  expect callbacks '"attempts":2,"status":"delivered"'
  expect callbacks 'Callback delivered to'
}
check_run_tests() {
  # Starts its own server; the test command checks it was handed the URL.
  run run-tests env JGRID_LOCAL="$BIN" TIME_SCALE=30 "$ex/ci/run-tests.sh"
  expect run-tests 'completed (exit 0)'
  run run-tests-command env JGRID_LOCAL="$BIN" "$ex/ci/run-tests.sh" sh -c 'curl -fsS "$JUNGLE_GRID_API/readyz"'
  expect run-tests-command '"ok":true'
}
check_python_client() {
  needs python3 "apt-get install python3" || return 0
  run python-client python3 "$ex/clients/python_client.py"
  expect python-client 'completed (exit 0)'
  expect python-client 'downloaded result.json'
  expect python-client 'errors carry a code: NOT_FOUND'
}
check_node_client() {
  needs node "apt-get install nodejs; ./dev installs it" || return 0
  run node-client node "$ex/clients/node_client.mjs"
  expect node-client 'status running'
  expect node-client 'completed (exit 0)'
  expect node-client 'errors carry a code: NOT_FOUND'
}

declare -A checks=(
  [scripts/rocm-inference.sh]=check_rocm_inference
  [scripts/screening-fixes.sh]=check_screening_fixes
  [scripts/inputs-flow.sh]=check_inputs_flow
  [scripts/cancel.sh]=check_cancel
  [scripts/capacity-wait.sh]=check_capacity_wait
  [scripts/callbacks.sh]=check_callbacks
  [ci/run-tests.sh]=check_run_tests
  [clients/python_client.py]=check_python_client
  [clients/node_client.mjs]=check_node_client
)
for file in "$ex"/scripts/* "$ex"/clients/* "$ex"/ci/*.sh; do
  name="${file#"$ex"/}"
  [ -n "${checks[$name]:-}" ] || fail "example $name has no check in tests/e2e/examples.sh"
done
for name in "${!checks[@]}"; do
  current="$name" before=${#not_run[@]}
  "${checks[$name]}"
  if [ "${#not_run[@]}" = "$before" ]; then pass "example $name"; else echo "not run: example $name"; fi
done
[ ${#not_run[@]} = 0 ] || skip_or_fail "$(printf '%s; ' "${not_run[@]}")the other examples passed"
