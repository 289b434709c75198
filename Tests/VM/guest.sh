# Runs in the guest (busybox sh), from the 9p share: the board on DRM and on the framebuffer,
# each asked for screendumps at known moments. Writes what the host checks to /host/out:
#   DISP.err        the board's stderr (its device line and the first frame's time)
#   DISP.t1, .t2    the guest's clock (seconds) just before and after the board's screendump
#   DISP.cpu        "TICKS SECONDS HZ": the board's CPU time over SECONDS of idling
#   DISP.dpms-*     the connectors' DPMS state at night (blank) and in the morning
#   DISP.rc         the exit status after SIGTERM
# and the screendumps console-before, DISP, DISP-night, DISP-morning, DISP-after.
set -u
OUT=/host/out
B=/usr/local/bin/wallboard
IDLE=$(cat /host/idle-seconds 2>/dev/null || echo 0)
# The moment the board is shown at: the guest's clock starts there.
date -u -s "2026-11-05 18:00:00" > /dev/null
echo "== devices"; ls -l /dev/dri /dev/fb0; cat /sys/class/graphics/fb0/bits_per_pixel
for f in /sys/class/drm/card0-*/status; do echo "$f: $(cat "$f")"; done
vmsnap console-before
# The binary's floor under this emulation, for scale: `--version` (start, nothing drawn) and a
# snapshot of the same board (start, fonts, one frame drawn and encoded), in ms of uptime.
up() { cut -d' ' -f1 /proc/uptime | tr -d .; }
a=$(up); $B --version > /dev/null; b=$(up)
$B snapshot --out /tmp/s.png --source jsonl:- --tz UTC --no-journal --size 1280x800 < /host/events.jsonl; c=$(up)
echo "$(( (b - a) * 10 )) $(( (c - b) * 10 ))" > $OUT/floor

dpms() { cat /sys/class/drm/card0-*/dpms | tr '\n' ' '; }

for disp in drm fb; do
  : > /tmp/wallboard.conf
  $B run --display $disp --config /tmp/wallboard.conf --source jsonl:- --tz UTC --pixel-shift off \
    --no-journal < /host/events.jsonl 2> $OUT/$disp.err &
  pid=$!
  i=0
  while ! grep -qs "first frame" $OUT/$disp.err && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
  # The input read to its end (the source "ended") and drawn.
  sleep 2
  date +%s > $OUT/$disp.t1
  vmsnap $disp
  date +%s > $OUT/$disp.t2
  if [ "$IDLE" -gt 0 ]; then
    a=$(cut -d' ' -f14,15 /proc/$pid/stat)
    sleep "$IDLE"
    b=$(cut -d' ' -f14,15 /proc/$pid/stat)
    set -- $a $b
    echo "$(( $3 + $4 - $1 - $2 )) $IDLE 100" > $OUT/$disp.cpu
  fi
  # Night: the config now blanks all day; SIGHUP reloads it.
  echo "night mon-sun 00:00-24:00 blank" > /tmp/wallboard.conf
  kill -HUP $pid
  sleep 2.5
  dpms > $OUT/$disp.dpms-night
  vmsnap $disp-night
  : > /tmp/wallboard.conf
  kill -HUP $pid
  sleep 2.5
  dpms > $OUT/$disp.dpms-morning
  date +%s > $OUT/$disp-morning.t1
  vmsnap $disp-morning
  date +%s > $OUT/$disp-morning.t2
  kill -TERM $pid
  wait $pid
  echo $? > $OUT/$disp.rc
  # The console is back in text mode: what is written to it shows.
  printf 'CONSOLE BACK\n' > /dev/tty1
  sleep 0.5
  vmsnap $disp-after
  printf '\033[2J\033[H' > /dev/tty1
  sleep 0.3
done
echo "== done"
