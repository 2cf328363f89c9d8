#!/usr/bin/env bash
# Screening with image metadata from a real registry (docker-registry, i.e.
# distribution 2.8, on loopback; tests/support/registry.sh pushes the images)
# through the HTTP API of the built binary: labels and env of images the
# fleet does not list, an image index followed to linux/amd64, token auth
# with credentials from an auth file and anonymous, a registry that hangs
# (submit returns within the bound, the job is screened again before it
# runs), one that answers garbage, the disk cache after a restart with the
# registry gone, lookups off, and AMD only with ROCm evidence.
source "$(dirname "$0")/../support/e2e_lib.sh"
require_tool jq "apt-get install jq"
base=$((5400 + ($$ % 100) * 6))
plain=$base token=$((base + 2)) hang=$((base + 4)) garbage=$((base + 5))
bash "$ROOT/tests/support/registry.sh" start "$WORK/plain" "$plain" >/dev/null || exit $?
bash "$ROOT/tests/support/registry.sh" start "$WORK/token" "$token" --token >/dev/null || exit $?
python3 "$ROOT/tests/support/token_issuer.py" --mode hang --port "$hang" >"$WORK/hang.out" 2>&1 &
hang_pid=$!
python3 "$ROOT/tests/support/token_issuer.py" --mode garbage --port "$garbage" >"$WORK/garbage.out" 2>&1 &
garbage_pid=$!
trap 'kill "$hang_pid" "$garbage_pid" 2>/dev/null
      bash "$ROOT/tests/support/registry.sh" stop "$WORK/plain"
      bash "$ROOT/tests/support/registry.sh" stop "$WORK/token"
      cleanup' EXIT
for _ in $(seq 1 100); do
  grep -q ready "$WORK/hang.out" && grep -q ready "$WORK/garbage.out" && break
  sleep 0.05
done

# The user's registry auth file, as `podman login` writes it.
mkdir -p "$WORK/runtime/containers"
jq -n --arg auth "$(printf 'tester:secret' | base64)" --arg host "127.0.0.1:$token" \
  '{auths: {($host): {auth: $auth}}}' >"$WORK/runtime/containers/auth.json"
insecure=()
for port in "$plain" "$token" "$hang" "$garbage"; do insecure+=(--insecure-registry "127.0.0.1:$port"); done

body() {  # body IMAGE [INTENT_JSON] : a job request
  jq -n --arg image "$1" --argjson intent "${2:-{\}}" \
    '{workload_type: "batch", image: $image, gpu_count: 1, command: ["python", "train.py"]} + $intent'
}
rocm='{"gpu_vendor": "amd", "runtime": "rocm"}'
estimate() { curl -s -X POST "$URL/v1/jobs/estimate" -H 'content-type: application/json' -d "$(body "$@")"; }
submit() {  # submit IMAGE [INTENT] : prints "STATUS BODY"
  curl -s -o "$WORK/submit.json" -w '%{http_code}' -X POST "$URL/v1/jobs" -H 'content-type: application/json' \
    -d "$(body "$@")"
}
job() { curl -s "$URL/v1/jobs/$1"; }
wait_for() {  # wait_for JOB_ID JQ_CONDITION SECONDS
  for _ in $(seq 1 $(($3 * 20))); do
    [ "$(job "$1" | jq -r "$2")" = true ] && return 0
    sleep 0.05
  done
  job "$1" | head -c 2000 >&2
  fail "job $1: $2 did not hold within $3 s"
}

XDG_RUNTIME_DIR="$WORK/runtime" start_server a --data-dir "$WORK/data" "${insecure[@]}" --registry-wait 1 \
  --registry-timeout 3
grep -q "screening   image metadata from registries" "$WORK/a.out" || fail "banner: $(cat "$WORK/a.out")"
reg="127.0.0.1:$plain"

# Labels from the registry: a neutral name whose config says ROCm goes to AMD.
e=$(estimate "$reg/team/labelled:1.0")
[ "$(jq -r .classification.image_source <<<"$e")" = registry ] || fail "labelled: $e"
[ "$(jq -r .classification.gpu_vendor <<<"$e")" = amd ] || fail "labelled not AMD: $e"
[ "$(jq -r .classification.reasons[0] <<<"$e")" = "image label io.junglegrid.runtime=rocm: AMD/ROCm" ] ||
  fail "labelled reasons: $e"
