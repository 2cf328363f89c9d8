#!/usr/bin/env bash
# Determinism of the simulation: one input, one event log.
# - a trace whose jobs arrive in bursts at one instant (ties everywhere), and
#   a larger one on a fleet with every pool fault rate plus fault rules of
#   every effect: 5 runs each, byte-identical --events and the same digest;
#   another seed changes both;
# - serve --clock virtual: the same requests made one after another over
#   HTTP, three servers, the same digest.
source "$(dirname "$0")/../support/e2e_lib.sh"

runs=5
make_trace="$ROOT/bench/make_trace.py"
python3 "$make_trace" --jobs 800 --burst 4 --every 3 >"$WORK/ties.jsonl"
python3 "$make_trace" --jobs 1200 --burst 3 --every 2 --vendor mixed --faults --seed 3 >"$WORK/faults.jsonl"
grep -q '"fault"' "$WORK/faults.jsonl" || fail "the fault trace has fault lines"

# same_every_run NAME FLEET TRACE SEED: runs it $runs times; every --events
# file and summary must be byte-identical.
same_every_run() {
  local name="$1" fleet="$2" trace="$3" seed="$4" i
  for i in $(seq 1 "$runs"); do
    "$BIN" simulate --fleet "$fleet" --trace "$trace" --seed "$seed" --json --events "$WORK/$name.$i.events" \
      >"$WORK/$name.$i.json" 2>"$WORK/$name.$i.err" || { cat "$WORK/$name.$i.err"; fail "$name: run $i"; }
    cmp -s "$WORK/$name.1.events" "$WORK/$name.$i.events" ||
      { diff "$WORK/$name.1.events" "$WORK/$name.$i.events" | head -5; fail "$name: run $i wrote another event log"; }
    cmp -s "$WORK/$name.1.json" "$WORK/$name.$i.json" || fail "$name: run $i printed another summary"
  done
}

same_every_run ties "$ROOT/examples/fleets/mixed-cloud.yaml" "$WORK/ties.jsonl" 1
[ "$(wc -l <"$WORK/ties.1.events")" -gt 5000 ] || fail "ties: the event log is complete"
pass "bursts of ties: $runs runs, identical event logs and digests"

same_every_run faults "$ROOT/examples/fleets/flaky.yaml" "$WORK/faults.jsonl" 7
for kind in job.retrying job.failed job.completed; do
  grep -q "\"type\":\"$kind\"" "$WORK/faults.1.events" || fail "faults: the run has $kind events"
done
pass "every pool fault rate and fault rules of every effect: $runs runs, identical event logs and digests"

"$BIN" simulate --fleet "$ROOT/examples/fleets/flaky.yaml" --trace "$WORK/faults.jsonl" --seed 8 --json \
  --events "$WORK/other.events" >"$WORK/other.json" 2>/dev/null || fail "faults: seed 8 runs"
! cmp -s "$WORK/faults.1.events" "$WORK/other.events" || fail "another seed writes another event log"
[ "$(json_field digest <"$WORK/faults.1.json")" != "$(json_field digest <"$WORK/other.json")" ] ||
  fail "another seed changes the digest"
pass "another seed: another event log and digest"

printf '{"at_s": 5, "fault": {"effect": "boom"}}\n' >"$WORK/badfault.jsonl"
set +e
"$BIN" simulate --trace "$WORK/badfault.jsonl" >/dev/null 2>"$WORK/badfault.err"
code=$?
set -e
[ "$code" = 2 ] && grep -q 'badfault.jsonl:1: fault.effect: expected one of' "$WORK/badfault.err" ||
  fail "a bad fault line is named: $(cat "$WORK/badfault.err")"
pass "a bad fault line is named"

# http_session N: a fresh virtual-clock server, the same requests one after
# another (a fault rule, a node taken offline, clock advances), writes the
# digest to $WORK/digest.N.
http_session() {
  start_server "virt$1" --ephemeral --fleet "$ROOT/examples/fleets/flaky.yaml" --clock virtual --seed 7
  local body i
  for i in $(seq 1 24); do
    body="{\"workload_type\":\"training\",\"image\":\"ghcr.io/acme/pytorch-rocm:latest\",\"gpu_vendor\":\"amd\",\"runtime\":\"rocm\",\"command\":\"python train.py\",\"gpu_count\":$(( i % 8 + 1 )),\"sim\":{\"duration_s\":$(( 600 + i * 37 ))}}"
    curl -fsS -X POST "$URL/v1/jobs" -H 'Content-Type: application/json' -d "$body" >/dev/null
    if [ "$i" = 9 ]; then
      curl -fsS -X POST "$URL/v1/sim/faults" -H 'Content-Type: application/json' \
        -d '{"effect":"node_lost","target":{"pool":"mi300x-flaky"},"probability":0.5}' >/dev/null
    fi
    [ "$i" = 15 ] && curl -fsS -X POST "$URL/v1/sim/nodes/mi300x-flaky-2/offline" >/dev/null
    if [ $(( i % 6 )) = 0 ]; then
      curl -fsS -X POST "$URL/v1/sim/clock/advance" -H 'Content-Type: application/json' -d '{"seconds":120}' >/dev/null
    fi
  done
  curl -fsS "$URL/v1/sim/digest" >"$WORK/digest.$1.json"
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

for n in 1 2 3; do http_session "$n"; done
first=$(json_field digest <"$WORK/digest.1.json")
[ -n "$first" ] || fail "serve: a digest: $(cat "$WORK/digest.1.json")"
for n in 2 3; do
  again=$(json_field digest <"$WORK/digest.$n.json")
  [ "$again" = "$first" ] || fail "serve --clock virtual: server $n digest $again, first $first"
done
pass "serve --clock virtual: the same requests one after another give the same digest (3 servers)"
