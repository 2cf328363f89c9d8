#!/usr/bin/env bash
# A real OCI registry on loopback for the tests (docker-registry, i.e.
# distribution 2.8), plain HTTP on 127.0.0.1:PORT, every file under DIR
# (config, storage, pid files, logs, token key and cert), holding test images
# pushed by this script. Every image is the rootfs of
# localhost/jgrid-busybox-rocm:latest (tests/support/fake-rocm-image.sh, run
# from here) with its own config:
#   PORT/team/trainer:rocm-labelled  label io.junglegrid.runtime=rocm and
#                                    org.opencontainers.image.vendor=AMD,
#                                    env ROCM_VERSION=6.2.0
#   PORT/team/labelled:1.0           the same image (its name says nothing)
#   PORT/team/labelled:1.0-v2s2      the same again as a Docker v2 schema 2
#                                    manifest (every other image is OCI)
#   PORT/team/trainer:1.4            env NVIDIA_VISIBLE_DEVICES=all,
#                                    CUDA_VERSION=12.4.1,
#                                    NVIDIA_REQUIRE_CUDA=cuda>=12.4; no ROCm
#   PORT/team/multi:2.0              OCI image index: linux/amd64 labelled
#                                    rocm with ROCM_VERSION=6.2.0, linux/arm64
#                                    with CUDA_VERSION=12.4.1
#   PORT/team/plain:1.0              no label, no GPU env
#   PORT/public/rocm-app:1.0         (--token only) = team/labelled:1.0,
#                                    anonymous clients may pull it
# Every config also has ENV PATH=/bin, so the images run (busybox sh).
# Note: distribution 2.8 answers 404 MANIFEST_UNKNOWN to a manifest GET whose
# Accept header does not list the OCI media types; send them.
#
# With --token the registry wants bearer tokens (realm
# http://127.0.0.1:PORT+1/token, service jgrid-test-registry, issuer
# jgrid-test-issuer) from tests/support/token_issuer.py started on PORT+1,
# which signs with a self-signed key and cert generated into DIR. User
# tester, password secret (DIR/credentials holds `tester:secret`) gets what
# it asks for; anonymous clients get pull on public/* only.
#
# Usage: registry.sh start DIR PORT [--token]
#          prints `registry: 127.0.0.1:PORT (token auth: on|off)` when ready;
#          a registry already started from DIR is stopped and its storage
#          emptied first
#        registry.sh stop DIR   stops the registry and issuer started from DIR
# Exit: 0 ok; 125 (1 under CI=true) a tool is missing (docker-registry,
# podman, curl; openssl and python3 with --token; tests/support/skip.sh);
# 1 the registry or the issuer did not come up, or a push failed (logs are
# printed); 2 usage.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/skip.sh"

usage() {
  echo "usage: registry.sh start DIR PORT [--token] | registry.sh stop DIR" >&2
  exit 2
}

action="${1:-}"
[ -n "${2:-}" ] || usage
dir="$(mkdir -p "$2" && cd "$2" && pwd)"
base_image="localhost/jgrid-busybox-rocm:latest"
service="jgrid-test-registry"
issuer="jgrid-test-issuer"

# stop_pid FILE NAME : kills the process of pid file FILE if its command line
# still names NAME (not a reused pid), waits for it to exit (SIGKILL after 5s).
stop_pid() {
  local file="$1" name="$2" pid
  [ -e "$file" ] || return 0
  pid="$(cat "$file")"
  rm -f "$file"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  grep -qa -- "$name" "/proc/$pid/cmdline" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
}

stop() {
  stop_pid "$dir/registry.pid" docker-registry
  stop_pid "$dir/token_issuer.pid" token_issuer.py
}

# http_code URL : the status of GET URL ("000" when nothing answers).
http_code() {
  curl -s -o /dev/null -m 2 -w '%{http_code}' "$1" 2>/dev/null || true
}

