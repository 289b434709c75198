#!/bin/bash
# usage: make.sh N COMMIT EXTRA (EXTRA: before-v4.swift, v4.swift, v5.swift or v6.swift; COMMIT "." is the
# working tree); see Tests/Fixtures/README.md
set -e
n=$1; c=$2; extra=$3
root="$(cd "$(dirname "$0")/../../../.." && pwd)"
d=${TMPDIR:-/tmp}/codec-fixture-v$n; rm -rf $d; mkdir -p $d/out
if [ "$c" = . ]; then
  mkdir -p $d/Sources && cp -r "$root/Sources/WallboardCore" $d/Sources/
  cp -r "$root/Sources/Codec" $d/Sources/
else
  git -C "$root" archive $c Sources/WallboardCore | tar -x -C $d
  # From format 5 on the codec is a module of its own: compiled with the core as one.
  if git -C "$root" cat-file -e "$c:Sources/Codec" 2>/dev/null; then git -C "$root" archive $c Sources/Codec | tar -x -C $d; fi
fi
swiftc -Onone -module-name WallboardCore -package-name Wallboard -suppress-warnings $(find $d/Sources -name '*.swift') "$(dirname "$0")/main.swift" "$(dirname "$0")/$extra" -o $d/gen -lm
$d/gen $d/out && echo "written: $d/out (copy to Tests/Fixtures/codec/v$n)"
