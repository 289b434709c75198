#!/usr/bin/env bash
# make pi-test: the arm64 build (make pi) draws what the x86_64 build draws. Each case runs the
# host's release build natively and the arm64 binary of the installed tree under qemu-user
# (`qemu-aarch64-static -L SYSROOT`, bookworm's arm64 libraries), with the same arguments and a
# fixed `--at`, and compares the exit status, stdout (inspect's JSON, the lists), stderr and the
# snapshot's PNG byte for byte. The PNG is zlib's deflate of the same pixels with the same zlib
# (1.2.13 on both sides, same level and strategy), so equal pixels make equal bytes; where bytes
# differ the line also says whether the pixels do (Pillow, when it is there) and where.
#
#   Tests/Pi/run.sh HOST_WALLBOARD PI_PREFIX SYSROOT
#
# HOST_WALLBOARD: the x86_64 release binary (swift build -c release --static-swift-stdlib);
# PI_PREFIX: the arm64 tree make pi installs (.build/pi/install: bin/wallboard, share/wallboard);
# SYSROOT: the bookworm arm64 sysroot (.build/pi/sysroot). Both binaries read the data of
# PI_PREFIX/share/wallboard: the host's through WALLBOARD_HOME, the arm64 one as an installed
# binary finds it (../share/wallboard beside itself), which is checked too.
#
# Every process is killed after PI_TEST_TIMEOUT seconds (default 180). Prints a PASS or FAIL
# line per case naming what differed, then "pi-test: N passed, N failed"; exits 1 on any
# difference, and when it cannot set up (no qemu-aarch64-static, no binary, a binary of the wrong
# machine), saying why. Outputs stay in .build/pi-test/{x86_64,aarch64} for a look.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
[ $# = 3 ] || {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}
HOST_BIN=$1
PI_PREFIX=$(readlink -m "$2")
SYSROOT=$(readlink -m "$3")
ARM_BIN=$PI_PREFIX/bin/wallboard
DATA=$PI_PREFIX/share/wallboard
QEMU=${PI_QEMU:-qemu-aarch64-static}
TIMEOUT=${PI_TEST_TIMEOUT:-180}
W=$ROOT/.build/pi-test
EVENTS=$ROOT/Tests/Fixtures/reference/examples/worked-example.jsonl

cannot() {
  echo "FAIL pi-test: cannot run: $*"
  echo "pi-test: 0 passed, 1 failed"
  exit 1
}

# --- Setup: each missing piece is a failure that says what is missing.
command -v "$QEMU" >/dev/null || cannot "no $QEMU (Debian's qemu-user-static; make pi-test installs it)"
command -v readelf >/dev/null || cannot "no readelf (binutils)"
[ -x "$HOST_BIN" ] || cannot "no x86_64 binary at $HOST_BIN"
[ -x "$ARM_BIN" ] || cannot "no arm64 binary at $ARM_BIN (make pi)"
[ -f "$DATA/assets/themes/ORDER" ] || cannot "no data at $DATA (make pi installs it)"
[ -e "$SYSROOT/lib/ld-linux-aarch64.so.1" ] || cannot "no arm64 dynamic loader in $SYSROOT (make pi)"
[ -f "$EVENTS" ] || cannot "no fixture $EVENTS"
machine() { readelf -h "$1" | sed -n 's/^ *Machine: *//p'; }
[ "$(machine "$HOST_BIN")" = "Advanced Micro Devices X86-64" ] || cannot "$HOST_BIN is not x86_64: $(machine "$HOST_BIN")"
[ "$(machine "$ARM_BIN")" = AArch64 ] || cannot "$ARM_BIN is not aarch64: $(machine "$ARM_BIN")"
PYTHON=${PYTHON:-python3}
HAVE_PIL=0
"$PYTHON" -c "import PIL" 2>/dev/null && HAVE_PIL=1

rm -rf "$W"
mkdir -p "$W/x86_64" "$W/aarch64" "$W/home"

# run ARCH NAME ARGS…: one process of ARCH's build, in a bare environment, killed after
# $TIMEOUT s; its stdout, stderr and exit status in $W/ARCH/NAME.{out,err,rc}.
run() {
  local arch=$1 name=$2 rc=0
  shift 2
  local -a cmd env=(env -i PATH=/usr/bin:/bin HOME="$W/home" LANG=C.UTF-8)
  if [ "$arch" = x86_64 ]; then
    cmd=("${env[@]}" WALLBOARD_HOME="$DATA" "$HOST_BIN")
  else
    cmd=("${env[@]}" "$QEMU" -L "$SYSROOT" "$ARM_BIN")
  fi
  timeout -k 5 "$TIMEOUT" "${cmd[@]}" "$@" >"$W/$arch/$name.out" 2>"$W/$arch/$name.err" </dev/null || rc=$?
  echo "$rc" >"$W/$arch/$name.rc"
}

# pixels A B: whether two PNGs' pixels differ, and where (Pillow).
pixels() {
  [ "$HAVE_PIL" = 1 ] || {
    echo "pixels not compared (no Pillow)"
    return
  }
  "$PYTHON" -B - "$1" "$2" <<'PY'
import sys
from PIL import Image, ImageChops
a, b = (Image.open(p).convert("RGBA") for p in sys.argv[1:3])
if a.size != b.size:
    print(f"sizes differ: {a.size[0]}x{a.size[1]} and {b.size[0]}x{b.size[1]}")
    sys.exit()
if a.tobytes() == b.tobytes():
    print("pixels equal (only the encoding differs)")
    sys.exit()
# The largest delta of any channel, alpha too, per pixel (an RGBA image's getbbox reads alpha only).
d = None
for x, y in zip(a.split(), b.split()):
    band = ImageChops.difference(x, y)
    d = band if d is None else ImageChops.lighter(d, band)
hist = d.histogram()
n = d.size[0] * d.size[1] - hist[0]
big = max(i for i, c in enumerate(hist) if c)
print(f"{n} pixels differ within {d.getbbox()}, largest channel delta {big}")
PY
  [ $? = 0 ] || echo "pixels not compared (Pillow could not read them)"
}

PASSED=0
FAILED=0
pass() {
  echo "PASS $1: $2"
  PASSED=$((PASSED + 1))
}
fail() {
  echo "FAIL $1: $2"
  FAILED=$((FAILED + 1))
}

# lines_differ A B: how many lines of A and B differ, and the first of them.
lines_differ() {
  { diff "$1" "$2" || true; } | awk '/^[<>]/ { n++; if (!first) first = substr($0, 1, 200) } END { printf "%d lines; first: %s", n, first }'
}

# compare NAME [PNG]: both runs of NAME agree: exit status 0 on both, stdout, stderr, the PNG.
compare() {
  local name=$1 png=${2:-} h="$W/x86_64/$1" a="$W/aarch64/$1" what=() rc_h rc_a
  rc_h=$(cat "$h.rc")
  rc_a=$(cat "$a.rc")
  case "$rc_h" in 124 | 137) what+=("x86_64 timed out after $TIMEOUT s") ;; esac
  case "$rc_a" in 124 | 137) what+=("aarch64 timed out after $TIMEOUT s") ;; esac
  if [ "$rc_h" != 0 ]; then what+=("x86_64 exit status $rc_h: $(head -c 300 "$h.err")"); fi
  if [ "$rc_h" != "$rc_a" ]; then what+=("exit status $rc_h (x86_64) and $rc_a (aarch64): $(head -c 300 "$a.err")"); fi
  if ! cmp -s "$h.out" "$a.out"; then what+=("stdout differs ($(lines_differ "$h.out" "$a.out"))"); fi
  if ! cmp -s "$h.err" "$a.err"; then what+=("stderr differs ($(lines_differ "$h.err" "$a.err"))"); fi
  if [ -n "$png" ]; then
    if [ ! -s "$h.png" ] || [ ! -s "$a.png" ]; then
      what+=("no PNG from $([ -s "$h.png" ] || echo "x86_64 ")$([ -s "$a.png" ] || echo aarch64)")
    elif ! cmp -s "$h.png" "$a.png"; then
      what+=("the PNGs differ ($(stat -c %s "$h.png") and $(stat -c %s "$a.png") bytes; $(pixels "$h.png" "$a.png"))")
    fi
  fi
  if [ ${#what[@]} = 0 ]; then
    if [ -n "$png" ]; then
      pass "$name" "PNG byte-identical ($(stat -c %s "$h.png") bytes, $("$PYTHON" -B -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print("%dx%d" % struct.unpack(">II", d[16:24]))' "$h.png")), stdout and stderr the same"
    else
      pass "$name" "stdout the same ($(wc -c <"$h.out") bytes), stderr the same, exit 0"
    fi
  else
    local all
    all=$(printf '%s; ' "${what[@]}")
    fail "$name" "${all%; }"
  fi
}

# case_ NAME COMMAND ARGS…: runs COMMAND on both builds and compares; a snapshot writes
# NAME.png beside the rest.
case_() {
  local name=$1 command=$2 png=""
  shift 2
  local -a extra=()
  if [ "$command" = snapshot ]; then
    png=1
    extra=(--out "$W/x86_64/$name.png")
    run x86_64 "$name" "$command" "${extra[@]}" "$@"
    extra=(--out "$W/aarch64/$name.png")
    run aarch64 "$name" "$command" "${extra[@]}" "$@"
  else
    run x86_64 "$name" "$command" "$@"
    run aarch64 "$name" "$command" "$@"
  fi
  compare "$name" "$png"
}

START=$EPOCHREALTIME
echo "pi-test: $HOST_BIN (x86_64) against $ARM_BIN (aarch64, $QEMU -L ${SYSROOT#"$ROOT"/})"

# The arm64 binary finds its data as an installed binary does: beside itself
# (PI_PREFIX/bin/../share/wallboard), with no WALLBOARD_HOME (QEMU_STRACE lists its opens).
run aarch64 finds-data themes
env -i PATH=/usr/bin:/bin HOME="$W/home" QEMU_STRACE=1 timeout -k 5 "$TIMEOUT" \
  "$QEMU" -L "$SYSROOT" "$ARM_BIN" themes >/dev/null 2>"$W/aarch64/finds-data.strace" </dev/null || true
first=$(grep -oE '"[^"]*assets/themes/ORDER"' "$W/aarch64/finds-data.strace" | head -n1 | tr -d '"')
if [ "$(cat "$W/aarch64/finds-data.rc")" = 0 ] && [ "$(readlink -m "$first")" = "$DATA/assets/themes/ORDER" ]; then
  pass finds-data "the arm64 binary looks for its data in the installed tree first: $first"
else
  fail finds-data "the arm64 binary did not look in $DATA first (exit $(cat "$W/aarch64/finds-data.rc"); first looked at ${first:-nothing}): $(head -c 300 "$W/aarch64/finds-data.err")"
fi

case_ version --version
case_ themes themes
case_ layouts layouts

# Snapshots: the simulated team and the worked example, the bundled layouts, sizes (a portrait
# one too), themes, variants, a scale, rotations and time zones whose offsets are not whole
# hours (Kolkata +5:30, St John's -3:30), each at a fixed moment.
SIM=(--source sim:seed=1 --at 2026-11-11T15:00:00Z)
JSONL=(--source "jsonl:$EVENTS" --at 2026-11-06T12:00:00Z)
case_ sim-wall-1920x1080-utc snapshot "${SIM[@]}" --layout wall --size 1920x1080 --tz UTC
case_ sim-tv-1280x720-kolkata snapshot "${SIM[@]}" --layout tv --size 1280x720 --tz Asia/Kolkata --theme dracula
case_ sim-glance-800x480-stjohns snapshot --source sim:seed=7 --at 2026-11-12T03:30:00Z --layout glance \
  --size 800x480 --tz America/St_Johns --theme github-light
case_ sim-portrait-1080x1920-utc snapshot "${SIM[@]}" --layout portrait --size 1080x1920 --tz UTC --theme solarized-light
case_ sim-auto-rotate90-1920x1080 snapshot "${SIM[@]}" --size 1920x1080 --rotate 90 --tz Asia/Kolkata --theme matrix
case_ sim-wall-rotate180-1920x1080 snapshot "${SIM[@]}" --layout wall --size 1920x1080 --rotate 180 --tz UTC \
  --theme synthwave-84 --variant compact
case_ sim-glance-rotate270-800x480 snapshot "${SIM[@]}" --layout glance --size 800x480 --rotate 270 \
  --tz America/St_Johns --theme one-dark --variant modern
case_ sim-tv-scale-1280x720 snapshot "${SIM[@]}" --layout tv --size 1280x720 --scale 1.25 --tz UTC --theme forest
case_ jsonl-wall-1920x1080-utc snapshot "${JSONL[@]}" --layout wall --size 1920x1080 --tz UTC
case_ jsonl-glance-800x480-kolkata snapshot "${JSONL[@]}" --layout glance --size 800x480 --tz Asia/Kolkata --theme lighter
case_ jsonl-portrait-1080x1920-stjohns snapshot "${JSONL[@]}" --layout portrait --size 1080x1920 \
  --tz America/St_Johns --theme sky-blue
case_ jsonl-tv-rotate90-1280x720 snapshot "${JSONL[@]}" --layout tv --size 1280x720 --rotate 90 --tz UTC --theme volcano
case_ jsonl-wall-unit-count-1280x720 snapshot "${JSONL[@]}" --layout wall --size 1280x720 --unit count \
  --tz America/St_Johns --theme palenight

# Every theme the tree ships, once each, at 800x480 on the simulated team, the zones and
# rotations taken in turn.
zones=(UTC Asia/Kolkata America/St_Johns)
turns=(0 90 180 270)
i=0
while read -r theme; do
  case_ "theme-$theme" snapshot "${SIM[@]}" --size 800x480 --theme "$theme" --tz "${zones[i % 3]}" --rotate "${turns[i % 4]}"
  i=$((i + 1))
done < <(grep -v '^#' "$DATA/assets/themes/ORDER")
[ "$i" -ge 26 ] || fail themes-listed "ORDER lists $i themes, fewer than the 26 shipped"

# inspect: the projections as JSON, in each zone (the worked example's sprint takes the board's
# zone; the simulated team's sprints are in UTC, so other moments and seeds instead).
case_ inspect-sim-utc inspect "${SIM[@]}" --tz UTC
case_ inspect-sim-sprint2-kolkata inspect --source sim:seed=3 --at 2026-11-25T09:45:00Z --tz Asia/Kolkata
case_ inspect-sim-stjohns inspect --source sim:seed=7 --at 2026-11-12T03:30:00Z --tz America/St_Johns
case_ inspect-jsonl-utc inspect "${JSONL[@]}" --tz UTC
case_ inspect-jsonl-kolkata inspect "${JSONL[@]}" --tz Asia/Kolkata
case_ inspect-jsonl-stjohns inspect "${JSONL[@]}" --tz America/St_Johns

awk -v a="$START" -v b="$EPOCHREALTIME" 'BEGIN{printf "pi-test: ran in %.0f s\n", b-a}'
echo "pi-test: $PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
