#!/usr/bin/env bash
# TLS with real certificates made by openssl (tests/support/tls-certs.sh): a
# server with --tls-cert/--tls-key, the client commands against it (a good
# chain with --ca-file or $JGRID_CA_FILE; an unknown CA, a wrong host name and
# an expired certificate each refused with a message that says which), and
# callbacks to an https receiver, verified with --ca-file and refused without.
source "$(dirname "$0")/../support/e2e_lib.sh"
require_tool python3 "runs the callback receiver: apt-get install python3"
certs="$WORK/certs"
bash "$ROOT/tests/support/tls-certs.sh" "$certs" || exit $?

expect_refusal() {  # expect_refusal URL TEXT [CLIENT ARGS…]: the client command fails naming TEXT
  local url="$1" text="$2"
  shift 2
  if "$BIN" jobs --url "$url" "$@" >"$WORK/client.out" 2>"$WORK/client.err"; then
    fail "jobs against $url succeeded: $(cat "$WORK/client.out")"
  fi
  grep -q -- "$text" "$WORK/client.err" || fail "expected '$text' from jobs against $url, got: $(cat "$WORK/client.err")"
}

start_server good --ephemeral --tls-cert "$certs/good.pem" --tls-key "$certs/good.key"
[[ "$URL" == https://127.0.0.1:* ]] || fail "ready line: $URL"
curl -fsS --cacert "$certs/ca.pem" "$URL/healthz" >/dev/null || fail "curl with the CA"
"$BIN" jobs --url "$URL" --ca-file "$certs/ca.pem" --json >/dev/null || fail "jobs --ca-file: $(cat "$WORK/good.err")"
JGRID_CA_FILE="$certs/ca.pem" "$BIN" jobs --url "${URL/127.0.0.1/localhost}" --json >/dev/null ||
  fail "jobs with JGRID_CA_FILE and the localhost name"
id=$(curl -fsS --cacert "$certs/ca.pem" -X POST "$URL/v1/jobs" -H 'content-type: application/json' \
  -d '{"workload_type": "inference", "image": "ghcr.io/acme/pytorch-rocm:latest", "gpu_vendor": "amd",
       "runtime": "rocm", "sim": {"duration_s": 1}}' | jq -r .job_id)
"$BIN" status "$id" --url "$URL" --ca-file "$certs/ca.pem" --json | jq -e '.job_id' >/dev/null ||
  fail "status over https"
curl -fsS --cacert "$certs/ca.pem" "$URL/v1/jobs/$id" | jq -e '.job_id' >/dev/null || fail "GET job over https"
pass "serve --tls-cert: curl and the client commands with --ca-file or JGRID_CA_FILE"

expect_refusal "$URL" "signed by a CA this machine does not trust"
pass "no CA given: refused, naming the untrusted CA and --ca-file"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

start_server wrong --ephemeral --tls-cert "$certs/wrong-host.pem" --tls-key "$certs/wrong-host.key"
expect_refusal "$URL" "does not name host 127.0.0.1" --ca-file "$certs/ca.pem"
pass "a certificate for another host name: refused, saying so"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

start_server expired --ephemeral --tls-cert "$certs/expired.pem" --tls-key "$certs/expired.key"
expect_refusal "$URL" "has expired" --ca-file "$certs/ca.pem"
pass "an expired certificate: refused, saying so"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

start_server unknown --ephemeral --tls-cert "$certs/unknown-ca.pem" --tls-key "$certs/unknown-ca.key"
expect_refusal "$URL" "signed by a CA this machine does not trust" --ca-file "$certs/ca.pem"
pass "a certificate from another CA: refused, saying so"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

# Options are checked before anything starts.
if "$BIN" serve --port 0 --ephemeral --tls-cert "$certs/good.pem" 2>"$WORK/opt.err"; then fail "--tls-cert alone"; fi
grep -q -- "--tls-key" "$WORK/opt.err" || fail "--tls-cert alone: $(cat "$WORK/opt.err")"
if "$BIN" serve --port 0 --ephemeral --tls-cert "$certs/good.pem" --tls-key "$certs/ca.key" 2>"$WORK/opt.err"; then
  fail "a key that does not match"
fi
grep -q "cannot serve HTTPS" "$WORK/opt.err" || fail "mismatched key: $(cat "$WORK/opt.err")"
pass "--tls-cert without --tls-key, or with a key that does not match: one line, no server"

# Callbacks to an https receiver.
python3 "$ROOT/examples/callbacks/receiver.py" --tls-cert "$certs/good.pem" --tls-key "$certs/good.key" --count 1 \
  >"$WORK/receiver.log" 2>&1 &
receiver=$!
trap 'kill "$receiver" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 1 100); do
  hook=$(sed -n 's/^receiver listening on //p' "$WORK/receiver.log")
  [ -n "$hook" ] && break
  sleep 0.05
done
[[ "$hook" == https://* ]] || fail "the https receiver starts: $(cat "$WORK/receiver.log")"
submit_with_hook() {
  curl -fsS -X POST "$URL/v1/jobs" -H 'content-type: application/json' -d '{"workload_type": "inference",
    "image": "ghcr.io/acme/pytorch-rocm:latest", "gpu_vendor": "amd", "runtime": "rocm",
    "sim": {"duration_s": 1}, "webhook_url": "'"$hook"'"}' | jq -r .job_id
}

start_server no-ca --ephemeral
job=$(submit_with_hook)
for _ in $(seq 1 200); do
  curl -fsS "$URL/v1/jobs/$job/events?type=job.callback_failed" | grep -q "does not trust" && break
  sleep 0.05
done
curl -fsS "$URL/v1/jobs/$job/events?type=job.callback_failed" | grep -q "signed by a CA this machine does not trust" ||
  fail "callback without the CA: $(curl -fsS "$URL/v1/jobs/$job/events")"
grep -q "answer 200" "$WORK/receiver.log" && fail "a callback was delivered without verifying the receiver"
pass "https callback to a receiver whose CA is not trusted: not sent, the attempt names why"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

start_server with-ca --ephemeral --ca-file "$certs/ca.pem"
job=$(submit_with_hook)
for _ in $(seq 1 200); do
  grep -q "answer 200" "$WORK/receiver.log" && break
  sleep 0.05
done
grep -q "job $job status completed .* answer 200" "$WORK/receiver.log" ||
  fail "https callback with --ca-file: $(cat "$WORK/receiver.log")"
pass "https callback verified with --ca-file: delivered"
