#!/usr/bin/env bash
# Makes what `make pi` needs to build the board for a Raspberry Pi (aarch64, Raspberry Pi OS /
# Debian 12) from an x86_64 Debian 12 machine, from Debian's archive only, everything under
# .build/pi, the machine's apt (sources, lists, cache) left untouched:
#
#   scripts/pi-toolchain.sh [--refresh]
#   scripts/pi-toolchain.sh exec CMD…    CMD run in the root, in the repository (make pi's build)
#
#  a. .build/pi/root: a minbase root of $PI_SWIFT_SUITE (default trixie), made with debootstrap,
#     with that suite's amd64 `swiftlang` (the cross-compiler), lld and pkgconf installed by the
#     root's own apt. The compiler needs that suite's glibc, so it runs inside the root (chroot).
#     trixie, not sid: trixie is a release, so its swiftlang (6.0.3) stays put and a rebuild
#     months later gets the same compiler; sid's moves (6.2.3 when measured) and may be removed.
#  b. .build/pi/runtime: the aarch64 Swift runtime of the same version: the arm64 `swiftlang`
#     package of the suite, fetched by a private apt (apt-get download) and unpacked with
#     dpkg-deb -x; only usr/libexec/swift/lib/swift{,_static} are kept (the shared and static
#     runtime, the modules and clang's headers).
#  c. .build/pi/sysroot: bookworm's arm64 -dev packages the board links (libc, libstdc++, libgcc,
#     zlib, FreeType, SQLite, libdrm) with the run-time libraries they depend on, and the headers
#     only of what the board opens at run time (ngtcp2 and its GnuTLS crypto, GnuTLS, libnats);
#     absolute symlinks made relative. `qemu-aarch64-static -L .build/pi/sysroot` runs the binary.
#  d. .build/pi/sdk/wallboard-pi.artifactbundle: a Swift SDK (aarch64-unknown-linux-gnu) naming
#     the sysroot and the runtime, its toolset linking with lld and the object of e.
#  e. .build/pi/compat/glibc-compat.o: the runtime of a trixie build references glibc 2.38
#     symbols (__isoc23_strtol and friends, strlcpy, strlcat) that bookworm's 2.36 lacks; this
#     object defines them over the old functions, so the binary runs on bookworm.
#
# Each step is done once and stamped with what it was made from; a step whose inputs changed (or
# all of them with --refresh) is made again into a fresh folder, then moved in place. Needs root
# (debootstrap, chroot) and debootstrap (`make pi` installs it). Concurrent runs serialise on a
# lock. Prints the folders it made; exit status non-zero at the first step that failed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
W="$ROOT/.build/pi"
SUITE="${PI_SWIFT_SUITE:-trixie}"
TARGET_SUITE=bookworm
MIRROR="${PI_MIRROR:-http://deb.debian.org/debian}"
SECURITY_MIRROR="${PI_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
TRIPLE=aarch64-unknown-linux-gnu
MULTIARCH=aarch64-linux-gnu

# What the board links (Package.swift's pkgConfig targets and the C runtime), with the run-time
# libraries apt resolves for them; and the packages whose headers alone build CQUIC and CNATS
# (their libraries are opened at run time: Sources/CQUIC/shim.h, Sources/CNATS/shim.h).
LINK_PACKAGES=(libc6-dev libstdc++-12-dev libgcc-12-dev zlib1g-dev libfreetype-dev libsqlite3-dev libdrm-dev)
HEADER_PACKAGES=(libngtcp2-dev libngtcp2-crypto-gnutls-dev libgnutls28-dev libnats-dev)
# The cross-compiler, its linker, and what SwiftPM needs to build the manifest for the root itself
# (swiftlang depends on gcc, which only recommends libc6-dev) and to read .pc files; strip for
# aarch64 (the root's own binutils know x86 only).
ROOT_PACKAGES=(swiftlang lld libc6-dev pkgconf binutils-aarch64-linux-gnu)

REFRESH=0
EXEC=0
[ "${1:-}" != exec ] || EXEC=1
for a in "$@"; do
  [ "$EXEC" = 0 ] || break
  case "$a" in
    --refresh) REFRESH=1 ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "usage: $0 [--refresh]" >&2
      exit 2
      ;;
  esac
done

say() { printf 'pi-toolchain: %s\n' "$*"; }
die() {
  printf 'pi-toolchain: FAILED: %s\n' "$*" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot): run it as root or with sudo"
