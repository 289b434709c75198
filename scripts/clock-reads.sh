#!/bin/sh
# Fails when a real clock is read outside the clock's files (issue 22: one clock).
#
# Usage: scripts/clock-reads.sh [SOURCES]   (default: Sources)
#
# The one clock is `Clock` (Sources/Clock): `Clock.system` is the only reader of the real
# clocks, `App` makes it and passes it down. The benchmark (Sources/wallboard-bench) is an edge
# like `App`: it measures the real process from outside, with the real clocks. Comment lines
# (`//`, `///`) are not reads. Prints each read found as FILE:LINE: TEXT and exits 1; exits 0
# when there is none.
set -eu
root="${1:-Sources}"
[ -d "$root" ] || { echo "clock-reads: no folder $root" >&2; exit 2; }
pattern='Date\(\)|Date\(timeIntervalSinceNow|DispatchTime\.now|DispatchWallTime\.now|clock_gettime|ProcessInfo\.processInfo\.systemUptime|CFAbsoluteTimeGetCurrent|time\(nil\)|gettimeofday'
found=$(grep -rnE --include='*.swift' --include='*.h' --include='*.c' "$pattern" "$root" \
  | grep -vE "^$root/(Clock|wallboard-bench)/" \
  | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
if [ -n "$found" ]; then
  echo "$found"
  echo "clock-reads: a clock is read outside Sources/Clock; take the time from the Clock passed down from App" >&2
  exit 1
fi
