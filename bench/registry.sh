#!/usr/bin/env bash
# Estimate latency with image metadata from a registry (warm cache) against
# no lookup at all, in the same run: a real registry on loopback
# (tests/support/registry.sh), one server with lookups on and its cache
# warmed, one with --registry-lookup off, the same image; then ROUNDS rounds
# of REQUESTS sequential estimates on one keep-alive connection each,
# alternating the two servers (A B A B …). Also prints the cold lookup (the
# first estimate that fetches manifest and config).
# Usage: bench/registry.sh BUILD_DIR [rounds, default 5] [requests, default 500]
set -euo pipefail
build="${1:?usage: bench/registry.sh BUILD_DIR [rounds] [requests]}"
rounds="${2:-5}"
requests="${3:-500}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/jgrid-registry-bench-XXXXXX)"
port=$((5700 + ($$ % 100) * 2))
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
      bash "$root/tests/support/registry.sh" stop "$work/registry" >/dev/null 2>&1; rm -rf "$work"' EXIT
bash "$root/tests/support/registry.sh" start "$work/registry" "$port" >/dev/null
image="127.0.0.1:$port/team/labelled:1.0"

serve() {  # serve NAME ARGS… : prints the URL
  "$build/jgrid-local" serve --port 0 --data-dir "$work/$1" "${@:2}" >"$work/$1.out" 2>"$work/$1.err" &
  pids+=($!)
  for _ in $(seq 1 400); do
    url=$(sed -n 's/^jgrid-local ready url=//p' "$work/$1.out" 2>/dev/null || true)
    [ -n "$url" ] && { echo "$url"; return; }
    sleep 0.025
  done
  cat "$work/$1.err" >&2
  exit 1
}
lookup=$(serve lookup --insecure-registry "127.0.0.1:$port")
offline=$(serve offline --registry-lookup off)

cold=$("$build/bench/estimate_latency" "$lookup" "$image" 1)
source=$(curl -s -X POST "$lookup/v1/jobs/estimate" -H 'content-type: application/json' \
  -d "{\"workload_type\":\"inference\",\"image\":\"$image\",\"gpu_count\":1}" | jq -r .classification.image_source)
[ "$source" = registry ] || { echo "the lookup server did not read the registry: $source" >&2; exit 1; }
echo "cold lookup (manifest + config over HTTP): $cold"
for r in $(seq 1 "$rounds"); do
  a=$("$build/bench/estimate_latency" "$lookup" "$image" "$requests")
  b=$("$build/bench/estimate_latency" "$offline" "$image" "$requests")
  echo "round $r  registry, warm cache: $a"
  echo "round $r  no lookup:            $b"
done
