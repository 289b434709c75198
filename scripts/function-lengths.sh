#!/bin/sh
# Fails when a function in the command-line module is longer than its limit (issue 22: the
# command line is an edge: parse, wire, run, turn errors into text).
#
# Usage: scripts/function-lengths.sh [FOLDER [MAX]]   (default: Sources/WallboardCLI 80)
#
# A function is a `func`, `init`, `deinit` or computed property's declaration line through the
# line whose `}` closes it, counted with the braces outside string literals and comments.
# Prints each longer one as FILE:LINE: N lines: DECLARATION and exits 1; exits 0 when none is.
set -eu
root="${1:-Sources/WallboardCLI}"
max="${2:-80}"
[ -d "$root" ] || { echo "function-lengths: no folder $root" >&2; exit 2; }
found=$(find "$root" -name '*.swift' | sort | xargs awk -v max="$max" '
  function braces(line,   s, n, i, c, q) {
    # Drops string literals ("…", with \" escapes) and a trailing // comment, then counts.
    s = ""; q = 0
    for (i = 1; i <= length(line); i++) {
      c = substr(line, i, 1)
      if (q) { if (c == "\\") i++; else if (c == "\"") q = 0; continue }
      if (c == "\"") { q = 1; continue }
      if (c == "/" && substr(line, i + 1, 1) == "/") break
      s = s c
    }
    opened += gsub(/\{/, "{", s); closed += gsub(/\}/, "}", s)
  }
  FNR == 1 { depth = 0; inside = 0; multiline = 0 }
  {
    line = $0
    # Multi-line string literals hold text, not code.
    if (line ~ /"""/) { n = gsub(/"""/, "\"\"\"", line); if (n % 2 == 1) multiline = !multiline; next }
    if (multiline) next
    if (!inside && line ~ /^[[:space:]]*((@[A-Za-z]+(\([^)]*\))?|public|private|internal|fileprivate|package|static|class|mutating|nonmutating|override|final|nonisolated|convenience|required)[[:space:]]+)*(func[[:space:]]|init[?!]?[[:space:]]*[(<]|deinit)/) {
      inside = 1; start = FNR; decl = line; depth = 0; seen = 0
    }
    if (inside) {
      opened = 0; closed = 0; braces(line)
      if (opened > 0) seen = 1
      depth += opened - closed
      if (seen && depth <= 0) {
        n = FNR - start + 1
        if (n > max) { sub(/^[[:space:]]+/, "", decl); printf "%s:%d: %d lines: %s\n", FILENAME, start, n, substr(decl, 1, 80) }
        inside = 0
      }
    }
  }')
if [ -n "$found" ]; then
  echo "$found"
  echo "function-lengths: a function in $root is longer than $max lines; split it" >&2
  exit 1
fi
