#!/usr/bin/env bash
# simulate --sweep and --report: one row per point, --json per point, a
# swept point equals the same fleet written out by hand, the same sweep
# twice prints the same, bad paths and values stop before anything runs
# (exit 2), and the report is one self-contained page.
source "$(dirname "$0")/../support/e2e_lib.sh"
require_tool jq "apt-get install jq"

fleet="$ROOT/examples/fleets/mixed-cloud.yaml"
trace="$ROOT/examples/traces/mi300x-burst.jsonl"
small="$ROOT/examples/traces/small.jsonl"
sim() { "$BIN" simulate --fleet "$fleet" --trace "$trace" "$@"; }

sim --sweep pools.mi300x-east.count=6,8,10 >"$WORK/table.txt" 2>"$WORK/table.err" || { cat "$WORK/table.err"; fail "sweep runs"; }
[ "$(wc -l <"$WORK/table.txt")" = 4 ] || { cat "$WORK/table.txt"; fail "a header and one row per point"; }
head -1 "$WORK/table.txt" | grep -q '^pools.mi300x-east.count .*completed .*retries .*AMD MI300X wait p50/p95/p99 s .*mi300x-east busy .*cost \$ .*span s$' \
  || fail "header names the path, statuses, retries, waits, busy share, cost, span: $(head -1 "$WORK/table.txt")"
[ "$(awk 'NR>1 {print $1}' "$WORK/table.txt" | tr '\n' ' ')" = "6 8 10 " ] || fail "rows in sweep order"
grep -q '^point 3/3: pools.mi300x-east.count=10$' "$WORK/table.err" || fail "progress per point on stderr"
pass "a row per point"

sim --sweep pools.mi300x-east.count=6,8,10 --json >"$WORK/points.json" 2>/dev/null
jq -e 'length == 3 and ([.[].point["pools.mi300x-east.count"]] == [6, 8, 10])' "$WORK/points.json" >/dev/null \
  || fail "--json: an array of three points with their value"
for field in by_status failure_codes retries queue_wait_s gpu_utilisation cost_usd simulated_seconds digest seed jobs; do
  jq -e --arg f "$field" 'all(.[]; has($f))' "$WORK/points.json" >/dev/null || fail "--json: every point has $field"
done
jq -e 'all(.[]; .gpu_utilisation["mi300x-east"].gpus == .point["pools.mi300x-east.count"] * 8)' "$WORK/points.json" >/dev/null \
  || fail "each point ran its own fleet (mi300x-east GPUs = count × 8)"
jq -e '.[0].queue_wait_s["AMD MI300X"].p95 >= .[2].queue_wait_s["AMD MI300X"].p95' "$WORK/points.json" >/dev/null \
  || fail "more MI300X nodes do not wait longer"
pass "--json: one summary per point"

# A swept point is the run of the same fleet written out with that value.
sed '0,/^    count: 4$/s//    count: 8/' "$fleet" >"$WORK/eight.yaml"  # the first pool only
[ "$(grep -c '^    count: 8$' "$WORK/eight.yaml")" = 1 ] || fail "test fleet: mi300x-east count 8"
"$BIN" simulate --fleet "$WORK/eight.yaml" --trace "$trace" --json >"$WORK/two.json" 2>/dev/null
jq -S '.[1] | del(.point)' "$WORK/points.json" >"$WORK/point2.json"
jq -S '.' "$WORK/two.json" >"$WORK/file2.json"
cmp -s "$WORK/point2.json" "$WORK/file2.json" || { diff "$WORK/point2.json" "$WORK/file2.json" | head; fail "point = fleet file with that value"; }
sim --sweep pools.mi300x-east.count=6,8,10 --json >"$WORK/again.json" 2>/dev/null
cmp -s "$WORK/points.json" "$WORK/again.json" || fail "the same sweep twice prints the same"
pass "a point is deterministic and equals the edited fleet file"

sim --sweep pools.mi300x-east.count=6,8 --sweep pools.w7900-west.price_per_gpu_hour=0.6,6 --json >"$WORK/grid.json" 2>/dev/null
jq -e 'length == 4 and ([.[] | [.point["pools.mi300x-east.count"], .point["pools.w7900-west.price_per_gpu_hour"]]]
       == [[6, 0.6], [6, 6], [8, 0.6], [8, 6]])' "$WORK/grid.json" >/dev/null || fail "two --sweep make a 2×2 grid"
