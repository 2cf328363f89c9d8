#!/usr/bin/env bash
# The client subcommands against a real server: submit --wait exit codes,
# plain output when piped, a live status line on a terminal, every command's
# text and --json output, server errors, and the URL environment variables.
source "$(dirname "$0")/../support/e2e_lib.sh"

start_server cli --ephemeral --time-scale 30
export JUNGLE_GRID_API="$URL"
example="$ROOT/examples/jobs/rocm-inference.json"

has_control_codes() { LC_ALL=C grep -q $'\r\|\x1b' "$1"; }

"$BIN" wait --timeout 10 >"$WORK/wait.out" || fail "wait"
grep -q "ready $URL" "$WORK/wait.out" || fail "wait prints the URL: $(cat "$WORK/wait.out")"
pass "wait until /readyz"

set +e
"$BIN" submit "$example" --wait >"$WORK/ok.out" 2>&1
code=$?
set -e
[ "$code" = 0 ] || { cat "$WORK/ok.out"; fail "submit --wait of the ROCm example exits 0 (got $code)"; }
grep -q '^submitted job_' "$WORK/ok.out" || fail "submit prints the job id"
grep -q 'running' "$WORK/ok.out" || fail "progress names the running status: $(cat "$WORK/ok.out")"
grep -q 'completed (exit 0)' "$WORK/ok.out" || fail "final line: $(tail -1 "$WORK/ok.out")"
[ "$(grep -c 'phase workload_execution' "$WORK/ok.out")" = 1 ] || fail "one plain line per phase when piped"
grep -q 'phase workload_execution  [0-9]*s$' "$WORK/ok.out" || fail "a plain status line ends with the elapsed time"
has_control_codes "$WORK/ok.out" && fail "piped output has terminal control codes"
job=$(sed -n 's/^submitted \(job_[^ ]*\).*/\1/p' "$WORK/ok.out")
pass "submit --wait: exit 0, progress lines and logs, no control codes when piped"

set +e
"$BIN" submit "$example" --set 'sim={"exit_code":3,"duration_s":2}' --wait >"$WORK/fail.out" 2>&1
code=$?
set -e
[ "$code" = 3 ] || { cat "$WORK/fail.out"; fail "a job exiting 3 makes submit --wait exit 3 (got $code)"; }
grep -q 'failed (exit 3)' "$WORK/fail.out" || fail "final line names the failure: $(tail -1 "$WORK/fail.out")"
pass "submit --wait exits with the job's exit code (3)"

if command -v script >/dev/null; then
  TERM=xterm script -qec "$BIN submit $example --set 'sim={\"duration_s\":3}' --wait" /dev/null >"$WORK/tty.out" 2>&1 ||
    fail "submit --wait on a terminal"
  LC_ALL=C grep -q $'\r\x1b\\[K' "$WORK/tty.out" || fail "a terminal gets an updating status line"
  grep -q 'elapsed\|[0-9]s' "$WORK/tty.out" || fail "the status line shows elapsed time"
  last=$(tr '\r' '\n' <"$WORK/tty.out" | sed 's/\x1b\[K//g' | grep -v '^$' | tail -1)
  grep -q '^job job_.* completed (exit 0) after [0-9]' <<<"$last" || fail "the summary is the last line, no status line after it: $last"
  [ "$(tail -c 1 "$WORK/tty.out" | od -An -c | tr -d ' ')" = '\n' ] || fail "terminal output ends with a newline"
  pass "submit --wait on a terminal redraws one status line"
fi

sed 's/"python", "infer.py"/"python", "serve.py"/' "$example" | "$BIN" submit - --name from-stdin --json >"$WORK/stdin.json"
grep -q '"name":"from-stdin"' "$WORK/stdin.json" || fail "submit - reads stdin, flags override: $(cat "$WORK/stdin.json")"
"$BIN" submit --workload inference --image ghcr.io/acme/pytorch-rocm:latest --gpu-vendor amd --runtime rocm \
  --framework pytorch-rocm --command "python infer.py" --env MODE=fast --label team=ml --json >"$WORK/flags.json"
grep -q '"environment_keys":\["MODE"\]' "$WORK/flags.json" || fail "submit from flags: $(cat "$WORK/flags.json")"
pass "submit from stdin and from flags"

