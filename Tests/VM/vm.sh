#!/bin/bash
# vm.sh — boots a throwaway QEMU guest (TCG: software emulation) on Debian's own kernel with a
# busybox initramfs holding an installed Wallboard tree, one emulated display device and a 9p
# share at /host; the guest asks the host for QMP screendumps. VM_ARCH chooses the guest:
#   x86_64 (default)  qemu-system-x86_64, linux-image-amd64, the host's busybox and libraries;
#                     display devices std (bochs), virtio (virtio-vga) and cirrus
#   aarch64           qemu-system-aarch64 -M virt -cpu cortex-a53 (a Raspberry Pi 3's core),
#                     bookworm's linux-image-arm64 and busybox-static:arm64 (a private apt:
#                     scripts/private-apt.sh, the machine's apt untouched, nothing arm64
#                     installed), the board's libraries from VM_SYSROOT (default .build/pi/sysroot,
#                     make pi's); display device virtio (virtio-gpu-pci)
#
#   vm.sh setup                      installs the Debian packages, fetches and unpacks the kernel
#   vm.sh initramfs PREFIX           builds the initramfs from an installed tree (PREFIX/bin/wallboard,
#                                    PREFIX/share/wallboard) and the shared libraries it needs
#   vm.sh run VGA SHARE [ARGS...]    boots; VGA is a display device above; SHARE is a host folder
#                                    holding guest.sh; ARGS go on the kernel command line
#
# Everything is cached under VM_CACHE (default .build/vm-test, .build/vm-test/aarch64 for aarch64):
# a second setup downloads nothing. The kernel package is the one linux-image-amd64 (arm64)
# depends on, fetched with `apt-get download` and unpacked with `dpkg-deb -x`: the host's /boot is
# never touched.
# Environment: VM_ARCH, VM_CACHE, VM_SYSROOT, VM_TIMEOUT (seconds a boot may take, 300), VM_MEM (MiB, 768),
# VM_SCREEN (WxH: the virtio device's screen, its xres × yres; QEMU's default is 1280x800).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ARCH=${VM_ARCH:-x86_64}
TIMEOUT=${VM_TIMEOUT:-300}
MEM=${VM_MEM:-768}
# Modules, loaded with their dependencies (modprobe --show-depends on the kernel's own tree).
MODS_BASE="virtio_pci 9pnet_virtio 9p"
case "$ARCH" in
  x86_64)
    CACHE=${VM_CACHE:-$ROOT/.build/vm-test}
    PACKAGES="qemu-system-x86 busybox-static kmod cpio python3 python3-pil binutils"
    CONSOLE=ttyS0
    MODS_DISPLAY="bochs virtio-gpu cirrus"
    ;;
  aarch64)
    CACHE=${VM_CACHE:-$ROOT/.build/vm-test/aarch64}
    SYSROOT=${VM_SYSROOT:-$ROOT/.build/pi/sysroot}
    PACKAGES="qemu-system-arm qemu-user-static kmod cpio python3 python3-pil binutils"
    CONSOLE=ttyAMA0
    MODS_DISPLAY="virtio-gpu"
    ;;
  *)
    echo "vm.sh: VM_ARCH=$ARCH: x86_64 or aarch64" >&2
    exit 2
    ;;
esac
# No vt.global_cursor_default=0: the console's blinking cursor is there, and it is the board's
# job (KD_GRAPHICS) to keep it, and any console text, off the screen.
APPEND_BASE="console=$CONSOLE panic=-1 consoleblank=0 loglevel=4"

log() { echo "vm.sh: $*" >&2; }
kver() { cat "$CACHE/kver"; }
# The name a device's lines go by: std, virtio, cirrus on x86_64; aarch64-virtio.
label() { if [ "$ARCH" = x86_64 ]; then echo "$1"; else echo "$ARCH-$1"; fi; }
kroot() { echo "$CACHE/kernel"; }

