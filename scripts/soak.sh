#!/usr/bin/env bash
# `make soak`: a month on the wall, fast. Two runs of `wallboard run`, each through the full path
# to an off-screen display (`--display png:` at 1920x1080, rewritten at most once a second) with
# its journal on (bounded to 1 MB):
#   1. the simulated team at a simulated day a second: 30 days in 30 s (reduce, journal, project,
#      render, encode);
#   2. 30 days of a 50-feature team's events as JSON Lines on standard input, paced to arrive in
#      30 s (decode too): 259,200 events, a status change every 10 simulated seconds. The board
#      keeps at most 512 versions of a feature; every feature has them by the third day, so the
#      state is at its full size within the warm-up and what grows after it is a leak.
# Resident memory is sampled every second. The first third of a run is its warm-up; the run fails
# when resident memory grows more than 2 MB (2,048 KiB) from the end of the warm-up to the end of
# the run (each the largest of three samples).
# Prints one line per run, "soak: PASS" or "soak: FAIL". Arguments: the binary, seconds a run.
set -euo pipefail
bin="$1"
seconds="${2:-30}"
(( seconds >= 9 )) || { echo "soak: a run needs at least 9 seconds (a third of warm-up, three samples at each end)"; exit 2; }
limit_kib=2048
dir="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$dir"' EXIT
failed=0

# $1: a name; $2: the pid of the board. Samples its memory every second for `seconds`, then
# stops it and reports.
sample() {
  local name="$1" pid="$2" samples=() rss
  for _ in $(seq 1 "$seconds"); do
    sleep 1
    kill -0 "$pid" 2>/dev/null || { echo "soak $name: the board exited early: $(tail -3 "$dir/$name.err")"; failed=1; return; }
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss" ] || { echo "soak $name: the board exited early: $(tail -3 "$dir/$name.err")"; failed=1; return; }
    samples+=("$rss")
  done
  kill -TERM "$pid"
  local status=0
  wait "$pid" || status=$?
  # The same measure at both ends: the largest of three samples where the warm-up ends, and of
  # the last three (one sample's transient, a frame's buffers, cannot decide it alone).
  local warm=$(( ${#samples[@]} / 3 )) n=${#samples[@]}
  local base=0 end=0 peak=0 s
  for s in "${samples[@]:$((warm - 3)):3}"; do (( s > base )) && base=$s; done
  for s in "${samples[@]:$((n - 3)):3}"; do (( s > end )) && end=$s; done
  for s in "${samples[@]:$warm}"; do (( s > peak )) && peak=$s; done
  local last="${samples[-1]}" growth=$(( end - base ))
  local verdict=met
  (( growth > limit_kib )) && { verdict=MISSED; failed=1; }
  (( status != 0 )) && { verdict="MISSED (exit status $status on SIGTERM)"; failed=1; }
  local journal="$dir/$name.db"
  local size=$(( $(stat -c %s "$journal") + $( [ -f "$journal-wal" ] && stat -c %s "$journal-wal" || echo 0) ))
  awk -v n="$name" -v b="$base" -v e="$end" -v p="$peak" -v l="$last" -v g="$growth" -v v="$verdict" -v size="$size" 'BEGIN {
    printf "soak %s: resident %.1f MiB at the end of warm-up, %.1f MiB at the end (at most %.1f MiB after warm-up): %+d KiB  goal ≤ +2048 KiB: %s; journal %d bytes\n", n, b / 1024, e / 1024, p / 1024, g, v, size
  }'
  grep -h "kept" "$dir/$name.err" | sed "s|^|soak $name: |" || true
}

# 1. The simulated team.
"$bin" run --source sim:speed=86400 --display "png:$dir/sim.png" --size 1920x1080 --tz UTC \
  --journal "$dir/sim.db" --journal-size 1 >/dev/null 2>"$dir/sim.err" &
pids+=($!)
sample sim "${pids[-1]}"

# 2. JSON Lines on standard input: 50 features, then a status change every 10 simulated seconds
# for 30 days, in chunks of `per` lines a tenth of a second apart.
awk 'BEGIN {
  split("todo in-progress in-review done", st, " ")
  start = 1793606400  # 2026-11-02T00:00:00Z
  for (n = 1; n <= 259200; n++) {
    t = start + n * 10
    d = int(t / 86400); s = t % 86400
    # Civil date from days since 1970-01-01 (Howard Hinnant).
    z = d + 719468; era = int(z / 146097); doe = z - era * 146097
    yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
    y = yoe + era * 400; doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100)); mp = int((5 * doy + 2) / 153)
    dd = doy - int((153 * mp + 2) / 5) + 1; mm = mp < 10 ? mp + 3 : mp - 9; if (mm <= 2) y++
    ts = sprintf("%04d-%02d-%02dT%02d:%02d:%02dZ", y, mm, dd, int(s / 3600), int(s / 60) % 60, s % 60)
    if (n <= 50) {
      printf "{\"topic\":\"feature.created\",\"time\":\"%s\",\"seq\":%d,\"source\":\"soak\",\"payload\":{\"id\":\"F-%d\",\"title\":\"Feature %d\",\"status\":\"todo\",\"points\":%d}}\n", ts, n, n, n, n % 8 + 1
    } else {
      printf "{\"topic\":\"feature.updated\",\"time\":\"%s\",\"seq\":%d,\"source\":\"soak\",\"payload\":{\"id\":\"F-%d\",\"status\":\"%s\"}}\n", ts, n, n % 50 + 1, st[int(n / 50) % 4 + 1]
    }
  }
}' > "$dir/events.jsonl"
per=$(( 259200 / (seconds * 9) + 1 ))
mkdir "$dir/chunks"
split -l "$per" -a 4 "$dir/events.jsonl" "$dir/chunks/c"
mkfifo "$dir/feed"
( for f in "$dir"/chunks/c*; do cat "$f"; sleep 0.1; done; exec sleep 3600 ) > "$dir/feed" &
pids+=($!)
"$bin" run --source jsonl:- --display "png:$dir/jsonl.png" --size 1920x1080 --tz UTC \
  --journal "$dir/jsonl.db" --journal-size 1 < "$dir/feed" >/dev/null 2>"$dir/jsonl.err" &
pids+=($!)
sample jsonl "${pids[-1]}"

if (( failed )); then echo "soak: FAIL"; exit 1; fi
echo "soak: PASS"
