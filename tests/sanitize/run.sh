#!/usr/bin/env bash
# Builds the unit and integration tests with AddressSanitizer (leaks
# included) and UndefinedBehaviorSanitizer in their own build directory and
# runs them through ctest. The first report fails the run.
# Usage: tests/sanitize/run.sh [extra ctest arguments…]
#   JGRID_SANITIZE_BUILD_DIR  build directory (default <repo>/build-asan)
#   JGRID_SANITIZE            sanitizers (default address,undefined)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${JGRID_SANITIZE_BUILD_DIR:-$root/build-asan}"
sanitizers="${JGRID_SANITIZE:-address,undefined}"

targets=(integration_tests)
for dir in "$root"/tests/unit/*/; do targets+=("unit_$(basename "$dir")"); done
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
t0=$(date +%s)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJGRID_SANITIZE="$sanitizers" "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >/dev/null
echo "sanitizer build: $(( $(date +%s) - t0 )) s"

# Leak suppressions name third-party code only (see the file).
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_init_order=1"
export LSAN_OPTIONS="suppressions=$root/tests/sanitize/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
t0=$(date +%s)
# The podman variants run the same binaries against real containers; they
# stay in the ordinary build (`./dev test`).
status=0
ctest --test-dir "$build" --output-on-failure -R '^(unit\.|integration$)' -E podman "$@" || status=$?
echo "sanitizer tests: $(( $(date +%s) - t0 )) s"
exit "$status"
