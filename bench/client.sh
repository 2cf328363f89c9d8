#!/usr/bin/env bash
# Figures of the client side and of /metrics, each next to a peer measured in
# the same run:
#   one `jgrid-local status ID --json` call       vs  one `curl` of the same route
#   `submit --wait` wall time of the ROCm example vs  the job's own created→completed time
#   a /metrics scrape with N jobs stored (wrk)    vs  GET /healthz on the same server
# Usage: bench/client.sh BUILD_DIR [jobs] [seconds]
set -euo pipefail
build="${1:?usage: bench/client.sh BUILD_DIR [jobs] [seconds]}"
jobs="${2:-5000}"
secs="${3:-5}"
here="$(cd "$(dirname "$0")" && pwd)"
bin="$build/jgrid-local"
example="$here/../examples/jobs/rocm-inference.json"
work="$(mktemp -d /tmp/jgrid-bench-client-XXXXXX)"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
command -v wrk >/dev/null || { echo "installing wrk" >&2; apt-get install -y -qq wrk >/dev/null; }

scale=30  # simulated seconds per real second
"$bin" serve --port 0 --data-dir "$work/data" --time-scale "$scale" >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
for _ in $(seq 1 400); do
  url=$(sed -n 's/^jgrid-local ready url=//p' "$work/serve.out" 2>/dev/null || true); [ -n "$url" ] && break; sleep 0.025
done
export JUNGLE_GRID_API="$url"
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

echo "== one call: jgrid-local status vs curl (GET /v1/jobs/{id}), 200 calls each"
job=$("$bin" submit "$example" --json | sed -n 's/.*"job_id":"\([^"]*\)".*/\1/p')
t0=$(date +%s%N); for _ in $(seq 1 200); do "$bin" status "$job" --json >/dev/null; done; cli=$(ms_since "$t0")
t0=$(date +%s%N); for _ in $(seq 1 200); do curl -fsS "$url/v1/jobs/$job" >/dev/null; done; peer=$(ms_since "$t0")
awk -v a="$cli" -v b="$peer" 'BEGIN {printf "jgrid-local status: %.2f ms/call   curl: %.2f ms/call\n", a / 200, b / 200}'

echo "== submit --wait of the ROCm example (time-scale $scale: job times in real ms), 3 runs"
for i in 1 2 3; do
  t0=$(date +%s%N)
  "$bin" submit "$example" --wait >"$work/wait$i.out"
  wall=$(ms_since "$t0")
  id=$(sed -n 's/^submitted \(job_[^ ]*\).*/\1/p' "$work/wait$i.out")
  own=$(curl -fsS "$url/v1/jobs/$id" | python3 -c 'import json, sys, datetime as d
j = json.load(sys.stdin); p = lambda s: d.datetime.fromisoformat(s.replace("Z", "+00:00"))
print(int((p(j["completed_at"]) - p(j["created_at"])).total_seconds() * 1000 / '"$scale"'))')
  echo "run $i: submit --wait $wall ms   job created→completed $own ms   client overhead $((wall - own)) ms"
done

echo "== /metrics with $jobs jobs stored, 4 connections, ${secs}s"
curl -fsS -X POST "$url/v1/jobs" -H 'Content-Type: application/json' -d @"$example" >/dev/null
wrk -t2 -c8 -d60s -s "$here/submit.lua" "$url/v1/jobs" >/dev/null &
filler=$!
while [ "$(curl -fsS "$url/metrics" | awk -F'} ' '/^jgrid_jobs\{/ {n += $2} END {print n + 0}')" -lt "$jobs" ]; do sleep 0.5; done
kill "$filler" 2>/dev/null || true; wait "$filler" 2>/dev/null || true
stored=$(curl -fsS "$url/metrics" | awk -F'} ' '/^jgrid_jobs\{/ {n += $2} END {print n + 0}')
bytes=$(curl -fsS "$url/metrics" | wc -c)
lat() { awk '/^    Latency/ {print $2}'; }
rps() { awk '/Requests\/sec/ {printf "%.0f", $2}'; }
wrk -t2 -c4 -d"${secs}s" "$url/metrics" >"$work/metrics.wrk"
wrk -t2 -c4 -d"${secs}s" "$url/healthz" >"$work/healthz.wrk"
echo "jobs stored: $stored   scrape size: $bytes bytes"
echo "/metrics: $(rps <"$work/metrics.wrk") req/s, mean latency $(lat <"$work/metrics.wrk")   /healthz: $(rps <"$work/healthz.wrk") req/s, mean latency $(lat <"$work/healthz.wrk")"
