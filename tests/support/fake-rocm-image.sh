#!/usr/bin/env bash
# Builds the local test image localhost/jgrid-busybox-rocm:latest: a rootfs
# holding only a static busybox, imported with the label and env of a ROCm
# image (io.junglegrid.runtime=rocm, ROCM_VERSION). No registry is needed.
# Also localhost/jgrid-busybox-nv:latest, the same rootfs labelled
# io.junglegrid.runtime=cuda with CUDA_VERSION (late screening must refuse it
# under ROCm intent; its name says nothing).
# Idempotent: does nothing when the image exists.
# Usage: fake-rocm-image.sh [engine]     engine: podman (default) or docker
# Exit: 0 the image exists; 125 the engine is not installed or does not run
# (a ctest SKIP_RETURN_CODE), 1 instead under CI=true (tests/support/skip.sh);
# 1 the image cannot be built.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/skip.sh"

engine="${1:-podman}"
image="localhost/jgrid-busybox-rocm:latest"
cuda_image="localhost/jgrid-busybox-nv:latest"

command -v "$engine" >/dev/null 2>&1 ||
  skip_or_fail "fake-rocm-image: $engine not installed (apt-get install -y podman runc)"
if ! info="$("$engine" info 2>&1 >/dev/null)"; then
  skip_or_fail "fake-rocm-image: $engine is installed but does not run here (\`$engine info\`: $(tail -n1 <<<"$info"))"
fi
if "$engine" image inspect "$image" >/dev/null 2>&1 && "$engine" image inspect "$cuda_image" >/dev/null 2>&1; then
  exit 0
fi

busybox=""
for candidate in /bin/busybox /usr/bin/busybox "$(command -v busybox || true)"; do
  if [[ -z "$busybox" && -n "$candidate" && -x "$candidate" ]]; then busybox="$candidate"; fi
done
if [[ -z "$busybox" ]]; then
  echo "fake-rocm-image: busybox not found (apt-get install -y busybox-static)" >&2
  exit 1
fi
if ldd "$busybox" >/dev/null 2>&1; then
  echo "fake-rocm-image: $busybox is dynamically linked; install busybox-static" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/rootfs/bin" "$work/rootfs/tmp" "$work/rootfs/workspace"
cp "$busybox" "$work/rootfs/bin/busybox"
for applet in sh echo cat sleep ls printf mkdir rm env seq true false id wc head tail; do
  ln -s busybox "$work/rootfs/bin/$applet"
done
tar -C "$work/rootfs" -cf "$work/rootfs.tar" .
if ! output="$("$engine" import \
      --change 'LABEL io.junglegrid.runtime=rocm' \
      --change 'ENV ROCM_VERSION=6.2.0' \
      --change 'ENV PATH=/bin' \
      "$work/rootfs.tar" "$image" 2>&1)"; then
  echo "fake-rocm-image: $engine import failed: $output" >&2
  exit 1
fi
if ! output="$("$engine" import \
      --change 'LABEL io.junglegrid.runtime=cuda' \
      --change 'ENV CUDA_VERSION=12.4.0' \
      --change 'ENV PATH=/bin' \
      "$work/rootfs.tar" "$cuda_image" 2>&1)"; then
  echo "fake-rocm-image: $engine import failed: $output" >&2
  exit 1
fi
echo "fake-rocm-image: built $image and $cuda_image"
