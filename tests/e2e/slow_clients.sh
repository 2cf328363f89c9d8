#!/usr/bin/env bash
# Slow and greedy clients against the built binary (bench/slow_clients.py at a
# test's scale, on a small pool so a regression shows at once): a flood of
# 16 MB request heads is refused with 431 without growing the server's memory;
# while 120 connections trickle their heads and 60 event feeds of one key stay
# open, /healthz and an authenticated GET /v1/jobs/{id} answer within 1 s at
# the 99th percentile, feeds beyond the stream caps get 429, and afterwards
# threads and memory are back near where they were. Plain HTTP, then TLS.
source "$(dirname "$0")/../support/e2e_lib.sh"
require_tool python3 "drives the slow clients: apt-get install python3"
require_tool openssl "makes the test certificates: apt-get install openssl"
certs="$WORK/certs"
bash "$ROOT/tests/support/tls-certs.sh" "$certs" >/dev/null || exit $?

scale=(--slow 120 --feeds 60 --seconds 6 --floods 2 --flood-mb 16 --settle 6 --check
       --serve-arg=--max-connections --serve-arg=32 --serve-arg=--max-streams --serve-arg=16
       --serve-arg=--max-streams-per-key --serve-arg=8 --serve-arg=--header-timeout --serve-arg=3)
python3 "$ROOT/bench/slow_clients.py" "$BIN" "${scale[@]}" || fail "plain HTTP under slow clients"
pass "plain HTTP: slow heads, idle feeds and header floods leave the API answering"
python3 "$ROOT/bench/slow_clients.py" "$BIN" --tls "$certs" "${scale[@]}" || fail "HTTPS under slow clients"
pass "HTTPS: slow heads, idle feeds and header floods leave the API answering"