command -v debootstrap >/dev/null || die "no debootstrap (make pi installs it)"
mkdir -p "$W"
exec 9>"$W/.lock"
flock 9

# fresh STEP KEY: true when STEP must be made (no stamp, another key, or --refresh).
fresh() {
  [ "$REFRESH" = 1 ] || [ ! -f "$W/stamps/$1" ] || [ "$(cat "$W/stamps/$1")" != "$2" ]
}
stamp() {
  mkdir -p "$W/stamps"
  printf '%s\n' "$2" >"$W/stamps/$1"
}

# in_root DIR CMD…: CMD run in the root DIR, with /proc, /dev and the repository (at its own
# path) mounted in a mount namespace of its own: the mounts end with the command.
in_root() {
  local r="$1"
  shift
  unshare --mount --propagation private -- /bin/sh -c '
    r="$1"; repo="$2"; shift 2
    mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" &&
      mkdir -p "$r$repo" && mount --bind "$repo" "$r$repo" &&
      exec chroot "$r" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"
  ' in_root "$r" "$ROOT" "$@"
}

if [ "$EXEC" = 1 ]; then
  shift
  [ -x "$W/root/usr/libexec/swift/bin/swift" ] || die "no root under ${W#"$ROOT"/}: run $0 first"
  in_root "$W/root" /bin/sh -c 'cd "$0" && exec "$@"' "$ROOT" "$@"
  exit
fi

# ---------------------------------------------------------------------------------------------
# a. The root of $SUITE with the cross-compiler.

R="$W/root"
if fresh root "$SUITE" || [ ! -x "$R/usr/bin/apt-get" ]; then
  say "a. debootstrap --variant=minbase $SUITE into ${R#"$ROOT"/} (a few minutes)"
  rm -rf "$R.new"
  mkdir -p "$W/cache/debootstrap"
  debootstrap --variant=minbase --arch=amd64 --keyring="$KEYRING" --cache-dir="$W/cache/debootstrap" \
    "$SUITE" "$R.new" "$MIRROR" >"$W/debootstrap.log" 2>&1 || {
    tail -30 "$W/debootstrap.log" >&2
    die "debootstrap $SUITE (log: ${W#"$ROOT"/}/debootstrap.log)"
  }
  rm -rf "$R"
  mv "$R.new" "$R"
  stamp root "$SUITE"
  rm -f "$W/stamps/root-packages"
fi
# The packages, by the root's own apt; a changed list is installed into the root as it is.
if fresh root-packages "${ROOT_PACKAGES[*]}" || [ ! -x "$R/usr/libexec/swift/bin/swift" ]; then
  say "a. apt-get install ${ROOT_PACKAGES[*]} in the root (its own apt)"
  {
    in_root "$R" apt-get -q update &&
      in_root "$R" env DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends \
        "${ROOT_PACKAGES[@]}" &&
      in_root "$R" apt-get clean
  } >"$W/root-apt.log" 2>&1 || {
    tail -30 "$W/root-apt.log" >&2
    die "apt-get install ${ROOT_PACKAGES[*]} in the $SUITE root (log: ${W#"$ROOT"/}/root-apt.log)"
  }
  stamp root-packages "${ROOT_PACKAGES[*]}"
fi
SWIFT_DEB_VERSION="$(dpkg-query --admindir="$R/var/lib/dpkg" -W -f='${Version}' swiftlang)"
say "a. ${R#"$ROOT"/}: $SUITE, swiftlang $SWIFT_DEB_VERSION (amd64), $(in_root "$R" ld.lld --version | head -n1)"

# ---------------------------------------------------------------------------------------------
# A private apt (scripts/private-apt.sh) under .build/pi/apt/NAME, for arm64 only; never the
# machine's.
# shellcheck source=scripts/private-apt.sh
. "$ROOT/scripts/private-apt.sh"

# apt_setup NAME SOURCES-LINE…: the folders, the sources, `apt-get update`; sets APT to the options.
apt_setup() {
  local name="$1" line lines=()
  shift
  private_apt_options "$W/apt/$name" arm64
  for line in "$@"; do lines+=("deb [arch=arm64 signed-by=$KEYRING] $line"); done
  private_apt_update "${lines[@]}"
}

