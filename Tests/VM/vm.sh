#!/bin/bash
# vm.sh — boots a throwaway QEMU guest (TCG: software emulation) on Debian's own kernel with a
# busybox initramfs holding an installed Wallboard tree, one emulated display device (bochs,
# virtio-gpu or cirrus) and a 9p share at /host; the guest asks the host for QMP screendumps.
#
#   vm.sh setup                      installs the Debian packages, fetches and unpacks the kernel
#   vm.sh initramfs PREFIX           builds the initramfs from an installed tree (PREFIX/bin/wallboard,
#                                    PREFIX/share/wallboard) and the shared libraries it needs
#   vm.sh run VGA SHARE [ARGS...]    boots; VGA is std, virtio or cirrus; SHARE is a host folder
#                                    holding guest.sh; ARGS go on the kernel command line
#
# Everything is cached under VM_CACHE (default .build/vm-test): a second setup downloads nothing. The
# kernel package is the one linux-image-amd64 depends on, fetched with `apt-get download` and
# unpacked with `dpkg-deb -x`: the host's /boot is never touched.
# Environment: VM_TIMEOUT (seconds a boot may take, 300), VM_MEM (MiB, 768).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CACHE=${VM_CACHE:-$ROOT/.build/vm-test}
TIMEOUT=${VM_TIMEOUT:-300}
MEM=${VM_MEM:-768}
# No vt.global_cursor_default=0: the console's blinking cursor is there, and it is the board's
# job (KD_GRAPHICS) to keep it, and any console text, off the screen.
APPEND_BASE="console=ttyS0 panic=-1 consoleblank=0 loglevel=4"

# Modules, loaded with their dependencies (modprobe --show-depends on the kernel's own tree).
MODS_BASE="virtio_pci 9pnet_virtio 9p"
MODS_DISPLAY="bochs virtio-gpu cirrus"

log() { echo "vm.sh: $*" >&2; }
kver() { cat "$CACHE/kver"; }
kroot() { echo "$CACHE/kernel"; }

