#!/usr/bin/env bash
# GET /v1/jobs/{id} over TLS against plain HTTP, in the same run: one server
# with --tls-cert/--tls-key (certificates from tests/support/tls-certs.sh),
# one without, the same job in each, then ROUNDS rounds of wrk (2 threads, 32
# keep-alive connections, SECONDS each) alternating the two (A B A B).
# Usage: bench/tls.sh BUILD_DIR [seconds, default 10] [rounds, default 3]
set -euo pipefail
build="${1:?usage: bench/tls.sh BUILD_DIR [seconds] [rounds]}"
secs="${2:-10}"
rounds="${3:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/jgrid-tls-bench-XXXXXX)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
command -v wrk >/dev/null || { echo "installing wrk" >&2; apt-get install -y -qq wrk >/dev/null; }
bash "$root/tests/support/tls-certs.sh" "$work/certs" >/dev/null

serve() {  # serve NAME ARGS… : prints the URL
  "$build/jgrid-local" serve --port 0 --ephemeral "${@:2}" >"$work/$1.out" 2>"$work/$1.err" &
  pids+=($!)
  for _ in $(seq 1 400); do
    url=$(sed -n 's/^jgrid-local ready url=//p' "$work/$1.out" 2>/dev/null || true)
    [ -n "$url" ] && { echo "$url"; return; }
    sleep 0.025
  done
  cat "$work/$1.err" >&2
  exit 1
}
job() {  # job URL : submits the example, prints its id
  curl -fsS --cacert "$work/certs/ca.pem" -X POST "$1/v1/jobs" -H 'Content-Type: application/json' \
    -d @"$root/examples/jobs/rocm-inference.json" | jq -r .job_id
}
plain=$(serve plain)
tls=$(serve tls --tls-cert "$work/certs/good.pem" --tls-key "$work/certs/good.key")
plain_job=$(job "$plain")
tls_job=$(job "$tls")
summary() { awk '/Requests\/sec/ {rps=$2} /Latency/ {lat=$2} END {printf "%s req/s, mean latency %s", rps, lat}'; }
for r in $(seq 1 "$rounds"); do
  echo "round $r  https: $(wrk -t2 -c32 -d"${secs}s" "$tls/v1/jobs/$tls_job" | summary)"
  echo "round $r  http:  $(wrk -t2 -c32 -d"${secs}s" "$plain/v1/jobs/$plain_job" | summary)"
done
