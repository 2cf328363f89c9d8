#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (-fsanitize=fuzzer,address,undefined)
# in their own build directory and runs each for a bounded time, starting
# from the seed corpus in tests/fuzz/corpus/<target> (which includes the
# inputs of every bug found so far). Prints the executions per target; fails
# on any crash, leak, timeout or sanitizer report (the input is kept in
# <build>/fuzz-out/<target>/).
# Usage: tests/fuzz/run.sh [seconds per target, default 60] [target…]
#   JGRID_FUZZ_BUILD_DIR  build directory (default <repo>/build-fuzz)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${JGRID_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(job_request fleet cursor)

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
t0=$(date +%s)
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DJGRID_FUZZ=ON -DJGRID_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
echo "fuzz build: $(( $(date +%s) - t0 )) s"

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