# port_free PORT : fails unless nothing listens on 127.0.0.1:PORT (else the
# wait below could take another server's answer for ours).
port_free() {
  if [ "$(http_code "http://127.0.0.1:$1/")" != 000 ]; then
    echo "registry: port $1 is already in use" >&2
    exit 1
  fi
}

# wait_for URL CODE PID LOG NAME : until GET URL answers CODE.
wait_for() {
  local url="$1" code="$2" pid="$3" log="$4" name="$5"
  for _ in $(seq 1 100); do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "registry: $name exited early; $log:" >&2
      tail -n 30 "$log" >&2 || true
      exit 1
    fi
    [ "$(http_code "$url")" = "$code" ] && return 0
    sleep 0.1
  done
  echo "registry: $name did not answer $code on $url; $log:" >&2
  tail -n 30 "$log" >&2 || true
  exit 1
}

write_config() {
  local port="$1" token="$2"
  cat >"$dir/config.yml" <<CONF
version: 0.1
log:
  level: info
storage:
  filesystem:
    rootdirectory: $dir/storage
  delete:
    enabled: true
http:
  addr: 127.0.0.1:$port
  secret: jgrid-test-registry-secret
  headers:
    X-Content-Type-Options: [nosniff]
CONF
  if [ "$token" = on ]; then
    cat >>"$dir/config.yml" <<CONF
auth:
  token:
    realm: http://127.0.0.1:$((port + 1))/token
    service: $service
    issuer: $issuer
    rootcertbundle: $dir/token.crt
CONF
  fi
}

start_issuer() {
  local port="$1"
  printf 'tester:secret\n' >"$dir/credentials"
  if ! out="$(openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=$issuer" \
        -keyout "$dir/token.key" -out "$dir/token.crt" 2>&1)"; then
    echo "registry: openssl cannot make the token key: $out" >&2
    exit 1
  fi
  python3 "$here/token_issuer.py" --port "$port" --key "$dir/token.key" --cert "$dir/token.crt" \
    --credentials "$dir/credentials" --service "$service" --issuer "$issuer" \
    </dev/null >"$dir/token_issuer.out" 2>"$dir/token_issuer.log" &
  echo $! >"$dir/token_issuer.pid"
  wait_for "http://127.0.0.1:$port/token?service=$service" 200 "$!" "$dir/token_issuer.log" "the token issuer"
}

# The one layer of the base image, a gzipped tar, into $work/rootfs.tar.gz.
base_layer() {
  local manifest layer
  # fake-rocm-image.sh exits 125 (1 under CI) when podman does not run.
  podman image inspect "$base_image" >/dev/null 2>&1 || "$here/fake-rocm-image.sh" podman >/dev/null
  if ! out="$(podman save --format oci-dir -o "$work/base" "$base_image" 2>&1)"; then
    echo "registry: podman save $base_image failed: $out" >&2
    exit 1
  fi
  manifest="$(grep -o '"digest":"sha256:[0-9a-f]*"' "$work/base/index.json" | head -n1 | cut -d'"' -f4)"
  layer="$(sed 's/.*"layers":\[//' "$work/base/blobs/sha256/${manifest#sha256:}" |
    grep -o 'sha256:[0-9a-f]*' | head -n1)"
  mv "$work/base/blobs/sha256/${layer#sha256:}" "$work/rootfs.tar.gz"
  rm -rf "$work/base"
}

# run WHAT COMMAND… : runs COMMAND, its output shown only if it fails.
run() {
  local what="$1" out
  shift
  if ! out="$("$@" 2>&1)"; then
    echo "registry: $what failed: $out" >&2
    tail -n 20 "$dir/registry.log" >&2 || true
    exit 1
  fi
}

# import NAME [podman import options…] : a local image from the base layer.
import() {
  local name="$1"
  shift
  run "podman import $name" podman import -q "$@" --change 'ENV PATH=/bin' "$work/rootfs.tar.gz" "$local_prefix/$name"
  local_images+=("$local_prefix/$name")
}

# push NAME REF [podman push options…]
push() {
  local name="$1" ref="$2"
  shift 2
  run "podman push $ref" podman push -q --tls-verify=false "${creds[@]}" "$@" "$local_prefix/$name" "docker://$registry/$ref"
}

