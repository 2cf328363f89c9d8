#!/usr/bin/env bash
# Runs the unit and integration tests built with AddressSanitizer (leaks
# included) and UndefinedBehaviorSanitizer (tests/sanitize/build.sh, which
# this builds first when needed) through ctest. The first report fails the run.
# Usage: tests/sanitize/run.sh [extra ctest arguments…]
#   JGRID_SANITIZE_BUILD_DIR  build directory (default <repo>/build-asan)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${JGRID_SANITIZE_BUILD_DIR:-$root/build-asan}"

targets=(integration_tests)
for dir in "$root"/tests/unit/*/; do targets+=("unit_$(basename "$dir")"); done
"$root/tests/sanitize/build.sh" "${targets[@]}"

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