e=$(estimate "$reg/team/labelled:1.0-v2s2")
[ "$(jq -r .classification.gpu_vendor <<<"$e")" = amd ] || fail "v2s2 manifest: $e"
pass "labels from the registry (OCI and Docker v2s2 manifests) are ROCm evidence"

# An index: the linux/amd64 manifest's config decides (arm64's says CUDA).
e=$(estimate "$reg/team/multi:2.0")
[ "$(jq -r .classification.gpu_vendor <<<"$e")" = amd ] || fail "index: $e"
pass "an image index is followed to linux/amd64"

# CUDA env under a neutral name: blocked under ROCm intent, NVIDIA only without.
[ "$(submit "$reg/team/trainer:1.4" "$rocm")" = 422 ] || fail "CUDA env under ROCm intent: $(cat "$WORK/submit.json")"
jq -e '.error.details.blocked_checks == ["image.cuda_metadata"]' "$WORK/submit.json" >/dev/null ||
  fail "blocked checks: $(cat "$WORK/submit.json")"
jq -r '.error.details.checks[] | select(.rule == "image.cuda_metadata") | .message' "$WORK/submit.json" |
  grep -q "env CUDA_VERSION=12.4.1 (registry)" || fail "message: $(cat "$WORK/submit.json")"
[ "$(submit "$reg/team/trainer:1.4")" = 202 ] || fail "CUDA env, no intent: $(cat "$WORK/submit.json")"
id=$(jq -r .job_id "$WORK/submit.json")
wait_for "$id" '.assigned_node_id != null' 10
[ "$(job "$id" | jq -r .scheduling.gpu.vendor)" = NVIDIA ] || fail "CUDA env job not on NVIDIA: $(job "$id")"
pass "CUDA env in the registry config: blocked under ROCm intent, NVIDIA only without intent"

# AMD only with ROCm evidence: nothing in the config says ROCm -> NVIDIA.
e=$(estimate "$reg/team/plain:1.0")
[ "$(jq -r .classification.gpu_vendor <<<"$e")" = nvidia ] || fail "plain: $e"
[ "$(jq -r .classification.unknown_stack <<<"$e")" = true ] || fail "plain unknown_stack: $e"
jq -r '.warnings[]' <<<"$e" | grep -q "^intent.no_rocm_evidence: .*(registry) says ROCm" || fail "plain warning: $e"
pass "no ROCm evidence: NVIDIA capacity only, and the estimate says why"

# Token auth: credentials from the auth file; the registry sends a challenge.
e=$(estimate "127.0.0.1:$token/team/labelled:1.0")
[ "$(jq -r .classification.image_source <<<"$e")" = registry ] || fail "token auth with credentials: $e"
pass "bearer token auth with credentials from \$XDG_RUNTIME_DIR/containers/auth.json"

# HTTPS unless the registry is listed as insecure: the same plain-HTTP
# registry under another name is spoken to with TLS, which fails and says so.
e=$(estimate "localhost:$plain/team/labelled:1.0")
jq -r .classification.image_source <<<"$e" | grep -q "TLS handshake failed (is it a plain-HTTP registry? see --insecure-registry)" ||
  fail "https by default: $e"
pass "HTTPS by default: a plain-HTTP registry not listed as insecure is not read, and the reason names the option"

# A registry that never answers: submit returns within the bound, the job
# waits queued and is screened again (by name) once the lookup gives up.
start=$(date +%s%N)
[ "$(submit "127.0.0.1:$hang/team/slow:1.0" "$rocm")" = 202 ] || fail "hang submit: $(cat "$WORK/submit.json")"
elapsed=$((($(date +%s%N) - start) / 1000000))
[ "$elapsed" -lt 2500 ] || fail "submit against a hung registry took $elapsed ms (bound 1 s)"
slow=$(jq -r .job_id "$WORK/submit.json")
job "$slow" | jq -e '.status == "queued" and (.status_message | test("registry metadata"))' >/dev/null ||
  fail "hung lookup: job not waiting for metadata: $(job "$slow")"
