#!/usr/bin/env bash
# The simulation at scale (docs/simulation.md §5):
#   1. load time of examples/fleets/large.yaml (10,000 nodes), via `simulate`
#      with a one-line trace
#   2. `simulate` of N jobs (default 100,000) over 1,000 nodes on the virtual
#      clock: wall time and jobs/s (goal: <= 60 s on 2 cores)
# Placement cost at 10,000 nodes is route_bench's figure.
# Usage: bench/simulate_bench.sh BUILD_DIR [jobs]
set -euo pipefail
build="${1:?usage: bench/simulate_bench.sh BUILD_DIR [jobs]}"
jobs="${2:-100000}"
here="$(cd "$(dirname "$0")" && pwd)"
bin="$build/jgrid-local"
work="$(mktemp -d /tmp/jgrid-simbench-XXXXXX)"
trap '[ -n "${JGRID_KEEP:-}" ] || rm -rf "$work"' EXIT

echo '{"at_s": 0, "job": {"workload_type": "inference", "gpu_vendor": "amd", "image": "rocm/pytorch:latest", "command": "true", "sim": {"duration_s": 1}}}' >"$work/one.jsonl"
t0=$(date +%s%N)
"$bin" simulate --fleet "$here/../examples/fleets/large.yaml" --trace "$work/one.jsonl" >/dev/null 2>&1
t1=$(date +%s%N)
echo "== 10,000-node fleet: load + one job: $(( (t1 - t0) / 1000000 )) ms"

python3 - "$work" "$jobs" <<'PY'
import json, random, sys
work, jobs = sys.argv[1], int(sys.argv[2])
pools = [("mi300x", "amd", "MI300X", 8, 192, 2.1, 250), ("mi250", "amd", "MI250", 4, 64, 1.4, 250),
         ("w7900", "amd", "Radeon PRO W7900", 1, 48, 0.6, 200), ("h100", "nvidia", "H100", 8, 80, 2.9, 150),
         ("l4", "nvidia", "L4", 1, 24, 0.7, 150)]
with open(f"{work}/fleet.json", "w") as f:
    json.dump({"seed": 1, "clock": {"mode": "virtual"}, "pools": [
        {"name": n, "count": c, "region": "us-east", "gpu": {"vendor": v, "model": m, "count": g, "vram_gb": vr},
         "price_per_gpu_hour": p, "startup": {"provision_s": [1, 5], "image_pull_mb_per_s": 2000}}
        for (n, v, m, g, vr, p, c) in pools]}, f)
r = random.Random(1)
with open(f"{work}/trace.jsonl", "w") as f:
    for i in range(jobs):
        vendor = "amd" if r.random() < 0.7 else "nvidia"
        image = "rocm/pytorch:latest" if vendor == "amd" else "nvidia/cuda:12.4.0-runtime-ubuntu22.04"
        job = {"workload_type": "batch", "gpu_vendor": vendor, "image": image, "command": "run",
               "gpu_count": r.choice([1, 1, 1, 2, 4]), "sim": {"duration_s": r.randint(60, 1800), "stdout": ["done"]}}
        f.write(json.dumps({"at_s": i * 0.5, "job": job}) + "\n")
PY
echo "== simulate: $jobs jobs over 1,000 nodes (virtual clock)"
/usr/bin/time -f "wall %e s, max RSS %M KB" "$bin" simulate --fleet "$work/fleet.json" --trace "$work/trace.jsonl" \
  >"$work/summary.txt" 2>"$work/err.txt"
cat "$work/err.txt"
head -3 "$work/summary.txt"
