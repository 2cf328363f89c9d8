#!/usr/bin/env bash
# The CI pattern: start a throwaway grid, wait until it is ready, run the
# tests against it, stop it. Runnable as is:
#   examples/ci/run-tests.sh [TEST COMMAND…]
# Without a command it runs the ROCm example as "the tests". The binary is
# $JGRID_LOCAL, else jgrid-local on PATH, else build/jgrid-local.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${JGRID_LOCAL:-$(command -v jgrid-local || echo "$here/../../build/jgrid-local")}"
log="$(mktemp)"

# 1. start: a free port, a temporary data dir removed at exit
"$bin" serve --port 0 --ephemeral --time-scale "${TIME_SCALE:-10}" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
  url=$(sed -n 's/^jgrid-local ready url=//p' "$log")
  [ -n "$url" ] && break
  sleep 0.1
done
export JUNGLE_GRID_API="$url"

# 2. wait until /readyz answers (exit 1 after the timeout)
"$bin" wait --timeout 30

# 3. run the tests with JUNGLE_GRID_API pointing at the grid
if [ $# -gt 0 ]; then
  "$@"
else
  "$bin" submit "$here/../jobs/rocm-inference.json" --wait
fi
# 4. stop: the EXIT trap sends SIGTERM; the server drains and exits 0
