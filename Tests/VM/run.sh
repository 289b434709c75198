#!/bin/bash
# make vm-test: the kiosk path on a real kernel. Boots Debian's kernel in QEMU with each display
# device (x86_64: standard VGA → bochs, virtio-gpu, cirrus at 16 bits a pixel; aarch64: virtio-gpu),
# runs the installed board on DRM and on the framebuffer, and checks each screen against
# `snapshot` of the same moment, the night's DPMS, the exit status and the console after SIGTERM
# (Tests/VM/check.py). Idle CPU is measured on the first device.
#
#   Tests/VM/run.sh PREFIX [DEVICE...]     PREFIX: an installed tree (make install DESTDIR=…)
#   VM_ARCH=aarch64 Tests/VM/run.sh .build/pi/install [virtio]     the arm64 tree of make pi
#
# The aarch64 guest's screens are checked against the snapshot of the same arm64 binary, run on
# the host under qemu-user (qemu-aarch64-static -L VM_SYSROOT). Environment: see vm.sh.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PREFIX=$(readlink -f "$1")
shift
ARCH=${VM_ARCH:-x86_64}
case "$ARCH" in
  x86_64)
    DEVICES=${*:-std virtio cirrus}
    CACHE=${VM_CACHE:-$ROOT/.build/vm-test}
    SNAPSHOT=$PREFIX/bin/wallboard
    ;;
  aarch64)
    DEVICES=${*:-virtio}
    CACHE=${VM_CACHE:-$ROOT/.build/vm-test/aarch64}
    SYSROOT=$(readlink -f "${VM_SYSROOT:-$ROOT/.build/pi/sysroot}")
    command -v qemu-aarch64-static > /dev/null || { echo "FAIL: no qemu-aarch64-static (qemu-user-static) for the host's snapshots"; exit 1; }
    mkdir -p "$CACHE"
    SNAPSHOT=$CACHE/wallboard-user
    printf '#!/bin/sh\nexec qemu-aarch64-static -L %q %q "$@"\n' "$SYSROOT" "$PREFIX/bin/wallboard" > "$SNAPSHOT"
    chmod +x "$SNAPSHOT"
    ;;
  *)
    echo "run.sh: VM_ARCH=$ARCH: x86_64 or aarch64" >&2
    exit 2
    ;;
esac
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
  [ "$device" = "${DEVICES%% *}" ] && echo 20 > "$share/idle-seconds"
  name=$device
  [ "$ARCH" = x86_64 ] || name=$ARCH-$device
  if ! "$HERE/vm.sh" run "$device" "$share"; then
    echo "FAIL $name: the guest did not finish (its console: $share/out/console.log)"
    status=1
    continue
  fi
  cp "$CACHE/initramfs.files" "$share/initramfs.files"
  "${PYTHON:-python3}" -B "$HERE/check.py" "$share/out" "$device" "$SNAPSHOT" "$share/events.jsonl" "$name" || status=1
done
exit $status
