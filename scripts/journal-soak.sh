#!/usr/bin/env bash
# A month of the simulated team at high speed with a journal: `wallboard run` on the simulation at
# 86,400 simulated seconds a second (a simulated day a second: 30 days in 30 s), the journal
# bounded to `mb` MB. Samples the board's resident memory every second and compares the tenth
# day with the last; reports the journal's size on disk at the end: the memory must stay flat and
# the journal within its bound.
set -euo pipefail
bin="$1"
seconds="${2:-30}"
mb="${3:-1}"
dir="$(mktemp -d)"
journal="$dir/journal.db"
"$bin" run --source sim:speed=86400 --display text --tz UTC --journal "$journal" --journal-size "$mb" \
  >/dev/null 2>"$dir/err" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"; }
samples=()
for _ in $(seq 1 "$seconds"); do
  sleep 1
  kill -0 "$pid" 2>/dev/null || { echo "journal soak: the board exited early: $(cat "$dir/err")"; exit 1; }
  samples+=("$(rss)")
done
kill -TERM "$pid"
wait "$pid" || true
size=$(( $(stat -c %s "$journal") + $( [ -f "$journal-wal" ] && stat -c %s "$journal-wal" || echo 0) ))
rows=$(sqlite3 "$journal" "SELECT count(*) || ' inputs, ' || (SELECT count(*) FROM snapshots) || ' snapshots, from ' || coalesce((SELECT datetime(min(at)/1000, 'unixepoch') FROM snapshots), '-') || ' to ' || coalesce((SELECT datetime(max(at)/1000, 'unixepoch') FROM snapshots), '-') FROM inputs" 2>/dev/null || echo "?")
third="${samples[$(( ${#samples[@]} / 3 ))]}"
last="${samples[-1]}"
awk -v a="$third" -v b="$last" -v size="$size" -v mb="$mb" -v s="$seconds" -v rows="$rows" 'BEGIN {
  growth = (b - a) / a * 100
  printf "journal soak (sim, a day a second, %d days): memory %.1f MiB on day %d, %.1f MiB on the last (%+.1f %%)  goal flat (≤ 5 %%): %s\n", s, a / 1024, int(s / 3), b / 1024, growth, (growth <= 5 ? "met" : "MISSED")
  printf "journal soak: %d bytes on disk, bound %d MB: %s (%s)\n", size, mb, (size <= mb * 1048576 ? "within" : "OVER"), rows
}'
grep -h "kept" "$dir/err" || true