"$BIN" jobs >"$WORK/jobs.out"
head -1 "$WORK/jobs.out" | grep -q '^JOB  *NAME  *STATUS' || fail "jobs prints a table header"
grep -q "$job" "$WORK/jobs.out" || fail "jobs lists $job"
"$BIN" jobs --status failed --json | grep -q '"status":"failed"' || fail "jobs --status failed --json"
"$BIN" jobs --status completed --json | grep -vq '"status":"failed"' || fail "jobs --status filters"
"$BIN" status "$job" | grep -q '^status *completed' || fail "status shows completed"
"$BIN" status "$job" --json | grep -q "\"job_id\":\"$job\"" || fail "status --json"
"$BIN" logs "$job" | grep -q . || fail "logs prints lines"
"$BIN" logs "$job" --stream stderr --json | grep -q '"items"' || fail "logs --json"
"$BIN" logs "$job" -f >/dev/null || fail "logs -f of a finished job exits 0"
"$BIN" events "$job" | grep -q 'job.completed' || fail "events lists job.completed"
"$BIN" events "$job" -f | tail -1 | grep -q 'job.completed' || fail "events -f ends at the terminal event"
pass "jobs, status, logs, events"

"$BIN" artifacts "$job" | grep -q 'result.json' || fail "artifacts lists result.json"
"$BIN" download "$job" result.json -o "$WORK/r.json" >/dev/null || fail "download"
[ -s "$WORK/r.json" ] && [ ! -e "$WORK/r.json.part" ] || fail "download wrote r.json"
(cd "$WORK" && "$BIN" download "$job" result.json >/dev/null) && [ -s "$WORK/result.json" ] || fail "download to its name"
"$BIN" download "$job" result.json -o - | cmp - "$WORK/r.json" || fail "download -o - writes the bytes to stdout"
pass "artifacts and download"

"$BIN" estimate "$example" >"$WORK/estimate.out" || fail "estimate of the example exits 0"
for part in '^RULE' '^NODE' '^cost: \$' '^can submit: yes'; do
  grep -q "$part" "$WORK/estimate.out" || fail "estimate shows $part: $(cat "$WORK/estimate.out")"
done
printf '%s' '{"workload_type":"inference","image":"nvidia/cuda:12.4.0-runtime-ubuntu22.04","gpu_vendor":"amd"}' \
  >"$WORK/cuda.json"
set +e
"$BIN" estimate "$WORK/cuda.json" >"$WORK/blocked.out"
code=$?
set -e
[ "$code" = 1 ] && grep -q 'block' "$WORK/blocked.out" || fail "a blocked estimate exits 1 with the block: $(cat "$WORK/blocked.out")"
"$BIN" nodes | head -1 | grep -q '^NODE' || fail "nodes table"
"$BIN" nodes --json | grep -q '"gpus_free"' || fail "nodes --json"
pass "estimate and nodes"

long=$("$BIN" submit "$example" --set 'sim={"duration_s":600}' --json | sed 's/.*"job_id":"\([^"]*\)".*/\1/')
"$BIN" cancel "$long" --reason "not needed" | grep -q 'cancelled' || fail "cancel"
set +e
"$BIN" cancel "$long" 2>"$WORK/conflict.err"
code=$?
set -e
[ "$code" = 1 ] && grep -q '^jgrid-local: CONFLICT: ' "$WORK/conflict.err" || fail "second cancel: CONFLICT, exit 1"
pass "cancel, and a server error prints its code and message"

set +e
"$BIN" submit "$WORK/cuda.json" 2>"$WORK/rejected.err"
code=$?
"$BIN" status job_missing --json >"$WORK/missing.json"
json_code=$?
set -e
[ "$code" = 1 ] && grep -q '^jgrid-local: SCREENING_REJECTED' "$WORK/rejected.err" || fail "rejected submit: $(cat "$WORK/rejected.err")"
grep -q '^  fix: ' "$WORK/rejected.err" || fail "rejected submit prints the fixes"
[ "$json_code" = 1 ] && grep -q '"code":"NOT_FOUND"' "$WORK/missing.json" || fail "--json errors are the envelope"
pass "screening refusal and --json errors"

before=$("$BIN" jobs --all --json | grep -o '"job_id"' | wc -l)
"$BIN" submit "$example" --dry-run >"$WORK/dry.out" || fail "dry run of the example exits 0"
grep -q '^can submit: yes' "$WORK/dry.out" && grep -q '^RULE' "$WORK/dry.out" || fail "dry run prints the plan: $(cat "$WORK/dry.out")"
"$BIN" submit "$example" --dry-run --json | grep -q '"dry_run":true' || fail "dry run --json is the server's plan"
set +e
"$BIN" submit "$WORK/cuda.json" --dry-run >"$WORK/dry-blocked.out"
blocked_code=$?
"$BIN" submit "$example" --dry-run --wait 2>"$WORK/dry-wait.err"
usage_code=$?
set -e
[ "$blocked_code" = 1 ] && grep -q '^can submit: no (SCREENING_REJECTED' "$WORK/dry-blocked.out" || fail "a blocked dry run exits 1: $(tail -2 "$WORK/dry-blocked.out")"
[ "$usage_code" = 2 ] || fail "--dry-run with --wait is a usage error"
after=$("$BIN" jobs --all --json | grep -o '"job_id"' | wc -l)
[ "$before" = "$after" ] || fail "a dry run creates no job ($before before, $after after)"
pass "submit --dry-run: the plan, exit 1 when refused, nothing created"

