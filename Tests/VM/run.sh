#!/bin/bash
# make vm-test: the kiosk path on a real kernel. Boots Debian's kernel in QEMU with each display
# device (standard VGA → bochs, virtio-gpu, cirrus at 16 bits a pixel), runs the installed board
# on DRM and on the framebuffer, and checks each screen against `snapshot` of the same moment,
# the night's DPMS, the exit status and the console after SIGTERM (Tests/VM/check.py).
#
#   Tests/VM/run.sh PREFIX [DEVICE...]     PREFIX: an installed tree (make install DESTDIR=…)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PREFIX=$(readlink -f "$1")
shift
DEVICES=${*:-std virtio cirrus}
CACHE=${VM_CACHE:-$ROOT/.build/vm-test}
export VM_CACHE=$CACHE
"$HERE/vm.sh" setup
"$HERE/vm.sh" initramfs "$PREFIX"
# No Mesa, EGL, GBM or LLVM: the DRM display needs none of them.
if grep -Ei 'mesa|libGL|libEGL|libgbm|LLVM|_dri\.so' "$CACHE/initramfs.files"; then
  echo "FAIL: the initramfs holds a GL stack"
  exit 1
fi
echo "PASS: the initramfs ($(stat -c %s "$CACHE/initramfs.cpio") bytes) holds no Mesa, EGL, GBM or LLVM"
status=0
for device in $DEVICES; do
  share="$CACHE/share-$device"
  rm -rf "$share"
  mkdir -p "$share"
  cp "$HERE/guest.sh" "$share/guest.sh"
  cp "$ROOT/Tests/Fixtures/reference/examples/worked-example.jsonl" "$share/events.jsonl"
  # Idle CPU is measured on one device: 20 s of emulated time each would add a minute.
  [ "$device" = std ] && echo 20 > "$share/idle-seconds"
  if ! "$HERE/vm.sh" run "$device" "$share"; then
    status=1
    continue
  fi
  cp "$CACHE/initramfs.files" "$share/initramfs.files"
  python3 -B "$HERE/check.py" "$share/out" "$device" "$PREFIX/bin/wallboard" "$share/events.jsonl" || status=1
done
exit $status
