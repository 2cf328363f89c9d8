#!/usr/bin/env bash
# Runs each libFuzzer target (tests/fuzz, built by tests/sanitize/build.sh:
# clang, -fsanitize=fuzzer,address,undefined, built first when needed) for a
# bounded time, starting from the seed corpus in tests/fuzz/corpus/<target>
# (which includes the inputs of every bug found so far). Prints the
# executions per target; fails on any crash, leak, timeout or sanitizer
# report (the input is kept in <build>/fuzz-out/<target>/).
# Usage: tests/fuzz/run.sh [seconds per target, default 60] [target…]
#   JGRID_SANITIZE_BUILD_DIR  build directory (default <repo>/build-asan)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${JGRID_SANITIZE_BUILD_DIR:-$root/build-asan}"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(job_request fleet cursor)

"$root/tests/sanitize/build.sh" "${targets[@]/#/fuzz_}"

export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
failed=0
for target in "${targets[@]}"; do
  out="$build/fuzz-out/$target"
  rm -rf "$out" && mkdir -p "$out/corpus"
  # New inputs go to the scratch corpus (first directory); the seeds stay as committed.
  if "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 \
       -print_final_stats=1 -artifact_prefix="$out/" "$out/corpus" "$root/tests/fuzz/corpus/$target" \
       >"$out/log" 2>&1; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log")
    echo "fuzz $target: ok, $execs executions in ${seconds} s, $(ls "$out/corpus" | wc -l) new corpus inputs"
  else
    failed=1
    echo "fuzz $target: FAILED (log: $out/log)" >&2
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$out/log" | head -20 >&2 || true
  fi
done
exit "$failed"