set +e
JUNGLE_GRID_API= JUNGLE_GRID_API_URL= JUNGLEGRID_API_BASE="$URL" "$BIN" nodes >/dev/null
base_code=$?
JUNGLE_GRID_API=http://127.0.0.1:1 "$BIN" nodes --url "$URL" >/dev/null
flag_code=$?
JUNGLE_GRID_API=http://127.0.0.1:1 "$BIN" nodes 2>"$WORK/down.err"
down_code=$?
set -e
[ "$base_code" = 0 ] || fail "JUNGLEGRID_API_BASE is read"
[ "$flag_code" = 0 ] || fail "--url wins over the environment"
[ "$down_code" = 1 ] && grep -q 'CONNECTION_FAILED.*127.0.0.1:1' "$WORK/down.err" || fail "unreachable server: $(cat "$WORK/down.err")"
set +e
JUNGLE_GRID_API=http://127.0.0.1:1 "$BIN" wait --timeout 0.3 2>"$WORK/wait.err"
code=$?
set -e
[ "$code" = 1 ] && grep -q 'NOT_READY' "$WORK/wait.err" || fail "wait gives up with NOT_READY"
pass "URL from flag and environment, unreachable server"

for command in submit jobs status logs events cancel artifacts download estimate nodes wait version; do
  help=$("$BIN" "$command" --help) && grep -q -- '--' <<<"$help" || fail "$command --help"
done
pass "--help on every command"

# A large artifact: a progress bar on a terminal, nothing of it when piped.
if command -v script >/dev/null; then
  kill -9 "$SERVER_PID"
  big=$(printf 'x%.0s' $(seq 1 2048)); big=$(printf "$big%.0s" $(seq 1 1536))  # 3 MiB
  printf '{"seed": 1, "images": [{"ref": "ghcr.io/acme/big-rocm:latest", "labels": {"io.junglegrid.runtime": "rocm"},
    "sim": {"duration_s": 1, "artifacts": {"/workspace/artifacts/big.bin": "%s"}}}],
    "pools": [{"name": "mi", "count": 1, "region": "us-east", "price_per_gpu_hour": 2.1, "runtime": {"name": "rocm", "version": "6.2"},
      "gpu": {"vendor": "amd", "model": "MI300X", "family": "instinct", "class": "datacenter", "count": 8, "vram_gb": 192}}]}' \
    "$big" >"$WORK/big-fleet.json"
  start_server big --ephemeral --time-scale 30 --fleet "$WORK/big-fleet.json"
  export JUNGLE_GRID_API="$URL"
  sed 's|"image": *"[^"]*"|"image": "ghcr.io/acme/big-rocm:latest"|; s|result.json|big.bin|' "$example" >"$WORK/big-job.json"
  "$BIN" submit "$WORK/big-job.json" --wait >"$WORK/big.out" 2>&1 || { cat "$WORK/big.out"; fail "the large-artifact job"; }
  big_job=$(sed -n 's/^submitted \(job_[^ ]*\).*/\1/p' "$WORK/big.out")
  TERM=xterm script -qec "$BIN download $big_job big.bin -o $WORK/big-tty.bin" /dev/null >"$WORK/bar.out" 2>&1 ||
    fail "download on a terminal"
  grep -q '\[##############################\] 3.0 MiB / 3.0 MiB (100%)' "$WORK/bar.out" ||
    fail "a terminal gets a progress bar: $(tr '\r' '\n' <"$WORK/bar.out" | tail -3)"
  "$BIN" download "$big_job" big.bin -o "$WORK/big-piped.bin" >"$WORK/piped-dl.out"
  has_control_codes "$WORK/piped-dl.out" && fail "piped download prints no progress bar"
  [ "$(stat -c %s "$WORK/big-piped.bin")" = 3145728 ] && cmp -s "$WORK/big-tty.bin" "$WORK/big-piped.bin" ||
    fail "both downloads have the 3 MiB artifact"
  pass "download: progress bar on a terminal only"
fi
