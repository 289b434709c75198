#!/usr/bin/env bash
# Checks that the QUIC transport builds against ngtcp2 1.x (bookworm-backports, trixie) as well
# as against Debian 12's 0.12, without touching the machine's apt configuration or packages:
#
#   scripts/check-ngtcp2-1x.sh [--refresh] [--no-run] [--also-system]
#
#  1. Fetches libngtcp2-dev, libngtcp2-crypto-gnutls-dev and the runtime packages they depend on
#     from http://deb.debian.org/debian, suite $NGTCP2_1X_SUITE (default bookworm-backports,
#     built for bookworm; NGTCP2_1X_SUITE=trixie gets the same 1.11.0, whose crypto package
#     declares libgnutls30t64 >= 3.8.2 but only uses GnuTLS symbols bookworm's 3.7.9 has),
#     with a private apt (own sources.list, state, cache and an empty dpkg status, all under
#     .build/ngtcp2-1x/apt) and unpacks them with `dpkg-deb -x` into .build/ngtcp2-1x/root.
#     Done once; --refresh fetches again.
#  2. Sources/CQUIC/shim.h: `-fsyntax-only -Wall -Wextra -Werror` with gcc and clang (those
#     present), against the 1.x headers and against the system's 0.12 ones; then a C program
#     taking the address of every wb_quic_* helper, linked against the 1.x libraries and the
#     system GnuTLS, and run.
#  3. The Swift QUIC module (Sources/QUIC/*.swift) typechecked against the 1.x headers (with
#     WallboardCore, Clock and Transport built here from source, not taken from .build/debug),
#     a sentinel proving the importer saw 1.x, then compiled and linked with a smoke program
#     (quic-smoke) against the 1.x libraries.
#  4. Unless --no-run: quic-smoke run against the 1.x libraries: the versions loaded, and when
#     .build/quic-venv holds aioquic (scripts/quic-venv.sh, `make test`), against the aioquic
#     test peer: a handshake with mutual TLS and health requests answered (with a stream reset
#     between them), a server certificate refused, a client certificate the peer refuses.
#     Without the venv that part is skipped (said so), not failed.
#
# --also-system runs steps 3 and 4 against the system's 0.12 as well (the same smoke, as a
# control). Everything it writes is under .build/ngtcp2-1x; it installs nothing and never runs
# apt-get as anything but a private download client. Idempotent; concurrent runs serialise on a
# lock. Exit status 0 when every check passed, non-zero (after the compiler's or the check's
# message) at the first that failed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
W="$ROOT/.build/ngtcp2-1x"
SUITE="${NGTCP2_1X_SUITE:-bookworm-backports}"
MIRROR="${NGTCP2_1X_MIRROR:-http://deb.debian.org/debian}"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
SHIM="$ROOT/Sources/CQUIC/shim.h"
SWIFTC="${SWIFTC:-swiftc}"
VENV_PY="$ROOT/.build/quic-venv/bin/python"
PEER_PY="$ROOT/Tests/OrchestraPeer/quic_peer.py"

REFRESH=0
RUN=1
SYSTEM=0
for a in "$@"; do
  case "$a" in
    --refresh) REFRESH=1 ;;
    --no-run) RUN=0 ;;
    --also-system) SYSTEM=1 ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "usage: $0 [--refresh] [--no-run] [--also-system]" >&2
      exit 2
      ;;
  esac
done

say() { printf 'check-ngtcp2-1x: %s\n' "$*"; }
ok() { printf 'check-ngtcp2-1x:   ok  %s\n' "$*"; }
die() {
  printf 'check-ngtcp2-1x: FAILED: %s\n' "$*" >&2
  exit 1
}

mkdir -p "$W"
exec 9>"$W/.lock"
flock 9

# ---------------------------------------------------------------------------------------------
# 1. The 1.x packages, by a private apt.

# shellcheck source=scripts/private-apt.sh
. "$ROOT/scripts/private-apt.sh"
private_apt_options "$W/apt/$SUITE"