cmd_setup() {
  local need="" p
  for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
  done
  if [ -n "$need" ]; then
    log "installing:$need"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need
  fi
  mkdir -p "$CACHE"
  if [ "$ARCH" = aarch64 ]; then
    setup_aarch64
    return
  fi
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

# The arm64 kernel (its Image is not compressed: QEMU boots it as it is) and busybox, from
# bookworm through a private apt under $CACHE/apt: the machine's apt and packages untouched.
setup_aarch64() {
  if [ ! -f "$CACHE/kver" ] || [ ! -x "$CACHE/busybox" ]; then
    local keyring=/usr/share/keyrings/debian-archive-keyring.gpg mirror=http://deb.debian.org/debian pkg deb v
    die() {
      log "$*"
      exit 1
    }
    # shellcheck source=scripts/private-apt.sh
    . "$ROOT/scripts/private-apt.sh"
    private_apt_options "$CACHE/apt" arm64
    private_apt_update "deb [arch=arm64 signed-by=$keyring] $mirror bookworm main" \
      "deb [arch=arm64 signed-by=$keyring] $mirror bookworm-updates main" \
      "deb [arch=arm64 signed-by=$keyring] http://deb.debian.org/debian-security bookworm-security main"
    pkg=$(apt-cache "${APT[@]}" depends linux-image-arm64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
    [ -n "$pkg" ] || die "cannot find the kernel package linux-image-arm64 depends on"
    rm -f "$A/debs"/*.deb
    (cd "$A/debs" && apt-get -q "${APT[@]}" download "$pkg" busybox-static) > "$A/download.log" 2>&1 \
      || { cat "$A/download.log" >&2; die "apt-get download $pkg busybox-static (arm64)"; }
    deb=$(ls "$A/debs/${pkg}"_*.deb)
    rm -rf "$CACHE/kernel" "$CACHE/busybox.d"
    dpkg-deb -x "$deb" "$CACHE/kernel"
    v=${pkg#linux-image-}
    depmod -b "$CACHE/kernel" "$v"
    echo "$pkg $(dpkg-deb -f "$deb" Version)" > "$CACHE/kpkg"
    dpkg-deb -x "$A/debs"/busybox-static_*.deb "$CACHE/busybox.d"
    install -m755 "$CACHE/busybox.d/bin/busybox" "$CACHE/busybox"
    echo "busybox-static $(dpkg-deb -f "$A/debs"/busybox-static_*.deb Version)" >> "$CACHE/kpkg"
    rm -rf "$CACHE/busybox.d" "$A/debs"/*.deb
    echo "$v" > "$CACHE/kver"
  fi
  log "kernel: $(tr '\n' ' ' < "$CACHE/kpkg")"
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

# The same for an arm64 binary, from $SYSROOT (ldd cannot run it): its interpreter, then each
# library it needs (readelf's NEEDED, and theirs), found where the guest's loader looks.
copy_libs_sysroot() {
  local dest=$1 f lib d found interp
  local -a todo=("$2") done_=()
  interp=$(readelf -l "$2" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
  [ -e "$SYSROOT$interp" ] || { log "no $interp in $SYSROOT (make pi)"; exit 1; }
  install -D -m755 "$(readlink -f "$SYSROOT$interp")" "$dest$interp"
  while [ ${#todo[@]} -gt 0 ]; do
    f=${todo[0]}
    todo=("${todo[@]:1}")
    for lib in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      case " ${done_[*]} " in *" $lib "*) continue ;; esac
      done_+=("$lib")
      found=""
      for d in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu /lib /usr/lib; do
        if [ -e "$SYSROOT$d/$lib" ]; then found=$d/$lib; break; fi
      done
      [ -n "$found" ] || { log "$lib (needed by ${f##*/}) is not in $SYSROOT"; exit 1; }
      install -D -m755 "$(readlink -f "$SYSROOT$found")" "$dest$found"
      todo+=("$SYSROOT$found")
    done
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
  if [ "$ARCH" = aarch64 ]; then cp "$CACHE/busybox" "$R/bin/busybox"; else cp /bin/busybox "$R/bin/busybox"; fi
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
  # The board: its binary (without symbols: 30 % less to load), its data and its libraries. The
  # arm64 one comes stripped (make pi), and the host's strip knows x86 only.
  if [ "$ARCH" = aarch64 ]; then
    cp "$prefix/bin/wallboard" "$R/usr/local/bin/wallboard"
    copy_libs_sysroot "$R" "$prefix/bin/wallboard"
  else
    strip -o "$R/usr/local/bin/wallboard" "$prefix/bin/wallboard"
    copy_libs "$R" "$prefix/bin/wallboard"
  fi
  cp -R "$prefix/share/wallboard" "$R/usr/local/share/"
  cp -L /usr/share/zoneinfo/UTC "$R/usr/share/zoneinfo/UTC"
  install -m755 "$HERE/init" "$R/init"
  install -m755 "$HERE/vmsnap" "$R/bin/vmsnap"
  # What the initramfs holds, for the check that no Mesa, EGL or LLVM came along.
  (cd "$R" && find . -type f | LC_ALL=C sort) > "$CACHE/initramfs.files"
  # Uncompressed: QEMU loads it into memory as it is; unpacking gzip under TCG costs seconds.
  (cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$CACHE/initramfs.cpio"
  log "initramfs: $(stat -c %s "$CACHE/initramfs.cpio") bytes, kernel $(head -n1 "$CACHE/kpkg")"
}

cmd_run() {
  local vga=$1 share
  share=$(readlink -f "$2")
  shift 2
  [ -f "$CACHE/initramfs.cpio" ] || { log "no initramfs: run vm.sh initramfs PREFIX first"; exit 1; }
  local out="$share/out" qmp="$share/qmp.sock" vgaopt
  rm -rf "$out" "$qmp"
  mkdir -p "$out"
  local -a machine
  local screen=""
  if [ -n "${VM_SCREEN:-}" ]; then
    [ "$vga" = virtio ] || { log "VM_SCREEN=$VM_SCREEN: the virtio device's only"; exit 2; }
    screen=",xres=${VM_SCREEN%x*},yres=${VM_SCREEN#*x}"
  fi
  case "$ARCH:$vga" in
    x86_64:std) vgaopt=(-vga std) ;;
    x86_64:cirrus) vgaopt=(-vga cirrus) ;;
    x86_64:virtio) vgaopt=(-vga none -device "virtio-vga$screen") ;;
    aarch64:virtio) vgaopt=(-device "virtio-gpu-pci$screen") ;;
    x86_64:*) log "unknown display device $vga (std, virtio, cirrus)"; exit 2 ;;
    *) log "unknown display device $vga for aarch64 (virtio)"; exit 2 ;;
  esac
  if [ "$ARCH" = aarch64 ]; then
    machine=(qemu-system-aarch64 -M virt -cpu cortex-a53 -kernel "$CACHE/kernel/boot/vmlinuz-$(kver)")
  else
    machine=(qemu-system-x86_64 -kernel "$CACHE/vmlinux")
  fi
  local -a cmd=("${machine[@]}" -accel tcg -m "$MEM" -smp 1 -no-reboot
    -initrd "$CACHE/initramfs.cpio" -append "$APPEND_BASE $*"
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
  awk -v a="$t0" -v b="$EPOCHREALTIME" -v v="$(label "$vga")" 'BEGIN{printf "%s: the guest ran %.1f s\n", v, b-a}' | tee "$out/times"
  [ -f "$out/poweroff" ] || { log "$(label "$vga"): the guest did not finish (qemu status $rc; see $out/console.log)"; return 1; }
}

case "${1:-}" in
  setup) cmd_setup ;;
  initramfs) cmd_initramfs "${2:?vm.sh initramfs PREFIX}" ;;
  run) shift; cmd_run "$@" ;;
  *) sed -n '2,24p' "$0"; exit 2 ;;
esac
