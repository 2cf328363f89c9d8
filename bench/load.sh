#!/usr/bin/env bash
# Mixed load (bench/load_mix.cpp: submit, get, list, logs, SSE) over 64
# connections against `serve --ephemeral` on loopback, then the server's
# peak RSS (VmHWM). Exits non-zero on any 5xx or failed connection, or when
# a kind of request got fewer 2xx answers than min_2xx (load_mix's default
# 5 when not given), naming the kind.
# Usage: bench/load.sh BUILD_DIR [seconds, default 60] [connections, default 64] [min_2xx]
# (ctest runs a 10 s variant as `load.short`.)
# JGRID_E2E_SERVE_ARGS: extra `serve` arguments (split on whitespace), as for
# tests/e2e; test-only, to see the load fail against a server refusing
# everything (e.g. `--auth keys --keys-file K`; load_mix sends no key).
set -euo pipefail
build="${1:?usage: bench/load.sh BUILD_DIR [seconds] [connections] [min_2xx]}"
secs="${2:-60}"
conns="${3:-64}"
# min_2xx goes to load_mix only when given, so the default lives in one place.
min_ok=("${@:4:1}")
extra=()
read -ra extra <<<"${JGRID_E2E_SERVE_ARGS:-}"
work="$(mktemp -d /tmp/jgrid-load-XXXXXX)"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
"$build/jgrid-local" serve --port 0 --ephemeral --time-scale 10 "${extra[@]}" >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
url=""
for _ in $(seq 1 400); do
  url=$(sed -n 's/^jgrid-local ready url=//p' "$work/serve.out" 2>/dev/null || true); [ -n "$url" ] && break; sleep 0.025
done
[ -n "$url" ] || { cat "$work/serve.err" >&2; echo "server did not start" >&2; exit 1; }
status=0
"$build/bench/load_mix" "$url" "$secs" "$conns" "${min_ok[@]}" || status=$?
kill -0 "$pid" 2>/dev/null || { echo "server exited during the load" >&2; cat "$work/serve.err" >&2; exit 1; }
[ "$status" = 0 ] || { echo "server log (last lines):" >&2; tail -n 20 "$work/serve.err" >&2; }
echo "server peak RSS: $(awk '/VmHWM/ {printf "%.1f MB", $2 / 1024}' "/proc/$pid/status")"
exit "$status"
