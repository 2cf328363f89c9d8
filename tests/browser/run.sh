#!/usr/bin/env bash
# ctest `browser`: the dashboard in Debian's chromium, driven by playwright-core,
# against the built binary. Usage: run.sh <jgrid-local> <output dir>.
# Exits 125 (skipped) only when no browser can run here, saying why; under
# CI=true that is a failure instead (tests/support/skip.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../support/skip.sh"
bin="$1"
out="$2"
chromium="${JGRID_CHROMIUM:-/usr/bin/chromium}"

[ -x "$chromium" ] || skip_or_fail "no chromium at $chromium (apt-get install chromium; ./dev installs it; or set JGRID_CHROMIUM)"
require_tool node "apt-get install nodejs npm; ./dev installs them"
if [ ! -d "$here/node_modules/playwright-core" ]; then
  require_tool npm "installs playwright-core: apt-get install npm; ./dev installs it"
  # playwright-core carries no browser; installing it downloads none.
  (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error) \
    || skip_or_fail "npm install playwright-core failed in tests/browser (no registry access?)"
fi
mkdir -p "$out"
# The suite exits 125 itself when the browser does not start (1 under CI=true).
exec node "$here/suite.mjs" "$bin" "$out" "$chromium"
