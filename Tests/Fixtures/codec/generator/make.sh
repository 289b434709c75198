#!/bin/bash
# usage: make.sh N COMMIT EXTRA (EXTRA: before-v4.swift or v4.swift); see Tests/Fixtures/README.md
set -e
n=$1; c=$2; extra=$3
d=${TMPDIR:-/tmp}/codec-fixture-v$n; rm -rf $d; mkdir -p $d/out
git -C "$(dirname "$0")/../../../.." archive $c Sources/WallboardCore | tar -x -C $d
swiftc -Onone -module-name WallboardCore $(find $d/Sources/WallboardCore -name '*.swift') "$(dirname "$0")/main.swift" "$(dirname "$0")/$extra" -o $d/gen -lm
$d/gen $d/out && echo "written: $d/out (copy to Tests/Fixtures/codec/v$n)"