cmd_setup() {
  local need="" p
  for p in qemu-system-x86 busybox-static kmod cpio python3 python3-pil binutils; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
  done
  if [ -n "$need" ]; then
    log "installing:$need"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need
  fi
  mkdir -p "$CACHE"
  if [ ! -f "$CACHE/kver" ]; then
    local pkg deb v
    # linux-image-amd64 → linux-image-6.1.0-NN-amd64
    pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
    [ -n "$pkg" ] || { log "cannot find the kernel package linux-image-amd64 depends on"; exit 1; }
    (cd "$CACHE" && apt-get download "$pkg" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
    deb=$(ls "$CACHE"/"$pkg"_*.deb | head -1)
    rm -rf "$CACHE/kernel" && dpkg-deb -x "$deb" "$CACHE/kernel"
    v=${pkg#linux-image-}
    depmod -b "$CACHE/kernel" "$v"  # the package ships no modules.dep (its postinst makes it)
    echo "$pkg $(dpkg-deb -f "$deb" Version)" > "$CACHE/kpkg"
    echo "$v" > "$CACHE/kver"
  fi
  if [ ! -f "$CACHE/vmlinux" ]; then
    # The bzImage's payload is XZ, which takes ~7 s to unpack under TCG: unpack it here once; the
    # ELF kernel has a PVH entry, which QEMU boots directly.
    python3 -c 'import lzma,sys; d=open(sys.argv[1],"rb").read(); i=d.find(b"\xfd7zXZ\0")
open(sys.argv[2],"wb").write(lzma.LZMADecompressor().decompress(d[i:]))' \
      "$(kroot)/boot/vmlinuz-$(kver)" "$CACHE/vmlinux.tmp" && mv "$CACHE/vmlinux.tmp" "$CACHE/vmlinux"
  fi
  log "kernel: $(cat "$CACHE/kpkg")"
}

# The .ko files (paths in the kernel tree) of the modules given and their dependencies, in load order.
mod_closure() {
  local m
  for m in "$@"; do
    modprobe -d "$(kroot)" -S "$(kver)" --show-depends "$m" | awk '$1=="insmod"{print $2}'
  done | awk '!seen[$0]++' | sed "s|^$(kroot)/||"
}

# Copies the libraries `ldd` lists for $2 (the dynamic loader too) into $1 at their own paths.
copy_libs() {
  local f
  for f in $(ldd "$2" | grep -o '/[^ ]*'); do
    [ -e "$f" ] && install -D -m755 "$(readlink -f "$f")" "$1$f"
  done
}

cmd_initramfs() {
  local prefix=$1
  [ -x "$prefix/bin/wallboard" ] || { log "no $prefix/bin/wallboard (make install DESTDIR=… first)"; exit 1; }
  [ -f "$CACHE/kver" ] || cmd_setup
  local R="$CACHE/initramfs.d" v ko list mods
  v=$(kver)
  rm -rf "$R"
  mkdir -p "$R"/{bin,sbin,etc,proc,sys,dev,host,tmp,run,usr/local/bin,usr/local/share,usr/share/zoneinfo,lib/modules/$v}
  cp /bin/busybox "$R/bin/busybox"
  ln -s busybox "$R/bin/sh"
  for list in base display; do
    [ $list = base ] && mods=$MODS_BASE || mods=$MODS_DISPLAY
    : > "$R/etc/modules.$list"
    for ko in $(mod_closure $mods); do
      grep -qx "$(basename "$ko")" "$R/etc/modules.base" 2>/dev/null && continue
      cp "$(kroot)/$ko" "$R/lib/modules/$v/"
      basename "$ko" >> "$R/etc/modules.$list"
    done
  done
  # The board: its binary (without symbols: 30 % less to load), its data and its libraries.
  strip -o "$R/usr/local/bin/wallboard" "$prefix/bin/wallboard"
  cp -R "$prefix/share/wallboard" "$R/usr/local/share/"
  copy_libs "$R" "$prefix/bin/wallboard"
  cp -L /usr/share/zoneinfo/UTC "$R/usr/share/zoneinfo/UTC"
  install -m755 "$HERE/init" "$R/init"
  install -m755 "$HERE/vmsnap" "$R/bin/vmsnap"
  # What the initramfs holds, for the check that no Mesa, EGL or LLVM came along.
  (cd "$R" && find . -type f | LC_ALL=C sort) > "$CACHE/initramfs.files"
  # Uncompressed: QEMU loads it into memory as it is; unpacking gzip under TCG costs seconds.
  (cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$CACHE/initramfs.cpio"
  log "initramfs: $(stat -c %s "$CACHE/initramfs.cpio") bytes, kernel $(cat "$CACHE/kpkg")"
}

cmd_run() {
  local vga=$1 share
  share=$(readlink -f "$2")
  shift 2
  [ -f "$CACHE/initramfs.cpio" ] || { log "no initramfs: run vm.sh initramfs PREFIX first"; exit 1; }
  local out="$share/out" qmp="$share/qmp.sock" vgaopt
  rm -rf "$out" "$qmp"
  mkdir -p "$out"
  case "$vga" in
    std) vgaopt=(-vga std) ;;
    cirrus) vgaopt=(-vga cirrus) ;;
    virtio) vgaopt=(-vga none -device virtio-vga) ;;
    *) log "unknown display device $vga (std, virtio, cirrus)"; exit 2 ;;
  esac
  local -a cmd=(qemu-system-x86_64 -accel tcg -m "$MEM" -smp 1 -no-reboot
    -kernel "$CACHE/vmlinux" -initrd "$CACHE/initramfs.cpio" -append "$APPEND_BASE $*"
    "${vgaopt[@]}" -display none -serial stdio -monitor none
    -virtfs "local,path=$share,mount_tag=host,security_model=none,id=host"
    -qmp "unix:$qmp,server=on,wait=off" -nic none)
  printf '%q ' "${cmd[@]}" > "$out/qemu-cmdline"
  # The screendump server: the guest writes out/ready.NAME, the host dumps out/NAME.png, then
  # writes out/go.NAME.
  (
    while :; do
      for r in "$out"/ready.*; do
        [ -e "$r" ] || continue
        n=${r##*/ready.}
        rm -f "$r"
        python3 -B "$HERE/qmp.py" "$qmp" screendump "$out/$n.png" >> "$out/qmp.log" 2>&1 || true
        touch "$out/go.$n"
      done
      sleep 0.05
    done
  ) &
  local server=$! t0=$EPOCHREALTIME rc=0
  timeout "$TIMEOUT" "${cmd[@]}" < /dev/null > "$out/console.log" 2>&1 || rc=$?
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null || true
  awk -v a="$t0" -v b="$EPOCHREALTIME" -v v="$vga" 'BEGIN{printf "%s: the guest ran %.1f s\n", v, b-a}' | tee "$out/times"
  [ -f "$out/poweroff" ] || { log "$vga: the guest did not finish (qemu status $rc; see $out/console.log)"; return 1; }
}

case "${1:-}" in
  setup) cmd_setup ;;
  initramfs) cmd_initramfs "${2:?vm.sh initramfs PREFIX}" ;;
  run) shift; cmd_run "$@" ;;
  *) sed -n '2,14p' "$0"; exit 2 ;;
esac
