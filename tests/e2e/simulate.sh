#!/usr/bin/env bash
# simulate: a trace on the example fleets, twice with one seed (same summary
# and digest), once with another (different); --json, --events; bad input;
# serve loads the YAML fleets and runs a virtual clock.
source "$(dirname "$0")/../support/e2e_lib.sh"

fleet="$ROOT/examples/fleets/mixed-cloud.yaml"
trace="$ROOT/examples/traces/small.jsonl"
"$BIN" simulate --fleet "$fleet" --trace "$trace" --seed 7 >"$WORK/a.txt" 2>"$WORK/a.err" || { cat "$WORK/a.err"; fail "simulate runs"; }
"$BIN" simulate --fleet "$fleet" --trace "$trace" --seed 7 >"$WORK/b.txt" 2>/dev/null || fail "simulate runs twice"
cmp -s "$WORK/a.txt" "$WORK/b.txt" || { diff "$WORK/a.txt" "$WORK/b.txt"; fail "same seed, same summary"; }
grep -q '^digest ' "$WORK/a.txt" || fail "summary prints a digest"
grep -q 'completed=' "$WORK/a.txt" || fail "summary counts completed jobs"
grep -q 'jobs/s' "$WORK/a.err" || fail "wall time and jobs/s on stderr"
pass "same seed: identical summaries and digests"

"$BIN" simulate --fleet "$fleet" --trace "$trace" --seed 8 >"$WORK/c.txt" 2>/dev/null || fail "simulate seed 8"
[ "$(grep '^digest' "$WORK/a.txt")" != "$(grep '^digest' "$WORK/c.txt")" ] || fail "another seed changes the digest"
pass "different seed: different digest"

"$BIN" simulate --fleet "$fleet" --trace "$trace" --seed 7 --json --events "$WORK/events.jsonl" >"$WORK/s.json" 2>/dev/null
grep -q '"queue_wait_s"' "$WORK/s.json" || fail "--json summary has queue_wait_s"
grep -q '"gpu_utilisation"' "$WORK/s.json" || fail "--json summary has gpu_utilisation"
[ "$(grep -c '"type"' "$WORK/events.jsonl")" -gt 100 ] || fail "--events wrote the event log"
pass "--json and --events"

printf '{"at_s": 1, "job": {"workload_type": "inference", "image": "rocm/pytorch:latest", "command": "true", "gpu_count": "two"}}\n' >"$WORK/bad.jsonl"
set +e
"$BIN" simulate --trace "$WORK/bad.jsonl" >/dev/null 2>"$WORK/bad.err"
code=$?
printf 'pools:\n  - name: p\n    count: -1\n    gpu: { vendor: amd, model: X, count: 1, vram_gb: 1 }\n' >"$WORK/bad.yaml"
"$BIN" serve --fleet "$WORK/bad.yaml" --ephemeral >/dev/null 2>"$WORK/badfleet.err"
fleet_code=$?
set -e
[ "$code" = 2 ] && grep -q "bad.jsonl:1: job.gpu_count" "$WORK/bad.err" || fail "bad trace line named: $(cat "$WORK/bad.err")"
[ "$fleet_code" = 2 ] && grep -q "bad.yaml: pools\[0\].count: expected" "$WORK/badfleet.err" || fail "bad fleet named: $(cat "$WORK/badfleet.err")"
pass "bad trace and bad fleet are named"

start_server virt --ephemeral --fleet "$ROOT/examples/fleets/laptop.yaml" --clock virtual
curl -fsS "$URL/v1/sim/clock" | grep -q '"mode":"virtual"' || fail "GET /v1/sim/clock says virtual"
id=$(curl -fsS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' \
  -d '{"workload_type":"inference","image":"ghcr.io/acme/pytorch-rocm:latest","gpu_vendor":"amd","command":"python infer.py","sim":{"duration_s":3600}}' | json_field job_id)
done=""
for _ in $(seq 1 100); do
  curl -fsS "$URL/v1/jobs/$id" >"$WORK/job.json"
  grep -q '"status":"completed"' "$WORK/job.json" && { done=1; break; }
  sleep 0.05
done
[ -n "$done" ] || fail "one-hour job completes on the virtual clock: $(cat "$WORK/job.json")"
pass "serve --clock virtual with a YAML fleet"

# The figures of docs/simulation.md §5 are with tcmalloc, which the build
# links whenever libgoogle-perftools-dev is installed (CMake JGRID_ALLOCATOR).
"$BIN" version --json >"$WORK/version.json"
if ! grep -q '"allocator":"tcmalloc"' "$WORK/version.json"; then
  pkg-config --exists libtcmalloc_minimal 2>/dev/null && fail "tcmalloc installed but not linked: $(cat "$WORK/version.json")"
  skip_or_fail "libgoogle-perftools-dev not installed (apt-get install libgoogle-perftools-dev): simulate runs on glibc's malloc"
fi
"$BIN" version | grep -q "(allocator: tcmalloc)" || fail "version names the allocator"
pass "the binary runs on tcmalloc"
