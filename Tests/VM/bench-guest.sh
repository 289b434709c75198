# Runs in the guest (busybox sh), from the 9p share, for `make bench` (Tests/VM/bench.sh): what
# the board costs there, written as "NAME VALUE…" lines to /host/out/figures:
#   screen W H                    the DRM connector's mode (virtio-gpu's xres × yres)
#   version MS                    `--version`, start to exit (ms of uptime, 10 ms steps), a run
#   version-peak KIB              its peak resident memory (VmHWM) at exit, a run
#   version-rss ANON FILE SHMEM   VmHWM's parts then: RssAnon, RssFile, RssShmem (KiB), a run
#   snapshot-peak KIB             a WxH snapshot's peak resident memory (the last VmHWM seen)
#   first-frame DISP MS           `run --display DISP`: exec to the first frame presented, a run
#   resident DISP RSS ANON FILE SHMEM DEVICE   that board's memory (KiB) a few seconds after its
#                                 first frame; DEVICE: what of it is the display's own memory
#                                 mapped (the framebuffer, DRM's buffers: /dev/fb0, /dev/dri/*)
#   idle DISP TICKS SECONDS HZ    its CPU (user + system clock ticks) over SECONDS of idling
# The board reads the events in /host/events.jsonl from a file, without a journal; the guest's
# clock is set to the moment they show.
set -u
OUT=/host/out
B=/usr/local/bin/wallboard
RUNS=$(cat /host/runs 2> /dev/null || echo 5)
IDLE=$(cat /host/idle-seconds 2> /dev/null || echo 20)
F=$OUT/figures
: > $F
date -u -s "2026-11-05 18:00:00" > /dev/null
cp /host/events.jsonl /tmp/events.jsonl
mode=$(head -n1 /sys/class/drm/card0-*/modes | head -n1)
echo "screen ${mode%x*} ${mode#*x}" >> $F
up() { cut -d' ' -f1 /proc/uptime | tr -d .; }
# A status field (KiB) of process $1: $2 is VmHWM, VmRSS, RssAnon, RssFile or RssShmem.
field() { sed -n "s/^$2:[^0-9]*\([0-9]*\).*/\1/p" /proc/$1/status 2> /dev/null; }
# KiB resident in process $1's mappings of the display devices.
device() { awk '/^[0-9a-f]+-[0-9a-f]+ /{d = ($6 ~ /^\/dev\/(fb|dri)/)} d && /^Rss:/{s += $2} END{print s + 0}' /proc/$1/smaps; }
# User + system clock ticks of process $1.
ticks() { set -- $(cut -d' ' -f14,15 /proc/$1/stat); echo $(($1 + $2)); }

# --version, timed by the uptime around it.
for i in $(seq "$RUNS"); do
  a=$(up)
  $B --version > /dev/null
  b=$(up)
  echo "version $(((b - a) * 10))" >> $F
done
# Its peak at exit: standard output is a pipe already full, so the board blocks in its last
# write, at exit, all its work done; its memory is read then, and the pipe drained. A new pipe
# each run: what the drain left unread must not fill the next one.
for i in $(seq "$RUNS"); do
  mkfifo /tmp/full.$i
  exec 3<> /tmp/full.$i
  dd if=/dev/zero bs=65536 count=1 2> /dev/null >&3
  $B --version >&3 &
  pid=$!
  # Looked at until it waits in pipe_write.
  j=0
  while [ $j -lt 250 ] && [ "$(cat /proc/$pid/wchan 2> /dev/null)" != pipe_write ]; do
    sleep 0.02
    j=$((j + 1))
  done
  echo "version-peak $(field $pid VmHWM)" >> $F
  echo "version-rss $(field $pid RssAnon) $(field $pid RssFile) $(field $pid RssShmem)" >> $F
  cat <&3 > /dev/null &
  drain=$!
  wait $pid
  kill $drain 2> /dev/null
  wait $drain 2> /dev/null
  exec 3>&-
  rm -f /tmp/full.$i
done

# A snapshot at the screen's size: its memory looked at until it exits (VmHWM only grows).
$B snapshot --out /tmp/s.png --source jsonl:/tmp/events.jsonl --tz UTC --no-journal --size "$mode" &
pid=$!
peak=0
while [ -e /proc/$pid/status ]; do
  p=$(field $pid VmHWM)
  [ -n "$p" ] && [ "$p" -gt "$peak" ] && peak=$p
done
wait $pid
echo "snapshot-peak $peak" >> $F

# The board on DRM and on the framebuffer: started RUNS times each, stopped once its first frame
# is said; the last run is left idle IDLE seconds first.
for disp in drm fb; do
  for i in $(seq "$RUNS"); do
    $B run --display $disp --source jsonl:/tmp/events.jsonl --tz UTC --pixel-shift off --no-journal \
      < /dev/null 2> /tmp/err &
    pid=$!
    j=0
    while ! grep -qs "first frame" /tmp/err && [ $j -lt 400 ]; do sleep 0.05; j=$((j + 1)); done
    cat /tmp/err >> $OUT/board.err
    ms=$(sed -n 's/.*first frame \([0-9]*\) ms after start.*/\1/p' /tmp/err)
    echo "first-frame $disp ${ms:-none}" >> $F
    if [ "$i" = "$RUNS" ]; then
      sleep 3
      echo "resident $disp $(field $pid VmRSS) $(field $pid RssAnon) $(field $pid RssFile) $(field $pid RssShmem) $(device $pid)" >> $F
      a=$(ticks $pid)
      sleep "$IDLE"
      b=$(ticks $pid)
      echo "idle $disp $((b - a)) $IDLE 100" >> $F
    fi
    kill -TERM $pid
    wait $pid
  done
done
echo "== done"
