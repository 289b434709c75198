#!/bin/bash
# make bench's guest figures: boots the guest as `make vm-test` does (vm.sh: the same kernel,
# initramfs and machine; aarch64 by default, -M virt, Cortex-A53, virtio-gpu) with a screen of
# VM_SCREEN (default 1920x1080), runs Tests/VM/bench-guest.sh there instead of the checks, and
# prints its figures ("NAME VALUE…" lines, see bench-guest.sh) on standard output; what the
# setup and the boot say goes to standard error.
#
#   Tests/VM/bench.sh PREFIX      PREFIX: an installed tree (.build/pi/install for aarch64)
#
# Environment: VM_ARCH (aarch64), VM_SCREEN, BENCH_RUNS (starts of each kind, 5), BENCH_IDLE
# (seconds a board idles, 20); and vm.sh's.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PREFIX=$(readlink -f "$1")
export VM_ARCH=${VM_ARCH:-aarch64}
case "$VM_ARCH" in
  x86_64) export VM_CACHE=${VM_CACHE:-$ROOT/.build/vm-test} ;;
  *) export VM_CACHE=${VM_CACHE:-$ROOT/.build/vm-test/$VM_ARCH} ;;
esac
export VM_SCREEN=${VM_SCREEN:-1920x1080}
"$HERE/vm.sh" setup >&2
"$HERE/vm.sh" initramfs "$PREFIX" >&2
share=$VM_CACHE/share-gx
rm -rf "$share"
mkdir -p "$share"
cp /tmp/gx/guest.sh "$share/guest.sh"
cp "$ROOT/Tests/Fixtures/reference/examples/worked-example.jsonl" "$share/events.jsonl"
echo "${BENCH_RUNS:-5}" > "$share/runs"
echo "${BENCH_IDLE:-20}" > "$share/idle-seconds"
"$HERE/vm.sh" run virtio "$share" >&2 || {
  echo "bench.sh: the guest did not finish (its console: $share/out/console.log)" >&2
  exit 1
}
cat "$share/out/figures"
