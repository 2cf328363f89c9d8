#!/usr/bin/env bash
# `simulate` at scale (docs/simulation.md §5), on traces as users write them:
# no `sim.stdout` (the fake node's default output), runs of 5 minutes to
# 2 hours, 1–4 GPUs, AMD/ROCm jobs, on examples/fleets/large.yaml (10,000
# nodes, 35,000 AMD GPUs: about 3.4 such jobs a second keep them busy).
#   1. load time of the 10,000-node fleet (simulate of a one-job trace)
#   2. for each size (default 10,000, 100,000 and 1,000,000 jobs) and shape:
#        under  one job every 0.6 s, about half the fleet's capacity
#        peak   one every 0.3 s (about its capacity), 1.5 times as often in
#               the middle third of the span: a queue of tens of thousands
#      wall time, jobs/s and max RSS of `simulate --json`, and its summary
# Goal: 1,000,000 jobs within 120 s (>= 10,000 jobs/s) and 1.5 GB.
# Traces are written once by bench/make_trace.py and kept in
# $JGRID_TRACE_DIR (default /tmp/jgrid-traces): the 1M-job ones take a
# minute to write and 250 MB each.
# Usage: bench/simulate_bench.sh BUILD_DIR [sizes, default "10000 100000 1000000"] [shapes, default "under peak"]
set -euo pipefail
build="${1:?usage: bench/simulate_bench.sh BUILD_DIR [sizes] [shapes]}"
sizes="${2:-10000 100000 1000000}"
shapes="${3:-under peak}"
here="$(cd "$(dirname "$0")" && pwd)"
bin="$build/jgrid-local"
fleet="$here/../examples/fleets/large.yaml"
traces="${JGRID_TRACE_DIR:-/tmp/jgrid-traces}"
work="$(mktemp -d /tmp/jgrid-simbench-XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$traces"

shape_args() {
  case "$1" in
    under) echo "--every 0.6" ;;
    peak) echo "--every 0.3 --peak 1.5" ;;
    *) echo "unknown shape $1 (expected under or peak)" >&2; exit 2 ;;
  esac
}

# trace SHAPE JOBS: prints the path of the trace, writing it first if needed.
trace() {
  local path="$traces/$1-$2.jsonl"
  if [ ! -s "$path" ]; then
    echo "writing $path" >&2
    # shellcheck disable=SC2046
    python3 "$here/make_trace.py" --jobs "$2" --minutes 5,120 $(shape_args "$1") >"$path.part"
    mv "$path.part" "$path"
  fi
  echo "$path"
}

echo '{"at_s": 0, "job": {"workload_type": "inference", "gpu_vendor": "amd", "image": "rocm/pytorch:latest", "command": "true", "sim": {"duration_s": 1}}}' >"$work/one.jsonl"
t0=$(date +%s%N)
"$bin" simulate --fleet "$fleet" --trace "$work/one.jsonl" >/dev/null 2>&1
echo "== 10,000-node fleet: load + one job: $(( ($(date +%s%N) - t0) / 1000000 )) ms"

printf '%-6s %9s %9s %10s %9s  %s\n' shape jobs wall_s jobs_per_s rss_mb summary
for jobs in $sizes; do
  for shape in $shapes; do
    path="$(trace "$shape" "$jobs")"
    /usr/bin/time -f "%e %M" -o "$work/time" "$bin" simulate --fleet "$fleet" --trace "$path" --json \
      >"$work/summary.json" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    read -r wall rss_kb <"$work/time"
    summary="$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); w=max((v["p95"] for v in s["queue_wait_s"].values()), default=0); print(" ".join(f"{k}={v}" for k,v in s["by_status"].items()), f"p95_wait_s={w}", "span_s=%s" % s["simulated_seconds"])' "$work/summary.json")"
    printf '%-6s %9s %9s %10.0f %9.0f  %s\n' "$shape" "$jobs" "$wall" \
      "$(python3 -c "print($jobs / max($wall, 0.001))")" "$(( rss_kb / 1024 ))" "$summary"
  done
done
