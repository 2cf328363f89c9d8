#!/usr/bin/env bash
# Configures and builds the one sanitizer build that both
# tests/sanitize/run.sh and tests/fuzz/run.sh use: clang at -O1 with line
# tables, AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer on
# every target, the libraries also instrumented for libFuzzer's coverage
# (-DJGRID_FUZZ=ON). The unit and integration tests and the fuzz targets link
# the same instrumented libraries, so the libraries compile once for both.
# Usage: tests/sanitize/build.sh [target…]   (default: every test and fuzz target)
#   JGRID_SANITIZE_BUILD_DIR  build directory (default <repo>/build-asan)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${JGRID_SANITIZE_BUILD_DIR:-$root/build-asan}"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(integration_tests)
  for dir in "$root"/tests/unit/*/; do targets+=("unit_$(basename "$dir")"); done
  for source in "$root"/tests/fuzz/*.cpp; do targets+=("fuzz_$(basename "$source" .cpp)"); done
fi
command -v clang++ >/dev/null || { echo "sanitizer build: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
t0=$(date +%s)
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DJGRID_FUZZ=ON -DJGRID_BUILD_TESTS=ON "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >/dev/null
echo "sanitizer build (${#targets[@]} targets): $(( $(date +%s) - t0 )) s"
