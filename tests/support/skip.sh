# skip_or_fail REASON… : for a test that cannot run here because a tool is
# missing or does not work. REASON names the tool and how to install it.
# On a workstation it exits 125, which ctest reports as "Not Run" (each test
# that may skip sets SKIP_RETURN_CODE 125). Under CI=true it exits 1: the CI
# runner installs every tool, so a missing one means the runner is broken, and
# a skip there would let the run pass having tested nothing.
# Sourced by the shell tests; tests/browser/suite.mjs does the same in node.
skip_or_fail() {
  if [ "${CI:-}" = true ]; then
    echo "FAIL (CI=true, a skip is a failure here): $*" >&2
    exit 1
  fi
  echo "SKIPPED (a failure under CI=true): $*" >&2
  exit 125
}

# require_tool TOOL HOW_TO_INSTALL : skip_or_fail unless TOOL is on PATH.
require_tool() {
  command -v "$1" >/dev/null 2>&1 || skip_or_fail "$1 not installed ($2)"
}
