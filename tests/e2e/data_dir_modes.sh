#!/usr/bin/env bash
# serve keeps its data private: a new data dir is 0700, every file serve
# writes in it (the database with its -wal and -shm, keys, uploads,
# artifacts) is 0600, an existing looser data dir of ours is made 0700 with
# one line saying so; the service token can come from --service-token-file or
# $JGRID_SERVICE_TOKEN (flag, then file, then env), works for
# /oauth/introspect and never shows in `ps`; a bad token file or a short token
# is one line naming the option, exit 2.
source "$(dirname "$0")/../support/e2e_lib.sh"
require_tool jq "apt-get install jq; ./dev installs it"
# The usual umask of a login shell: a stricter one would hide what serve does.
umask 022

KEY=jg_modes_key_0000001
FILE_TOKEN=svc_from_file_000000001
ENV_TOKEN=svc_from_env_0000000001
printf '{"keys": [{"key": "%s", "workspace": "w1", "scopes": ["jobs:read", "jobs:submit"]}]}' "$KEY" >"$WORK/keys.json"
printf '%s\n' "$FILE_TOKEN" >"$WORK/token"
chmod 600 "$WORK/token"

mode_of() { stat -c %a "$1"; }

# introspect TOKEN : the HTTP status of POST /oauth/introspect for $KEY with TOKEN
introspect() {
  curl -sS -o "$WORK/i.json" -w '%{http_code}' -H "Authorization: Bearer $1" -d "token=$KEY" "$URL/oauth/introspect"
}

stop_server() {
  kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
}

# --- a fresh data dir, the token from a file
data="$WORK/fresh/data"
JGRID_SERVICE_TOKEN="$ENV_TOKEN" start_server fresh --data-dir "$data" --time-scale 100 \
  --auth keys --keys-file "$WORK/keys.json" --service-token-file "$WORK/token"
auth=(-H "Authorization: Bearer $KEY")
job=$(curl -fsS "${auth[@]}" -H 'Content-Type: application/json' \
  -d '{"workload_type":"inference","image":"ghcr.io/acme/pytorch-rocm:latest","gpu_vendor":"amd","command":"python infer.py","environment":{"HF_TOKEN":"hf_secret_value"},"expected_artifacts":["/workspace/artifacts/result.json"],"sim":{"duration_s":1}}' \
  "$URL/v1/jobs" | jq -r .job_id)
curl -fsS "${auth[@]}" -H 'Content-Type: application/json' -d '{"filename":"in.txt","kind":"input"}' \
  "$URL/v1/job-inputs" >"$WORK/ticket.json"
curl -fsS -o /dev/null -X PUT -H 'Content-Type: application/octet-stream' --data-binary 'input bytes' \
  "$(jq -r .upload.upload_url "$WORK/ticket.json")"
for _ in $(seq 1 200); do
  [ "$(curl -fsS "${auth[@]}" "$URL/v1/jobs/$job" | jq -r .status)" = completed ] && break
  sleep 0.05
done
[ "$(curl -fsS "${auth[@]}" "$URL/v1/jobs/$job" | jq -r .status)" = completed ] || fail "job $job completes"

[ "$(mode_of "$data")" = 700 ] || fail "a new data dir is 0700 (got $(mode_of "$data"))"
for file in jgrid.db jgrid.db-wal jgrid.db-shm secret.key callback.key; do
  [ -f "$data/$file" ] || fail "$file exists in the data dir"
  [ "$(mode_of "$data/$file")" = 600 ] || fail "$file is 0600 (got $(mode_of "$data/$file"))"
done
[ -n "$(find "$data/jobs" -type f)" ] || fail "the job wrote files under jobs/"
[ -n "$(find "$data/uploads" -type f)" ] || fail "the upload wrote a file under uploads/"
# What a job's container mounts (inputs, scripts, artifacts) is 0755 for a non-root user inside
# the container; the 0700 data dir above keeps the host's other users out of it.
mounted='.*/jobs/[^/]*/\(inputs\|scripts\|artifacts\)'
for dir in $(find "$data/jobs" -mindepth 2 -maxdepth 2 -type d); do
  [ "$(mode_of "$dir")" = 755 ] || fail "mounted dir $dir is 0755 (got $(mode_of "$dir"))"
done
loose=$(find "$data" ! -regex "$mounted" \( \( -type f ! -perm 600 \) -o \( -type d ! -perm 700 \) \))
[ -z "$loose" ] || fail "files not 0600 or folders not 0700: $(for f in $loose; do echo "$(mode_of "$f") $f"; done)"
pass "fresh data dir 0700; database, -wal, -shm, keys, uploads, artifacts 0600; mounted job dirs 0755 inside it"