# apt_download PACKAGE…: the .debs into $A/debs (those already there are kept).
apt_download() {
  (cd "$A/debs" && apt-get -q "${APT[@]}" download "$@") >"$A/download.log" 2>&1 || {
    cat "$A/download.log" >&2
    die "apt-get download $*"
  }
}

# ---------------------------------------------------------------------------------------------
# b. The aarch64 Swift runtime of the same version.

RT="$W/runtime"
KEY_B="$SUITE swiftlang=$SWIFT_DEB_VERSION"
if fresh runtime "$KEY_B" || [ ! -d "$RT/usr/libexec/swift/lib/swift_static/linux" ]; then
  say "b. apt-get download swiftlang:arm64=$SWIFT_DEB_VERSION ($SUITE, private apt)"
  apt_setup "$SUITE-arm64" "$MIRROR $SUITE main"
  rm -f "$A/debs"/*.deb
  apt_download "swiftlang=$SWIFT_DEB_VERSION"
  rm -rf "$RT.new" "$W/runtime.x"
  mkdir -p "$RT.new/usr/libexec/swift/lib" "$W/runtime.x"
  dpkg-deb -x "$A/debs"/swiftlang_*_arm64.deb "$W/runtime.x"
  # The runtime, static runtime, modules and clang's headers (lib/swift/clang -> ../clang/N).
  for d in swift swift_static clang; do
    mv "$W/runtime.x/usr/libexec/swift/lib/$d" "$RT.new/usr/libexec/swift/lib/$d"
  done
  rm -rf "$W/runtime.x" "$A/debs"/*.deb
  rm -rf "$RT"
  mv "$RT.new" "$RT"
  stamp runtime "$KEY_B"
fi
say "b. ${RT#"$ROOT"/}: swiftlang $SWIFT_DEB_VERSION (arm64) runtime, $(du -sh "$RT" | cut -f1)"

# ---------------------------------------------------------------------------------------------
# c. The bookworm arm64 sysroot.

S="$W/sysroot"
KEY_C="$TARGET_SUITE ${LINK_PACKAGES[*]} | ${HEADER_PACKAGES[*]}"
if fresh sysroot "$KEY_C" || [ ! -f "$S/usr/include/stdio.h" ]; then
  say "c. $TARGET_SUITE arm64: ${LINK_PACKAGES[*]} with their dependencies, headers of ${HEADER_PACKAGES[*]}"
  apt_setup "$TARGET_SUITE-arm64" "$MIRROR $TARGET_SUITE main" "$MIRROR $TARGET_SUITE-updates main" \
    "$SECURITY_MIRROR $TARGET_SUITE-security main"
  # What apt would install for the link set on an empty arm64 system (simulated), and the
  # header-only packages alone (their libraries are never linked).
  mapfile -t pkgs < <(apt-get -q "${APT[@]}" install -s --no-install-recommends "${LINK_PACKAGES[@]}" 2>"$A/resolve.log" |
    sed -n 's/^Inst \([^ ]*\) .*/\1/p')
  [ ${#pkgs[@]} -gt 0 ] || {
    cat "$A/resolve.log" >&2
    die "apt could not resolve ${LINK_PACKAGES[*]} for $TARGET_SUITE arm64"
  }
  pkgs+=("${HEADER_PACKAGES[@]}")
  rm -f "$A/debs"/*.deb
  apt_download "${pkgs[@]}"
  rm -rf "$S.new"
  mkdir -p "$S.new"
  for deb in "$A/debs"/*.deb; do dpkg-deb -x "$deb" "$S.new"; done
  (cd "$A/debs" && ls -1 ./*.deb | sed 's|^\./||') >"$S.new/.wallboard-debs"
  # Absolute symlinks (libz.so -> /lib/aarch64-linux-gnu/libz.so.1.2.13) point into the sysroot.
  while IFS= read -r -d '' link; do
    target="$(readlink "$link")"
    case "$target" in
      /*) ln -sfn "$(realpath -ms --relative-to="$(dirname "$link")" "$S.new$target")" "$link" ;;
    esac
  done < <(find "$S.new" -type l -print0)
  rm -f "$A/debs"/*.deb
  rm -rf "$S"
  mv "$S.new" "$S"
  stamp sysroot "$KEY_C"
fi
# swift-driver warns on every compile when an SDK (-sdk) has no SDKSettings.json; Linux needs
# nothing from it but a version (major.minor: "12" is not read).
echo '{ "Version": "12.0", "CanonicalName": "debian-bookworm-arm64" }' >"$S/SDKSettings.json"
say "c. ${S#"$ROOT"/}: $(wc -l <"$S/.wallboard-debs") packages of $TARGET_SUITE arm64, $(du -sh "$S" | cut -f1)"

# ---------------------------------------------------------------------------------------------
# e. The glibc 2.38 symbols of a trixie-built runtime, over bookworm's 2.36 functions.

C="$W/compat"
mkdir -p "$C"
cat >"$C/glibc-compat.c.new" <<'CEOF'
// Made by scripts/pi-toolchain.sh: glibc 2.38 functions the Swift runtime of a trixie build calls,
// defined over those of glibc 2.36 (Debian 12, Raspberry Pi OS bookworm), which lacks them. The
// __isoc23_ variants differ from the old ones only in reading C23's 0b prefixes, which the
// runtime never passes.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long __isoc23_strtol(const char *s, char **end, int base) { return strtol(s, end, base); }
unsigned long __isoc23_strtoul(const char *s, char **end, int base) { return strtoul(s, end, base); }
long long __isoc23_strtoll(const char *s, char **end, int base) { return strtoll(s, end, base); }
unsigned long long __isoc23_strtoull(const char *s, char **end, int base) {
  return strtoull(s, end, base);
}
int __isoc23_vsscanf(const char *s, const char *format, va_list ap) { return vsscanf(s, format, ap); }
int __isoc23_sscanf(const char *s, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsscanf(s, format, ap);
  va_end(ap);
  return n;
}
size_t strlcpy(char *dst, const char *src, size_t size) {
  size_t n = strlen(src);
  if (size > 0) {
    size_t copied = n < size ? n : size - 1;
    memcpy(dst, src, copied);
    dst[copied] = '\0';
  }
  return n;
}
size_t strlcat(char *dst, const char *src, size_t size) {
  size_t used = strnlen(dst, size);
  if (used == size) return size + strlen(src);
  return used + strlcpy(dst + used, src, size - used);
}
CEOF
if ! cmp -s "$C/glibc-compat.c.new" "$C/glibc-compat.c" || [ ! -f "$C/glibc-compat.o" ] ||
  [ "$S/.wallboard-debs" -nt "$C/glibc-compat.o" ]; then
  mv "$C/glibc-compat.c.new" "$C/glibc-compat.c"
  in_root "$R" /usr/libexec/swift/bin/clang --target="$MULTIARCH" --sysroot="$S" -O2 -fPIC \
    -Wall -Wextra -Werror -c "$C/glibc-compat.c" -o "$C/glibc-compat.o" || die "compiling glibc-compat.c"
else
  rm -f "$C/glibc-compat.c.new"
fi
say "e. ${C#"$ROOT"/}/glibc-compat.o: __isoc23_strto{l,ul,ll,ull}, __isoc23_{,v}sscanf, strl{cpy,cat}"

# ---------------------------------------------------------------------------------------------
# d. The Swift SDK: paths relative to swift-sdk.json; the toolset links with lld and e's object.

B="$W/sdk/wallboard-pi.artifactbundle"
V="$B/$TRIPLE"
mkdir -p "$V"
SWIFT_VERSION="${SWIFT_DEB_VERSION%%-*}"
cat >"$B/info.json" <<JEOF
{
  "schemaVersion": "1.0",
  "artifacts": {
    "wallboard-pi": {
      "type": "swiftSDK",
      "version": "$SWIFT_VERSION",
      "variants": [{ "path": "$TRIPLE", "supportedTriples": ["x86_64-unknown-linux-gnu", "x86_64-pc-linux-gnu"] }]
    }
  }
}
JEOF
cat >"$V/swift-sdk.json" <<JEOF
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "$TRIPLE": {
      "sdkRootPath": "../../../sysroot",
      "swiftResourcesPath": "../../../runtime/usr/libexec/swift/lib/swift",
      "swiftStaticResourcesPath": "../../../runtime/usr/libexec/swift/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
JEOF
cat >"$V/toolset.json" <<JEOF
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] },
  "linker": { "path": "/usr/libexec/swift/bin/ld.lld", "extraCLIOptions": ["$C/glibc-compat.o"] }
}
JEOF
say "d. ${B#"$ROOT"/}: Swift SDK wallboard-pi ($TRIPLE, Swift $SWIFT_VERSION)"