STAMP="$W/root/.wallboard-fetched"
fetch() {
  say "fetching ngtcp2 1.x from $MIRROR $SUITE (private apt under ${A#"$ROOT"/})"
  private_apt_update "deb [signed-by=$KEYRING] $MIRROR $SUITE main"
  local dev=(libngtcp2-dev libngtcp2-crypto-gnutls-dev) pkgs=() p deps
  for p in "${dev[@]}"; do
    deps="$(apt-cache "${APT[@]}" show --no-all-versions "$p" | sed -n 's/^Depends: //p')" ||
      die "no $p in $SUITE"
    pkgs+=("$p")
    # The runtime packages (libngtcp2-16, libngtcp2-crypto-gnutls8, …): the dev packages' own.
    while read -r d; do pkgs+=("$d"); done < <(printf '%s\n' "$deps" | tr ',' '\n' |
      sed -E 's/^ *([^ ]+).*/\1/' | grep '^libngtcp2' | sort -u)
  done
  mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | sort -u)
  rm -f "$A/debs"/*.deb
  (cd "$A/debs" && apt-get -q "${APT[@]}" download "${pkgs[@]}") >"$A/download.log" 2>&1 || {
    cat "$A/download.log" >&2
    die "apt-get download ${pkgs[*]}"
  }
  rm -rf "$W/root.new"
  mkdir -p "$W/root.new"
  local deb
  for deb in "$A/debs"/*.deb; do dpkg-deb -x "$deb" "$W/root.new"; done
  (cd "$A/debs" && ls -1 ./*.deb | sed 's|^\./||') >"$W/root.new/.wallboard-debs"
  echo "$SUITE" >"$W/root.new/.wallboard-fetched"
  rm -rf "$W/root"
  mv "$W/root.new" "$W/root"
}

if [ "$REFRESH" = 1 ] || [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$SUITE" ] ||
  [ ! -f "$W/root/usr/include/ngtcp2/version.h" ]; then
  fetch
fi
INC1="$W/root/usr/include"
LIB1="$(dirname "$(find "$W/root/usr/lib" -name 'libngtcp2.so' | head -n1)")"
[ -f "$LIB1/libngtcp2_crypto_gnutls.so" ] || die "no libngtcp2_crypto_gnutls.so under $W/root"
V1="$(sed -n 's/^#define NGTCP2_VERSION "\(.*\)"/\1/p' "$INC1/ngtcp2/version.h")"
say "ngtcp2 $V1 from $SUITE: $(tr '\n' ' ' <"$W/root/.wallboard-debs")"
say "  headers ${INC1#"$ROOT"/}, libraries ${LIB1#"$ROOT"/}"

# ---------------------------------------------------------------------------------------------
# 2. shim.h in C.

COMPILERS=()
for cc in gcc clang; do command -v "$cc" >/dev/null && COMPILERS+=("$cc"); done
[ ${#COMPILERS[@]} -gt 0 ] || die "no C compiler (gcc or clang)"
CFLAGS=(-Wall -Wextra -Werror -Wno-unused-function)

# version_num CC [-I…]: the NGTCP2_VERSION_NUM the compiler sees through shim.h.
version_num() {
  local cc="$1"
  shift
  "$cc" -E -dM -x c "$@" "$SHIM" | sed -n 's/^#define NGTCP2_VERSION_NUM //p'
}

say "shim.h, -fsyntax-only ${CFLAGS[*]}:"
HAVE_SYSTEM=0
[ -f /usr/include/ngtcp2/version.h ] && [ -f /usr/include/ngtcp2/ngtcp2_crypto_gnutls.h ] && HAVE_SYSTEM=1
for cc in "${COMPILERS[@]}"; do
  n="$(version_num "$cc" -I"$INC1")" || die "$cc cannot preprocess shim.h against 1.x"
  [ $((n)) -ge $((0x010000)) ] || die "$cc saw NGTCP2_VERSION_NUM $n through -I$INC1, not 1.x"
  "$cc" -fsyntax-only "${CFLAGS[@]}" -x c -I"$INC1" "$SHIM" || die "$cc: shim.h against ngtcp2 $V1"
  ok "$cc, ngtcp2 $V1 ($n)"
  if [ "$HAVE_SYSTEM" = 1 ]; then
    n0="$(version_num "$cc")"
    "$cc" -fsyntax-only "${CFLAGS[@]}" -x c "$SHIM" || die "$cc: shim.h against the system's ngtcp2 ($n0)"
    ok "$cc, the system's ngtcp2 ($n0)"
  fi
done
[ "$HAVE_SYSTEM" = 1 ] || say "  (no system libngtcp2-dev/libngtcp2-crypto-gnutls-dev: 0.12 not checked)"

C="$W/c"
mkdir -p "$C"
mapfile -t HELPERS < <(grep -oE '^static inline [^(]*\bwb_quic_[a-z0-9_]+\(' "$SHIM" | grep -oE 'wb_quic_[a-z0-9_]+')
{
  echo "// Made by scripts/check-ngtcp2-1x.sh: every wb_quic_* helper of shim.h, linked."
  echo "#include \"$SHIM\""
  echo "#include <stdio.h>"
  echo "typedef void (*wb_fp)(void);"
  echo "wb_fp wb_helpers[] = {"
  for h in "${HELPERS[@]}"; do echo "  (wb_fp)$h,"; done
  echo "};"
  echo "int main(void) {"
  echo "  const ngtcp2_info *i = ngtcp2_version(0);"
  echo "  printf(\"libngtcp2 %s (0x%x), GnuTLS %s, %zu helpers\\n\", i->version_str, (unsigned)i->version_num,"
  echo "         gnutls_check_version(NULL), sizeof wb_helpers / sizeof wb_helpers[0]);"
  echo "  return i->version_num < 0x010000;"
  echo "}"
} >"$C/helpers.c"
"${COMPILERS[0]}" "${CFLAGS[@]}" -o "$C/helpers-1x" "$C/helpers.c" -I"$INC1" -L"$LIB1" -Wl,-rpath,"$LIB1" \
  -lngtcp2_crypto_gnutls -lngtcp2 -lgnutls || die "linking the ${#HELPERS[@]} wb_quic_* helpers against ngtcp2 $V1"
out="$("$C/helpers-1x")" || die "the helpers program did not load ngtcp2 1.x: $out"
ok "${#HELPERS[@]} wb_quic_* helpers linked against ${LIB1#"$ROOT"/} and run: $out"

# ---------------------------------------------------------------------------------------------
# 3. The Swift module.

command -v "$SWIFTC" >/dev/null || die "no $SWIFTC"
SWIFTFLAGS=(
  -parse-as-library -swift-version 6 -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature ExistentialAny -package-name main -DSWIFT_PACKAGE -DDEBUG -Onone
)
BASE="$W/swift/base"
mkdir -p "$BASE"
say "Swift: WallboardCore, Clock, Transport built from source into ${BASE#"$ROOT"/}"
for m in WallboardCore Clock Transport; do
  if [ -f "$BASE/$m.o" ] && [ -f "$BASE/$m.swiftmodule" ] && [ -z "$(find "$ROOT/Sources/$m" -newer "$BASE/$m.o")" ]; then
    continue
  fi
  "$SWIFTC" "${SWIFTFLAGS[@]}" -module-name "$m" -I "$BASE" -module-cache-path "$BASE/module-cache" \
    -wmo -c -o "$BASE/$m.o" -emit-module -emit-module-path "$BASE/$m.swiftmodule" "$ROOT/Sources/$m"/*.swift ||
    die "swiftc: module $m"
done

mkdir -p "$W/swift/smoke"
cat >"$W/swift/smoke/main.swift" <<'EOF'
// Made by scripts/check-ngtcp2-1x.sh: the QUIC module, built against the ngtcp2 under test,
// run against the aioquic test peer (Tests/OrchestraPeer/quic_peer.py).
//   quic-smoke version                  the libngtcp2 and GnuTLS this process loaded
//   quic-smoke health PORT CERTS        mutual TLS; a health request answered; a stream reset;
//                                       another health request; an orderly close
//   quic-smoke refused-cert PORT CERTS  the server's certificate refused here (.certificate)
//   quic-smoke alert PORT CERTS         this side's client certificate refused by the peer
import CQUIC
import Clock
import Foundation
import QUIC
import Transport

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("quic-smoke: \(message)\n".utf8))
  exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["version"] {
  guard let info = ngtcp2_version(0) else { fail("ngtcp2_version gave nothing") }
  let gnutls = gnutls_check_version(nil).map { String(cString: $0) } ?? "?"
  print(
    "libngtcp2 \(String(cString: info.pointee.version_str)) (0x\(String(info.pointee.version_num, radix: 16))), GnuTLS \(gnutls)"
  )
  exit(0)
}
guard arguments.count == 3, let port = Int(arguments[1]) else {
  fail("usage: quic-smoke version | health|refused-cert|alert PORT CERTS")
}
let certs = arguments[2]
let clock = Clock.system
func deadline(_ seconds: Double) -> Monotonic { clock.monotonic().adding(seconds: seconds) }

func connect() throws(QUICError) -> QUICConnection {
  let credentials = try TLSCredentials(directory: certs)
  return try QUICConnection.connect(
    host: "127.0.0.1", port: port, credentials: credentials, until: deadline(5), clock: clock)
}

/// PluginRequest{request_id: "h", health: {}}, length-prefixed; the answer's payload.
func health(_ c: QUICConnection) throws -> [UInt8] {
  let s = try c.openStream(until: deadline(3))
  defer { s.close() }
  try s.write([0, 0, 0, 5, 0x0a, 0x01, 0x68, 0x6a, 0x00])
  try s.finishWriting()
  var got: [UInt8] = []
  let end = deadline(5)
  while clock.monotonic() < end {
    if got.count >= 4 {
      let n = Int(got[0]) << 24 | Int(got[1]) << 16 | Int(got[2]) << 8 | Int(got[3])
      if got.count >= 4 + n { return Array(got[4..<(4 + n)]) }
    }
    switch try s.read(until: end) {
    case .bytes(let b): got += b
    case .idle: continue
    case .closed: fail("stream \(s.id) ended after \(got.count) bytes: \(got)")
    }
  }
  fail("no health answer in 5 s (\(got.count) bytes)")
}

func expectHealthy(_ payload: [UInt8]) {
  // request_id "h" (field 1), then health (field 13, its length) holding status HEALTHY
  // (field 1 = 1) first.
  let hex = payload.map { String(format: "%02x", $0) }.joined(separator: " ")
  guard payload.starts(with: [0x0a, 0x01, 0x68, 0x6a]), payload.count >= 7, payload[5...].starts(with: [0x08, 0x01])
  else { fail("not a healthy health answer: \(hex)") }
  print("  health answered: \(hex)")
}

do {
  switch arguments[0] {
  case "health":
    let c = try connect()
    print("  connected to \(c.peer): handshake confirmed, ALPN orchestra-plugin")
    expectHealthy(try health(c))
    let r = try c.openStream(until: deadline(3))
    try r.write([0, 0])
    r.close()  // unfinished: reset (ngtcp2_conn_shutdown_stream)
    print("  stream \(r.id) reset")
    expectHealthy(try health(c))
    guard c.isUp else { fail("connection down after the reset: \(String(describing: c.failure))") }
    c.close()
    let end = deadline(3)
    while c.failure == nil, clock.monotonic() < end { clock.sleep(seconds: 0.01) }
    guard c.failure == .closed else { fail("close ended as \(String(describing: c.failure))") }
    print("  closed in order")
  case "refused-cert":
    do {
      let c = try connect()
      c.close()
      fail("connected to a server whose certificate is from another CA")
    } catch {
      guard case .certificate(let status) = error else { fail("expected .certificate, got \(error)") }
      print("  refused: \(status)")
    }
  case "alert":
    do {
      let c = try connect()
      // TLS 1.3: the server may refuse the client's certificate after the client's handshake ends.
      _ = try? health(c)
      fail("still up with a client certificate the peer refuses: \(String(describing: c.failure))")
    } catch {
      guard case .tlsAlert(let code, let name, let sent) = error, !sent else {
        fail("expected the peer's TLS alert, got \(error)")
      }
      print("  the peer's alert: \(code) \(name)")
    }
  default: fail("unknown mode \(arguments[0])")
  }
} catch {
  fail("\(error)")
}
EOF

# swift_variant LABEL LIBDIR [-Xcc -I…]: QUIC typechecked, compiled and linked with quic-smoke.
swift_variant() {
  local label="$1" lib="$2"
  shift 2
  local xcc=("$@") V="$W/swift/$label"
  mkdir -p "$V/cquic" "$V/modules"
  cat >"$V/cquic/module.modulemap" <<EOF
module CQUIC [system] {
  header "$SHIM"
  link "ngtcp2_crypto_gnutls"
  link "ngtcp2"
  link "gnutls"
  export *
}
EOF
  local common=(-I "$BASE" -I "$V/modules" -module-cache-path "$V/module-cache"
    -Xcc "-fmodule-map-file=$V/cquic/module.modulemap" "${xcc[@]}")
  "$SWIFTC" "${SWIFTFLAGS[@]}" "${common[@]}" -module-name QUIC -typecheck "$ROOT/Sources/QUIC"/*.swift ||
    die "swiftc -typecheck Sources/QUIC/*.swift against ngtcp2 $label"
  ok "Sources/QUIC/*.swift typecheck against ngtcp2 $label"

  # The importer must have read the headers meant: a name only that version has.
  local sentinel name
  if [ "$label" = system ]; then
    name=ngtcp2_conn_get_connection_close_error
    sentinel='func f(_ c: OpaquePointer, _ e: UnsafeMutablePointer<ngtcp2_connection_close_error>) { ngtcp2_conn_get_connection_close_error(c, e) }'
  else
    name=ngtcp2_conn_get_ccerr
    sentinel='func f(_ c: OpaquePointer) -> UInt64 { ngtcp2_conn_get_ccerr(c).pointee.error_code }'
  fi
  printf 'import CQUIC\n%s\n' "$sentinel" >"$V/sentinel.swift"
  "$SWIFTC" -parse-as-library -swift-version 6 "${common[@]}" -module-name Sentinel -typecheck "$V/sentinel.swift" ||
    die "the Swift importer did not see ngtcp2 $label through ${V#"$ROOT"/}/cquic"
  ok "the Swift importer saw ngtcp2 $label (a call of $name typechecks)"

  "$SWIFTC" "${SWIFTFLAGS[@]}" "${common[@]}" -module-name QUIC -wmo -c -o "$V/QUIC.o" \
    -emit-module -emit-module-path "$V/modules/QUIC.swiftmodule" "$ROOT/Sources/QUIC"/*.swift ||
    die "swiftc -c Sources/QUIC/*.swift against ngtcp2 $label"
  "$SWIFTC" -swift-version 6 "${common[@]}" -module-name QUICSmoke -o "$V/quic-smoke" \
    "$W/swift/smoke/main.swift" "$BASE/WallboardCore.o" "$BASE/Clock.o" "$BASE/Transport.o" "$V/QUIC.o" \
    -L "$lib" -Xlinker -rpath -Xlinker "$lib" -lngtcp2_crypto_gnutls -lngtcp2 -lgnutls ||
    die "linking quic-smoke (the QUIC module) against ngtcp2 $label in $lib"
  local needed
  needed="$(readelf -d "$V/quic-smoke" | sed -n 's/.*(NEEDED).*\[\(lib\(ngtcp2\|gnutls\)[^]]*\)\]/\1/p' | tr '\n' ' ')"
  ok "QUIC compiled and quic-smoke linked against ${lib#"$ROOT"/} (needs: $needed)"
}

# smoke LABEL: quic-smoke run, alone and against the aioquic peer.
CERTS="$W/certs"
smoke() {
  local label="$1" V="$W/swift/$1" out
  out="$(timeout 30 "$V/quic-smoke" version)" || die "quic-smoke ($label) did not run: $out"
  if [ "$label" != system ] && [[ "$out" != "libngtcp2 $V1 "* ]]; then
    die "quic-smoke loaded $out, not ngtcp2 $V1"
  fi
  ok "quic-smoke ($label) runs: $out"
  if [ ! -x "$VENV_PY" ] || ! "$VENV_PY" -c 'import aioquic' 2>/dev/null; then
    say "  (no aioquic in .build/quic-venv — run scripts/quic-venv.sh or make test: peer checks skipped)"
    return 0
  fi
  # Idempotent: makes the set only when missing or about to expire.
  bash "$ROOT/Tests/OrchestraPeer/make-certs.sh" "$CERTS" >/dev/null || die "make-certs.sh $CERTS"
  mkdir -p "$W/certs-other-client"
  cp "$CERTS/ca.crt" "$W/certs-other-client/ca.crt"
  cp "$CERTS/other-client.crt" "$W/certs-other-client/wallboard-client.crt"
  cp "$CERTS/other-client.key" "$W/certs-other-client/wallboard-client.key"
  peer_case "$label" health "$CERTS" --client-cert required
  peer_case "$label" refused-cert "$CERTS" --cert other-server.crt --key other-server.key
  peer_case "$label" alert "$W/certs-other-client"
}

# The peer this script started, stopped (by its pid) if the script ends while it runs.
PEER_RUNNING=
trap '[ -z "$PEER_RUNNING" ] || kill "$PEER_RUNNING" 2>/dev/null || true' EXIT

# peer_case LABEL MODE BOARD-CERTS PEER-ARGS…: one peer started, quic-smoke MODE against it.
peer_case() {
  local label="$1" mode="$2" board="$3" line port rc=0 out
  shift 3
  # stdin through a FIFO held open here: the peer runs until it reads its end.
  rm -f "$W/peer.in" "$W/peer.out"
  mkfifo "$W/peer.in"
  "$VENV_PY" -B "$PEER_PY" --port 0 --certs "$CERTS" --quiet "$@" <"$W/peer.in" >"$W/peer.out" 2>"$W/peer.log" &
  local pid=$! in
  PEER_RUNNING="$pid"
  exec {in}>"$W/peer.in"
  line=
  for _ in $(seq 300); do
    line="$(head -n1 "$W/peer.out" 2>/dev/null)"
    [ -z "$line" ] && kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [[ "$line" != "PORT "* ]]; then
    kill "$pid" 2>/dev/null || true
    cat "$W/peer.log" >&2
    die "the aioquic peer did not start (${line:-no PORT line})"
  fi
  port="${line#PORT }"
  out="$(timeout 60 "$W/swift/$label/quic-smoke" "$mode" "$port" "$board" 2>&1)" || rc=$?
  exec {in}>&- # end of stdin: the peer closes its connections and exits
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  PEER_RUNNING=
  if [ "$rc" -ne 0 ]; then
    printf '%s\n' "$out" >&2
    die "quic-smoke $mode against the aioquic peer ($*), ngtcp2 $label"
  fi
  ok "aioquic peer ${*:-(defaults)}: quic-smoke $mode"
  printf '%s\n' "$out" | sed 's/^/check-ngtcp2-1x:     /'
}

say "Swift QUIC module against ngtcp2 $V1:"
swift_variant "$V1" "$LIB1" -Xcc -I"$INC1"
[ "$RUN" = 0 ] || smoke "$V1"

if [ "$SYSTEM" = 1 ]; then
  [ "$HAVE_SYSTEM" = 1 ] || die "--also-system: no system libngtcp2-dev"
  say "Swift QUIC module against the system's ngtcp2 (control):"
  swift_variant system /usr/lib/"$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"
  [ "$RUN" = 0 ] || smoke system
fi

say "all checks passed (ngtcp2 $V1 from $SUITE)"
