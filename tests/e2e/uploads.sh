#!/usr/bin/env bash
# Uploads. An uploaded input is durable before the row that records its sha256: the
# server fsyncs the received file, renames it into place, fsyncs the uploads
# directory, and only then commits the row (traced with strace on the real
# server). The blob is readable by the server's user only.
source "$(dirname "$0")/../support/e2e_lib.sh"
require_tool strace
start_server durable --data-dir "$WORK/data"
strace -f -y -qq -e trace=fsync,fdatasync,rename,renameat,renameat2 -p "$SERVER_PID" -o "$WORK/trace" &
tracer=$!
sleep 1  # strace attaches to every thread before the upload starts
upload=$(curl -fsS -X POST "$URL/v1/job-inputs" -H 'Content-Type: application/json' -d '{"filename":"data.csv"}')
put_url=$(echo "$upload" | jq -r .upload.upload_url)
complete_url=$(echo "$upload" | jq -r .upload.complete_url)
token=$(echo "$upload" | jq -r .upload.token)
id=$(echo "$upload" | jq -r .upload.input_id)
curl -fsS -X PUT --data-binary 'a,b\n1,2\n' "$put_url" >/dev/null
curl -fsS -X POST "$complete_url" -H 'Content-Type: application/json' -d "{\"token\":\"$token\"}" >/dev/null
sleep 0.5
kill "$tracer"; wait "$tracer" 2>/dev/null || true

line_of() { grep -n "$1" "$WORK/trace" | head -n1 | cut -d: -f1; }
file_sync=$(line_of "fsync([0-9]*</[^>]*uploads/$id\.part-")
renamed=$(line_of "rename.*uploads/$id\.part-.*uploads/$id\"")
dir_sync=$(line_of "fsync([0-9]*</[^>]*/uploads>)")
row_sync=$(awk -v after="${dir_sync:-0}" 'NR > after && /f(data)?sync\([0-9]+<[^>]*jgrid\.db/ { print NR; exit }' "$WORK/trace")
[ -n "$file_sync" ] && [ -n "$renamed" ] && [ -n "$dir_sync" ] && [ -n "$row_sync" ] ||
  { cat "$WORK/trace" >&2; fail "missing step: file fsync '$file_sync', rename '$renamed', dir fsync '$dir_sync', row commit '$row_sync'"; }
[ "$file_sync" -lt "$renamed" ] && [ "$renamed" -lt "$dir_sync" ] && [ "$dir_sync" -lt "$row_sync" ] ||
  { cat "$WORK/trace" >&2; fail "order: file fsync $file_sync, rename $renamed, dir fsync $dir_sync, row $row_sync"; }
pass "upload: file fsync, rename, directory fsync, then the row's commit (strace lines $file_sync < $renamed < $dir_sync < $row_sync)"

mode=$(stat -c %a "$WORK/data/uploads/$id")
[ "$mode" = 600 ] || fail "blob mode $mode, not 600"
pass "the blob is 0600"

# Expiry: a slot past --upload-ttl is refused, and swept with its bytes at the next start.
kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
start_server short --data-dir "$WORK/data" --upload-ttl 1
late=$(curl -fsS -X POST "$URL/v1/job-inputs" -H 'Content-Type: application/json' -d '{"filename":"late.csv"}')
half=$(curl -fsS -X POST "$URL/v1/job-inputs" -H 'Content-Type: application/json' -d '{"filename":"half.csv"}')
half_id=$(echo "$half" | jq -r .upload.input_id)
curl -fsS -X PUT --data-binary 'x' "$(echo "$half" | jq -r .upload.upload_url)" >/dev/null
sleep 1.5
code=$(curl -sS -o "$WORK/late.json" -w '%{http_code}' -X PUT --data-binary 'x' "$(echo "$late" | jq -r .upload.upload_url)")
[ "$code" = 403 ] && grep -q expired "$WORK/late.json" || fail "PUT after expiry: $code $(cat "$WORK/late.json")"
code=$(curl -sS -o "$WORK/half.json" -w '%{http_code}' -X POST "$(echo "$half" | jq -r .upload.complete_url)" \
  -H 'Content-Type: application/json' -d "{\"token\":\"$(echo "$half" | jq -r .upload.token)\"}")
[ "$code" = 403 ] && grep -q expired "$WORK/half.json" || fail "complete after expiry: $code $(cat "$WORK/half.json")"
pass "PUT and complete after expires_at are 403 saying the slot expired"
kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
start_server swept --data-dir "$WORK/data" --upload-ttl 1
for _ in $(seq 1 50); do [ -e "$WORK/data/uploads/$half_id" ] || break; sleep 0.1; done
[ ! -e "$WORK/data/uploads/$half_id" ] || fail "expired slot's bytes still on disk"
curl -fsS "$URL/v1/job-inputs" | grep -q "$half_id" && fail "expired slot still listed"
curl -fsS "$URL/v1/job-inputs" | grep -q "$id" || fail "the ready input was swept too"
pass "expired slots are deleted with their bytes at start; the ready input stays"