start=$(date +%s%N)
curl -sf "$URL/v1/jobs?limit=5" >/dev/null || fail "list during a hung lookup"
elapsed=$((($(date +%s%N) - start) / 1000000))
[ "$elapsed" -lt 500 ] || fail "a hung lookup slowed another request: $elapsed ms"
wait_for "$slow" '.assigned_node_id != null' 20
curl -s "$URL/v1/jobs/$slow/events" | jq -r '.items[].message' | grep -q "^Screened again before running, with name only (registry: 127.0.0.1:$hang: no answer in time" ||
  fail "no second screening event: $(curl -s "$URL/v1/jobs/$slow/events")"
pass "hung registry: submit within the bound, other requests unaffected, job screened again before it runs"

# A registry that answers garbage: screened by name, the server stays up.
e=$(estimate "127.0.0.1:$garbage/team/junk:1.0" "$rocm")
jq -r .classification.image_source <<<"$e" | grep -q "^name only (registry: " || fail "garbage: $e"
[ "$(jq -r .can_submit <<<"$e")" = true ] || fail "garbage estimate: $e"
curl -sf "$URL/healthz" >/dev/null || fail "server down after garbage"
pass "garbage from a registry: name-only screening, server up"

# Past the bound and then blocked: with no wait at all every lookup outlives
# the bound, so a CUDA build under ROCm intent is accepted, then rejected
# before it runs.
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
start_server b --data-dir "$WORK/data-b" "${insecure[@]}" --registry-wait 0
[ "$(submit "$reg/team/trainer:1.4" "$rocm")" = 202 ] || fail "wait 0 submit: $(cat "$WORK/submit.json")"
late=$(jq -r .job_id "$WORK/submit.json")
wait_for "$late" '.status == "rejected"' 10
job "$late" | jq -e '.status_reason == "rejected: image.cuda_metadata" and .assigned_node_id == null' >/dev/null ||
  fail "late rejection: $(job "$late")"
pass "accepted past the bound, rejected by the second screening before it ran"

# The disk cache: the registry gone, a restart still knows the image.
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
bash "$ROOT/tests/support/registry.sh" stop "$WORK/plain"
mkdir -p "$WORK/no-auth"
XDG_RUNTIME_DIR="$WORK/no-auth" start_server c --data-dir "$WORK/data" "${insecure[@]}" --registry-wait 1
e=$(estimate "$reg/team/labelled:1.0")
[ "$(jq -r .classification.image_source <<<"$e")" = registry ] || fail "disk cache after restart: $e"
pass "metadata cached on disk: known after a restart with the registry down"

# Anonymous token: a public repository works, a private one is name only.
e=$(estimate "127.0.0.1:$token/public/rocm-app:1.0")
[ "$(jq -r .classification.image_source <<<"$e")" = registry ] || fail "anonymous token: $e"
e=$(estimate "127.0.0.1:$token/team/plain:1.0")
jq -r .classification.image_source <<<"$e" | grep -q "^name only (registry: .*anonymous" || fail "anonymous private: $e"
pass "anonymous bearer token: public repository read, private one refused with the reason"


# Lookups off: name only; an AMD-only fleet refuses a job without ROCm evidence.
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
start_server d --data-dir "$WORK/data" --registry-lookup off --fleet "$ROOT/examples/fleets/amd-only.yaml"
e=$(estimate "$reg/team/labelled:1.0")
[ "$(jq -r .classification.image_source <<<"$e")" = "name only" ] || fail "lookup off: $e"
[ "$(submit "$reg/team/labelled:1.0")" = 503 ] || fail "no evidence on an AMD-only fleet: $(cat "$WORK/submit.json")"
jq -e '.error.code == "CAPACITY_UNAVAILABLE" and (.error.message | test("declare gpu_vendor: amd and runtime: rocm"))' \
  "$WORK/submit.json" >/dev/null || fail "503 message: $(cat "$WORK/submit.json")"
[ "$(submit "$reg/team/labelled:1.0" "$rocm")" = 202 ] || fail "declared ROCm: $(cat "$WORK/submit.json")"
pass "lookups off: name only; no ROCm evidence on an AMD-only fleet is 503 with the fix"

kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
start_server e --data-dir "$WORK/data" --registry-lookup off --fleet "$ROOT/examples/fleets/amd-only.yaml" --unknown-stack any
grep -q "unknown stacks: any vendor" "$WORK/e.out" || fail "banner: $(cat "$WORK/e.out")"
[ "$(submit "$reg/team/labelled:1.0")" = 202 ] || fail "--unknown-stack any: $(cat "$WORK/submit.json")"
pass "--unknown-stack any restores any vendor (and the banner says so)"
