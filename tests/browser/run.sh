#!/usr/bin/env bash
# ctest `browser`: the dashboard in Debian's chromium, driven by playwright-core,
# against the built binary. Usage: run.sh <jgrid-local> <output dir>.
# Exits 125 (skipped) only when no browser can run here, saying why.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$1"
out="$2"
chromium="${JGRID_CHROMIUM:-/usr/bin/chromium}"

skip() { echo "SKIPPED: $*" >&2; exit 125; }

[ -x "$chromium" ] || skip "no chromium at $chromium (apt-get install chromium; ./dev installs it)"
command -v node >/dev/null || skip "no node (apt-get install nodejs npm)"
if [ ! -d "$here/node_modules/playwright-core" ]; then
  command -v npm >/dev/null || skip "no npm to install playwright-core"
  # playwright-core carries no browser; installing it downloads none.
  (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error) \
    || skip "npm install playwright-core failed (no registry access?)"
fi
mkdir -p "$out"
# The suite exits 125 itself when the browser does not start.
exec node "$here/suite.mjs" "$bin" "$out" "$chromium"