jq -e '.[1].cost_usd > .[0].cost_usd' "$WORK/grid.json" >/dev/null || fail "a higher W7900 price costs more"
sim --sweep pools.mi300x-east.faults.node_lost_per_hour=0,20 --json >"$WORK/faults.json" 2>/dev/null
jq -e '.[0].retries < .[1].retries' "$WORK/faults.json" >/dev/null || fail "a flakier pool retries more"
pass "grids, prices and fault rates"

# expect_usage_error NAME PATTERN ARGS…: exit 2, message on stderr, nothing run or written.
expect_usage_error() {
  local name="$1" pattern="$2"; shift 2
  set +e
  sim "$@" --report "$WORK/$name.html" >"$WORK/$name.out" 2>"$WORK/$name.err"
  local code=$?
  set -e
  [ "$code" = 2 ] || fail "$name: exit 2, got $code: $(cat "$WORK/$name.err")"
  grep -qF -- "$pattern" "$WORK/$name.err" || fail "$name: stderr names the problem ($pattern): $(cat "$WORK/$name.err")"
  [ ! -s "$WORK/$name.out" ] && ! grep -q 'simulated\|^point' "$WORK/$name.err" || fail "$name: nothing ran"
  [ ! -e "$WORK/$name.html" ] || fail "$name: no report written"
}
expect_usage_error nopool "--sweep pools.mi300x-eats.count=2: pools.mi300x-eats.count: no pool mi300x-eats in the fleet (pools: mi300x-east," \
  --sweep pools.mi300x-eats.count=2
expect_usage_error notsetting "pools.mi300x-east.cout: not a setting a sweep can change; expected one of seed, pools.<pool>.count" \
  --sweep pools.mi300x-east.count=2 --sweep pools.mi300x-east.cout=2
expect_usage_error notint 'pools.mi300x-east.count: expected an integer, got "two"' --sweep pools.mi300x-east.count=2,two
expect_usage_error range "--sweep pools.mi300x-east.count=-1: $fleet: pools[0].count: expected an integer >= 0" \
  --sweep pools.mi300x-east.count=4,-1
expect_usage_error rate "pools[0].faults.start_error_rate: expected a probability between 0 and 1" \
  --sweep pools.mi300x-east.faults.start_error_rate=0.1,1.5
expect_usage_error noequals "--sweep pools.mi300x-east.count: expected PATH=VALUE" --sweep pools.mi300x-east.count
expect_usage_error metric "--report-metric queue_wait_s.AMD MI325X.p95: expected a GPU model of the fleet (AMD MI300X," \
  --sweep pools.mi300x-east.count=2 --report-metric "queue_wait_s.AMD MI325X.p95"
expect_usage_error events "--events: not with --sweep" --sweep pools.mi300x-east.count=2 --events "$WORK/e.jsonl"
pass "bad paths, values and metrics: exit 2 naming them, nothing run"

"$BIN" simulate --fleet "$fleet" --trace "$trace" --sweep pools.mi300x-east.count=8,9 --json \
  --report "$WORK/report.html" >"$WORK/burst.json" 2>/dev/null || fail "burst sweep with a report"
jq -e 'length == 2 and all(.[]; .by_status.completed > 0)' "$WORK/burst.json" >/dev/null || fail "burst trace runs"
grep -q 'id="report-data"' "$WORK/report.html" || fail "the report embeds its data"
! grep -Eq '(src|href)="(https?:)?//' "$WORK/report.html" || fail "the report loads nothing from the network"
! grep -Eiq '<(link|img|iframe)[ >]' "$WORK/report.html" || fail "the report is one file (no link, img, iframe)"
"$BIN" simulate --fleet "$fleet" --trace "$small" --report "$WORK/single.html" >/dev/null 2>&1 || fail "--report without --sweep"
grep -q '"points":\[{' "$WORK/single.html" || fail "a single run's report has its point"
pass "--report writes one self-contained page, with and without --sweep"

"$BIN" simulate --help >"$WORK/help.txt"
grep -q -- '--sweep' "$WORK/help.txt" && grep -q -- '--report-metric' "$WORK/help.txt" && grep -q 'pools.<pool>.count' "$WORK/help.txt" \
  || fail "--help documents --sweep, --report-metric and the settings"
pass "--help"