[ "$(introspect "$FILE_TOKEN")" = 200 ] && jq -e '.active == true' "$WORK/i.json" >/dev/null ||
  fail "introspect with the token of --service-token-file: $(cat "$WORK/i.json")"
[ "$(introspect "$ENV_TOKEN")" = 401 ] || fail "the file wins over JGRID_SERVICE_TOKEN"
ps -o args= -p "$SERVER_PID" >"$WORK/ps.txt"
grep -qF -- "--service-token-file" "$WORK/ps.txt" || fail "ps shows the server: $(cat "$WORK/ps.txt")"
! grep -qF "$FILE_TOKEN" "$WORK/ps.txt" || fail "ps shows the service token: $(cat "$WORK/ps.txt")"
! grep -qF "$FILE_TOKEN" "$WORK/fresh.out" "$WORK/fresh.err" || fail "the service token appears in the server output"
! grep -q 'private' "$WORK/fresh.err" || fail "nothing to tighten in a new data dir: $(cat "$WORK/fresh.err")"
pass "--service-token-file: introspection works, wins over the env var, ps does not show the token"
stop_server

# --- an existing data dir of ours made readable by others, the token from the env
chmod 755 "$data"
chmod 644 "$data/jgrid.db"
JGRID_SERVICE_TOKEN="$ENV_TOKEN" start_server loose --data-dir "$data" --auth keys --keys-file "$WORK/keys.json"
[ "$(mode_of "$data")" = 700 ] || fail "an existing data dir is made 0700 (got $(mode_of "$data"))"
[ "$(mode_of "$data/jgrid.db")" = 600 ] || fail "an existing database is made 0600 (got $(mode_of "$data/jgrid.db"))"
[ "$(grep -c 'private' "$WORK/loose.err")" = 1 ] || fail "one line says what was made private: $(cat "$WORK/loose.err")"
grep -qF "$data" "$WORK/loose.err" || fail "the line names the data dir: $(cat "$WORK/loose.err")"
[ "$(introspect "$ENV_TOKEN")" = 200 ] || fail "introspect with JGRID_SERVICE_TOKEN: $(cat "$WORK/i.json")"
! grep -qF "$ENV_TOKEN" <(ps -o args= -p "$SERVER_PID") || fail "ps shows the service token"
pass "existing data dir tightened to 0700 with one line; JGRID_SERVICE_TOKEN works"
stop_server
start_server again --data-dir "$data"
! grep -q 'private' "$WORK/again.err" || fail "nothing to say once the data dir is private: $(cat "$WORK/again.err")"
stop_server
pass "a private data dir: no line"

# --- the flag wins over both
JGRID_SERVICE_TOKEN="$ENV_TOKEN" start_server flag --ephemeral --auth keys --keys-file "$WORK/keys.json" \
  --service-token svc_from_flag_00000001 --service-token-file "$WORK/token"
[ "$(introspect svc_from_flag_00000001)" = 200 ] || fail "--service-token wins over the file and the env var"
[ "$(introspect "$FILE_TOKEN")" = 401 ] || fail "the file's token is not taken with --service-token given"
stop_server
pass "--service-token wins over --service-token-file and JGRID_SERVICE_TOKEN"

# --- bad tokens: one line naming the option, exit 2
check_bad() {  # check_bad OPTION_NAMED ENV_VALUE ARGS…
  local named="$1" env="$2"; shift 2
  set +e
  JGRID_SERVICE_TOKEN="$env" "$BIN" serve --ephemeral --port 0 "$@" >"$WORK/bad.out" 2>"$WORK/bad.err"
  local code=$?
  set -e
  [ "$code" = 2 ] || fail "$named: exit 2 (got $code): $(cat "$WORK/bad.err")"
  [ "$(wc -l <"$WORK/bad.err")" = 1 ] && grep -qF -- "$named" "$WORK/bad.err" ||
    fail "$named: one line naming it: $(cat "$WORK/bad.err")"
}
check_bad --service-token-file "" --service-token-file "$WORK/missing-token"
printf 'short\n' >"$WORK/short-token"
check_bad --service-token-file "" --service-token-file "$WORK/short-token"
check_bad JGRID_SERVICE_TOKEN "too_short"
check_bad --service-token "" --service-token short
pass "unreadable token file, short tokens: one line naming the option, exit 2"
