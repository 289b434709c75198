#!/usr/bin/env bash
# `make soak`: a month on the wall, fast, and a live feed at 2,000 events a second. Three runs of
# `wallboard run`, each through the full path to an off-screen display (`--display png:` at
# 1920x1080, rewritten at most once a second) with its journal on:
#   1. the simulated team at a simulated day a second: 30 days in 30 s (reduce, journal, project,
#      render, encode), the journal bounded to 1 MB;
#   2. 30 days of a 50-feature team's events as JSON Lines on standard input, paced to arrive in
#      30 s (decode too): 259,200 events, a status change every 10 simulated seconds. The board
#      keeps at most 512 versions of a feature; every feature has them by the third day, so the
#      state is at its full size within the warm-up and what grows after it is a leak;
#   3. live: 2,000 events a second on standard input for SECONDS (default 600; CI 120), every one
#      dated now (scripts/soak-feed.py), so that all of them fall inside the journal's retention
#      window, to 100 features with long titles (their 512 versions are full after 26 s: the
#      board is at its full size within the warm-up), the journal bounded to 16 MB — reached
#      within a minute, so that the run proves it is held while it compacts.
# Resident memory is sampled every second. The first third of a run is its warm-up (at least 60 s
# for the live run: its journal reaches its bound then); the rest is cut in two halves, and a run
# fails when the median of the second half is more than its limit above the first half's — 2 MB
# (2,048 KiB) for the 30-second runs, 4 MB (4,096 KiB) for the live one. A leak moves every
# sample after it, so the median; a frame's buffers, there one second and gone the next, move
# single samples by as much as 8 MB (a 1080p canvas and its PNG) and cannot decide it alone. The
# live run also fails when its journal (file, -wal and -shm, watched every 5 ms) is ever seen past
# its bound (docs/journal.md, "Retention").
# Prints one line per run, "soak: PASS" or "soak: FAIL". Arguments: the binary, seconds of the
# live run (the month runs take 30 s each).
set -euo pipefail
bin="$1"
live_seconds="${2:-600}"
(( live_seconds >= 90 )) || { echo "soak: the live run needs at least 90 seconds (a minute of warm-up, then samples)"; exit 2; }
seconds=30
limit_kib=2048
warm_min=0
journal_mb=1
here="$(cd "$(dirname "$0")" && pwd)"
dir="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$dir"' EXIT
failed=0

# The bytes a journal takes: its file, -wal and -shm (those there).
on_disk() {
  local total=0 f n
  for f in "$1" "$1-wal" "$1-shm"; do
    n=$(stat -c %s "$f" 2>/dev/null || echo 0)
    total=$(( total + n ))
  done
  echo "$total"
}

# $1: a name; $2: the pid of the board. Samples its memory every second for `seconds`, then
# stops it and reports.
sample() {
  local name="$1" pid="$2" samples=() rss
  local journal="$dir/$name.db" largest=0
  "${PYTHON:-python3}" "$here/soak-journal.py" "$pid" "$journal" "$dir/$name.peak" &
  pids+=($!)
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
  # The same measure on both halves after the warm-up: the median (a frame's buffers, there for
  # one sample, cannot decide it alone; a leak moves every sample after it).
  local warm=$(( ${#samples[@]} / 3 )) n=${#samples[@]}
  (( warm < warm_min )) && warm=$warm_min
  local half=$(( (n - warm) / 2 ))
  local base end peak=0 s
  base=$(printf '%s\n' "${samples[@]:$warm:$half}" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
  end=$(printf '%s\n' "${samples[@]:$((n - half)):$half}" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
  for s in "${samples[@]:$warm}"; do (( s > peak )) && peak=$s; done
  local last="${samples[-1]}" growth=$(( end - base ))
  local verdict=met
  (( growth > limit_kib )) && { verdict=MISSED; failed=1; }
  (( status != 0 )) && { verdict="MISSED (exit status $status on SIGTERM)"; failed=1; }
  # The largest the journal was seen at (scripts/soak-journal.py, every 5 ms).
  [ -s "$dir/$name.peak" ] && read -r largest _ < "$dir/$name.peak"
  # The live run's journal keeps to its bound itself: the room its budget leaves (the log's
  # share, 2 MiB, three 1.1 MB boards and two writes) is under half of it (JournalWriter.boundMargin
  # is 0). The month runs' 1 MB journals hold boards and writes (1,700 inputs a write) too large
  # beside it for that: they are kept at half of it, and may pass it by the rest of that room.
  local held=$(( journal_mb * 1048576 )) jverdict=held
  if (( largest <= held )); then jverdict=held
  elif (( warm_min == 0 )); then jverdict="past it, not judged (its boards and writes are too large beside 1 MB)"
  else jverdict=MISSED; failed=1; fi
  local size
  size=$(on_disk "$journal")
  awk -v n="$name" -v b="$base" -v e="$end" -v p="$peak" -v l="$last" -v g="$growth" -v v="$verdict" -v size="$size" \
    -v lim="$limit_kib" -v big="$largest" -v held="$held" -v jv="$jverdict" -v w="$warm" 'BEGIN {
    printf "soak %s: resident (median) %.1f MiB after the warm-up (%d s), %.1f MiB in the last half (at most %.1f MiB after warm-up): %+d KiB  goal ≤ +%d KiB: %s; journal %.1f MiB at the end, at most %.1f MiB  goal ≤ %.1f MiB: %s\n", n, b / 1024, w, e / 1024, p / 1024, g, lim, v, size / 1048576, big / 1048576, held / 1048576, jv
  }'
  grep -h "kept" "$dir/$name.err" | sed "s|^|soak $name: |" || true
}

# 1. The simulated team.
"$bin" run --source sim:speed=86400 --display "png:$dir/sim.png" --size 1920x1080 --tz UTC \
  --journal "$dir/sim.db" --journal-size "$journal_mb" >/dev/null 2>"$dir/sim.err" &
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
  --journal "$dir/jsonl.db" --journal-size "$journal_mb" < "$dir/feed" >/dev/null 2>"$dir/jsonl.err" &
pids+=($!)
sample jsonl "${pids[-1]}"

# 3. Live: 2,000 events a second dated now, for `live_seconds`, the journal bounded to 16 MB.
seconds=$live_seconds
limit_kib=4096
warm_min=60
journal_mb=16
mkfifo "$dir/live"
"${PYTHON:-python3}" "$here/soak-feed.py" 2000 "$seconds" 100 > "$dir/live" 2>"$dir/live-feed.err" &
pids+=($!)
"$bin" run --source jsonl:- --display "png:$dir/live.png" --size 1920x1080 --tz UTC \
  --journal "$dir/live.db" --journal-size "$journal_mb" < "$dir/live" >/dev/null 2>"$dir/live.err" &
pids+=($!)
sample live "${pids[-1]}"
sed "s|^|soak live: |" "$dir/live-feed.err" || true

if (( failed )); then echo "soak: FAIL"; exit 1; fi
echo "soak: PASS"
