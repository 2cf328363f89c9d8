#!/usr/bin/env bash
# The server over a store of 1,000,000 terminal jobs (docs/simulation.md §5; goal: RSS
# <= 1 GB and GET /v1/jobs/{id} >= 5,000 req/s):
#   1. seed: build/bench/seed_jobs writes the jobs (realistic documents, one
#      final event each) in batches of 20,000; time and file size
#   2. `serve --fleet none` on that data dir: time to the ready line, RSS
#   3. single requests: GET /v1/jobs (first page, a later page, filtered by
#      status), one GET /v1/jobs/{id}, /metrics, /healthz
#   4. wrk, 32 connections, GET /v1/jobs/{id} of random stored ids
#      (bench/random_job.lua): req/s, p50, p99, non-2xx; RSS and peak RSS after
# Usage: bench/million_jobs.sh BUILD_DIR [jobs, default 1000000] [seconds, default 10]
# JGRID_BENCH_DATA=DIR keeps the seeded data dir there and reuses it when it
# already holds the jobs (seeding takes minutes).
set -euo pipefail
build="${1:?usage: bench/million_jobs.sh BUILD_DIR [jobs] [seconds]}"
jobs="${2:-1000000}"
secs="${3:-10}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d /tmp/jgrid-million-XXXXXX)"
data="${JGRID_BENCH_DATA:-$work/data}"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
command -v wrk >/dev/null || { echo "installing wrk" >&2; apt-get install -y -qq wrk >/dev/null; }
[ -x "$build/bench/seed_jobs" ] || { echo "build the seed_jobs target first" >&2; exit 1; }

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
rss() { awk -v k="$1:" '$1 == k {printf "%.0f MB", $2 / 1024}' "/proc/$pid/status"; }
timed_get() {  # timed_get LABEL PATH: status, size and time of one request
  curl -s -o "$work/body" -w "$1: HTTP %{http_code}, %{size_download} bytes, %{time_total} s\n" "$url$2"
}

if [ -s "$data/ids" ] && [ "$(wc -l <"$data/ids")" = "$jobs" ]; then
  echo "== reusing $data ($jobs jobs)"
else
  rm -rf "$data"; mkdir -p "$data"
  echo "== seeding $jobs jobs"
  /usr/bin/time -f "seed: wall %e s, max RSS %M KB" "$build/bench/seed_jobs" "$data" "$jobs" "$data/ids.part"
  mv "$data/ids.part" "$data/ids"
fi
echo "database: $(du -sh --apparent-size "$data/jgrid.db" | cut -f1) ($(du -ch --apparent-size "$data"/jgrid.db* | tail -n1 | cut -f1) with WAL)"

echo "== serve --fleet none on $jobs jobs"
t0=$(date +%s%N)
"$build/jgrid-local" serve --port 0 --data-dir "$data" --fleet none >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
url=""
for _ in $(seq 1 6000); do
  url=$(sed -n 's/^jgrid-local ready url=//p' "$work/serve.out" 2>/dev/null || true); [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 0.01
done
[ -n "$url" ] || { echo "no ready line after 60 s" >&2; exit 1; }
echo "ready after $(ms_since "$t0") ms"
sleep 1
echo "RSS after start: $(rss VmRSS)"

echo "== single requests"
timed_get "GET /v1/jobs (first page of 20)" "/v1/jobs"
cursor=$(jq -r .next_cursor "$work/body")
timed_get "GET /v1/jobs (next page)" "/v1/jobs?cursor=$cursor"
timed_get "GET /v1/jobs?limit=100" "/v1/jobs?limit=100"
timed_get "GET /v1/jobs?status=cancelled" "/v1/jobs?status=cancelled"
timed_get "GET /v1/jobs?status=queued,running (none stored)" "/v1/jobs?status=queued,running"
timed_get "GET /v1/jobs?status=failed&workload_type=batch" "/v1/jobs?status=failed&workload_type=batch"
timed_get "GET /v1/jobs?workload_type=training (none stored)" "/v1/jobs?workload_type=training"
timed_get "GET /v1/jobs/{id} (oldest job)" "/v1/jobs/$(head -n1 "$data/ids")"
timed_get "GET /v1/health (job count)" "/v1/health"
timed_get "GET /metrics (jobs per status)" "/metrics"
timed_get "GET /healthz" "/healthz"

echo "== wrk: GET /v1/jobs/{id} of random stored ids, 32 connections, ${secs}s"
wrk -t2 -c32 -d"${secs}s" --latency -s "$here/random_job.lua" "$url" -- "$data/ids" >"$work/wrk.out"
kill -0 "$pid" 2>/dev/null || { echo "server exited during the run" >&2; tail -n 20 "$work/serve.err" >&2; exit 1; }
rps=$(awk '/Requests\/sec/ {printf "%.0f", $2}' "$work/wrk.out")
p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.out")
p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.out")
errors=$(awk '/Non-2xx/ {print $NF}' "$work/wrk.out")
echo "GET /v1/jobs/{id}: $rps req/s, p50 $p50, p99 $p99, non-2xx ${errors:-0}"
echo "RSS after the run: $(rss VmRSS), peak $(rss VmHWM)"
rss_mb=$(awk '$1 == "VmHWM:" {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
echo "goals: peak RSS <= 1024 MB: $([ "$rss_mb" -le 1024 ] && echo met || echo NOT met);" \
  "GET >= 5,000 req/s: $([ "${rps:-0}" -ge 5000 ] && echo met || echo NOT met)"