push_images() {
  local token="$1"
  work="$(mktemp -d)"
  local_prefix="localhost/jgrid-registry-test-$port"
  creds=()
  if [ "$token" = on ]; then creds=(--creds tester:secret); fi
  base_layer

  import rocm --change 'LABEL io.junglegrid.runtime=rocm' \
    --change 'LABEL org.opencontainers.image.vendor=AMD' --change 'ENV ROCM_VERSION=6.2.0'
  push rocm team/trainer:rocm-labelled
  push rocm team/labelled:1.0
  push rocm team/labelled:1.0-v2s2 --format v2s2
  if [ "$token" = on ]; then push rocm public/rocm-app:1.0; fi

  import cuda --change 'ENV NVIDIA_VISIBLE_DEVICES=all' --change 'ENV CUDA_VERSION=12.4.1' \
    --change 'ENV NVIDIA_REQUIRE_CUDA=cuda>=12.4'
  push cuda team/trainer:1.4

  import plain
  push plain team/plain:1.0

  import multi-amd64 --os linux --arch amd64 \
    --change 'LABEL io.junglegrid.runtime=rocm' --change 'ENV ROCM_VERSION=6.2.0'
  import multi-arm64 --os linux --arch arm64 --change 'ENV CUDA_VERSION=12.4.1'
  podman manifest rm "$local_prefix/multi" >/dev/null 2>&1 || true
  run "podman manifest create" podman manifest create "$local_prefix/multi"
  for arch in amd64 arm64; do
    run "podman manifest add $arch" podman manifest add "$local_prefix/multi" \
      "containers-storage:$local_prefix/multi-$arch"
  done
  run "podman manifest push team/multi:2.0" podman manifest push -q --all --tls-verify=false \
    "${creds[@]}" "$local_prefix/multi" "docker://$registry/team/multi:2.0"
}

# On exit from start: drops the work directory and the local images; after a
# failure also stops what was started, so that a failed start leaves nothing.
start_cleanup() {
  local status=$?
  if [ -n "$work" ]; then rm -rf "$work"; fi
  if [ -n "$local_prefix" ]; then
    podman manifest rm "$local_prefix/multi" >/dev/null 2>&1 || true
    if [ ${#local_images[@]} -gt 0 ]; then podman rmi -f "${local_images[@]}" >/dev/null 2>&1 || true; fi
  fi
  if [ "$status" -ne 0 ]; then stop; fi
  exit "$status"
}

start() {
  local port="${1:-}" token=off
  [[ "$port" =~ ^[0-9]+$ ]] || usage
  case "${2:-}" in
    "") ;;
    --token) token=on ;;
    *) usage ;;
  esac
  require_tool docker-registry "apt-get install -y docker-registry"
  require_tool podman "apt-get install -y podman runc"
  require_tool curl "apt-get install -y curl"
  if [ "$token" = on ]; then
    require_tool openssl "apt-get install -y openssl"
    require_tool python3 "apt-get install -y python3"
  fi
  registry="127.0.0.1:$port"
  work=""
  local_prefix=""
  local_images=()
  trap start_cleanup EXIT
  stop
  port_free "$port"
  if [ "$token" = on ]; then port_free $((port + 1)); fi
  rm -rf "$dir/storage"
  mkdir -p "$dir/storage"
  write_config "$port" "$token"
  if [ "$token" = on ]; then start_issuer $((port + 1)); fi
  docker-registry serve "$dir/config.yml" </dev/null >"$dir/registry.log" 2>&1 &
  echo $! >"$dir/registry.pid"
  local want=200
  if [ "$token" = on ]; then want=401; fi
  wait_for "http://$registry/v2/" "$want" "$!" "$dir/registry.log" "docker-registry"
  push_images "$token"
  echo "registry: $registry (token auth: $token)"
}

case "$action" in
  start) shift 2; start "$@" ;;
  stop) [ $# -eq 2 ] || usage; stop ;;
  *) usage ;;
esac
