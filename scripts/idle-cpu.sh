#!/usr/bin/env bash
# Measures the CPU a running board uses when no new events arrive: it starts `wallboard run` on
# a finished events file in an SDL window (the dummy video driver: no screen needed), lets it
# settle, and reads the process's CPU time from /proc over a measuring window.
set -euo pipefail
bin="$1"
seconds="${2:-20}"
events="$(dirname "$0")/idle-board.jsonl"
export SDL_VIDEODRIVER=dummy
# With a journal, as a board runs (in a folder of its own, not the user's state directory).
dir="$(mktemp -d)"
"$bin" run --source "jsonl:$events" --display sdl --size 1920x1080 --tz UTC --journal "$dir/journal.db" \
  >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
sleep 3   # start-up and the first frames
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks); s0=$(date +%s.%N)
sleep "$seconds"
t1=$(ticks); s1=$(date +%s.%N)
kill -0 "$pid" 2>/dev/null || { echo "idle board: the board exited early"; exit 1; }
awk -v a="$t0" -v b="$t1" -v hz="$hz" -v s0="$s0" -v s1="$s1" 'BEGIN {
  pct = (b - a) / hz / (s1 - s0) * 100
  printf "idle board (1920x1080, SDL dummy driver): %.2f %% of a core over %.0f s  goal ≤ 1 %%: %s\n", pct, s1 - s0, (pct <= 1 ? "met" : "MISSED")
}'
