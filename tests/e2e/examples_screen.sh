#!/usr/bin/env bash
# Every request in examples/jobs goes through the built `jgrid-local screen`
# and gets the verdict its file name promises, so the examples never rot:
#   block--<rule id>[--note].json  exit 3, <rule id> among blocked_checks
#   warn--<rule id>[--note].json   exit 0, <rule id> among the warnings, no block
#   pass--<note>.json, <other>.json exit 0, no block and no warning
# Also: the table form, stdin, and exit 2 on unreadable or invalid input.
source "$(dirname "$0")/../support/e2e_lib.sh"

# screen_json FILE: compact one-line `screen --json` output in $WORK/out, exit code in $code.
screen_json() {
  set +e
  "$BIN" screen --json "$1" >"$WORK/raw" 2>"$WORK/err"
  code=$?
  set -e
  tr -d '\n' <"$WORK/raw" | sed 's/  */ /g' >"$WORK/out"
}

# rule_list KEY: the rule ids listed under KEY ("blocked_checks": ids;
# "warnings": checks) in $WORK/out, one per line.
rule_list() {
  if [ "$1" = blocked_checks ]; then
    grep -o '"blocked_checks": \[[^]]*\]' "$WORK/out" | grep -o '"[a-z_.]*"' | tr -d '"' | grep -v blocked_checks || true
  else
    grep -o '"warnings": \[.*\]' "$WORK/out" | grep -o '"rule": "[a-z_.]*"' | sed 's/"rule": //; s/"//g' || true
  fi
}

checked=0
for file in "$ROOT"/examples/jobs/*.json; do
  name=$(basename "$file" .json)
  verdict=pass rule=""
  case "$name" in
    block--* | warn--*) verdict=${name%%--*}; rule=${name#*--}; rule=${rule%%--*} ;;
  esac
  screen_json "$file"
  blocked=$(rule_list blocked_checks)
  warned=$(rule_list warnings)
  case "$verdict" in
    block)
      [ "$code" = 3 ] || fail "$name: exit 3 expected, got $code: $(cat "$WORK/err" "$WORK/raw")"
      grep -qx "$rule" <<<"$blocked" || fail "$name: $rule not among blocked checks: $blocked" ;;
    warn)
      [ "$code" = 0 ] || fail "$name: exit 0 expected, got $code: $(cat "$WORK/err") blocked: $blocked"
      grep -qx "$rule" <<<"$warned" || fail "$name: $rule not among warnings: $warned" ;;
    pass)
      [ "$code" = 0 ] || fail "$name: exit 0 expected, got $code: $(cat "$WORK/err") blocked: $blocked"
      [ -z "$warned" ] || fail "$name: no warning expected, got: $warned" ;;
  esac
  checked=$((checked + 1))
done
[ "$checked" -ge 14 ] || fail "only $checked examples found in $ROOT/examples/jobs"
pass "$checked examples screened to their expected verdicts"

"$BIN" screen "$ROOT/examples/jobs/block--image.cuda_name.json" >"$WORK/table" && code=0 || code=$?
[ "$code" = 3 ] || fail "table form of a blocked request exits 3 (got $code)"
grep -q '^RULE .*STATUS .*FIELD .*MESSAGE' "$WORK/table" || fail "table header: $(head -1 "$WORK/table")"
grep -q '^image.cuda_name .*block' "$WORK/table" || fail "table row for image.cuda_name"
grep -q 'fix: .*rocm/' "$WORK/table" || fail "the fix names a ROCm image"
grep -q '^verdict: *blocked by .*image.cuda_name' "$WORK/table" || fail "verdict line"
pass "table form"

"$BIN" screen - <"$ROOT/examples/jobs/rocm-inference.json" >"$WORK/table" || fail "stdin form exits 0"
grep -q '^verdict: *submittable' "$WORK/table" || fail "stdin form: submittable"
pass "stdin"

echo '{"workload_type": "inference", "image": "x", "gpu_count": "two"}' >"$WORK/bad.json"
echo '{"workload_type": ' >"$WORK/broken.json"
for input in /nonexistent/job.json "$WORK/broken.json" "$WORK/bad.json"; do
  "$BIN" screen "$input" >"$WORK/out" 2>"$WORK/err" && code=0 || code=$?
  [ "$code" = 2 ] || fail "$input: exit 2 expected (got $code)"
  [ "$(wc -l <"$WORK/err")" = 1 ] || fail "$input: one line on stderr: $(cat "$WORK/err")"
done
grep -q 'gpu_count' "$WORK/err" || fail "invalid request names the field: $(cat "$WORK/err")"
help=$("$BIN" screen --help)
grep -q -- "--json" <<<"$help" || fail "screen --help lists --json"
pass "bad input: one line, exit 2; --help"
