#!/usr/bin/env bash
# /openapi.json against real tools: Redocly's linter (recommended rules) and
# the live responses of the example flow validated with Ajv against the
# document's schemas. The npm packages are installed into the gitignored
# tests/contract/node_modules on first run.
source "$(dirname "$0")/../support/e2e_lib.sh"

contract="$ROOT/tests/contract"
require_tool node "apt-get install nodejs npm; ./dev installs them"
require_tool npm "installs @redocly/cli and ajv: apt-get install npm; ./dev installs it"
if [ ! -x "$contract/node_modules/.bin/redocly" ] || [ ! -d "$contract/node_modules/ajv-formats" ]; then
  if ! (cd "$contract" && npm ci --no-audit --no-fund >"$WORK/npm.log" 2>&1); then
    # Offline (no registry) is a skip; a registry that answers and still fails is a failure.
    (cd "$contract" && timeout 30 npm ping >/dev/null 2>&1) ||
      skip_or_fail "npm registry unreachable, cannot install @redocly/cli and ajv (run npm ci in tests/contract once online)"
    cat "$WORK/npm.log"; fail "npm ci in tests/contract"
  fi
fi

start_server contract --ephemeral --time-scale 30
curl -fsS "$URL/openapi.json" >"$WORK/openapi.json" || fail "GET /openapi.json"

(cd "$contract" && node_modules/.bin/redocly lint --config redocly.yaml --format stylish "$WORK/openapi.json") \
  >"$WORK/lint.log" 2>&1 || { cat "$WORK/lint.log"; fail "redocly lint"; }
grep -q 'Woohoo' "$WORK/lint.log" || { cat "$WORK/lint.log"; fail "redocly lint reports the document valid"; }
if grep -Eq '^ *[0-9]+:[0-9]+ +(warning|error) ' "$WORK/lint.log"; then cat "$WORK/lint.log"; fail "redocly lint problems"; fi
pass "redocly lint: clean"

node "$contract/validate.mjs" "$URL" >"$WORK/validate.log" 2>&1 || { cat "$WORK/validate.log"; fail "live responses validate"; }
cat "$WORK/validate.log"
pass "live responses of the example flow validate against the document"
