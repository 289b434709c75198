#!/usr/bin/env bash
# Builds the QUIC test peer that plays upstream Orchestra's orchestrator
# (Tests/OrchestraPeer/upstream-peer, see Tests/OrchestraPeer/UPSTREAM-TOOLS.md) and its test
# client, offline, in GOPATH mode against Debian's Go packages (golang-go 1.19,
# golang-github-lucas-clemente-quic-go-dev 0.29). Installs those packages when missing.
#
#   scripts/upstream-peer.sh            build if sources changed; last stdout line = peer binary
#
# Outputs: .build/upstream-peer/upstream-peer, .build/upstream-peer/upstream-client.
# Idempotent: rebuilds only when a source file, this script or the Go toolchain changed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/Tests/OrchestraPeer/upstream-peer"
OUT="$ROOT/.build/upstream-peer"
PEER="$OUT/upstream-peer"
CLIENT="$OUT/upstream-client"
DEBIAN_GOPATH=/usr/share/gocode
QUIC_DIR="$DEBIAN_GOPATH/src/github.com/lucas-clemente/quic-go"

need_packages() {
    command -v go >/dev/null 2>&1 || return 0
    [ -d "$QUIC_DIR" ] || return 0
    return 1
}

if need_packages; then
    if [ "$(id -u)" != 0 ]; then
        echo "upstream-peer.sh: needs golang-go and golang-github-lucas-clemente-quic-go-dev (run as root to install)" >&2
        exit 1
    fi
    echo "upstream-peer.sh: installing golang-go golang-github-lucas-clemente-quic-go-dev" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y --no-install-recommends golang-go golang-github-lucas-clemente-quic-go-dev >&2
fi

mkdir -p "$OUT"
# GOPATH: our own tree (a symlink to the sources under the import path wallboard/upstream-peer)
# first, Debian's /usr/share/gocode second.
mkdir -p "$OUT/gopath/src/wallboard"
LINK="$OUT/gopath/src/wallboard/upstream-peer"
if [ "$(readlink "$LINK" 2>/dev/null || true)" != "$SRC" ]; then
    rm -rf "$LINK"
    ln -s "$SRC" "$LINK"
fi

export GOPATH="$OUT/gopath:$DEBIAN_GOPATH"
export GO111MODULE=off
export GOPROXY=off
export GOFLAGS=
export GOTOOLCHAIN=local
export GOCACHE="$OUT/gocache"
export CGO_ENABLED=0

# Stamp: hash of every source file, this script and the toolchain version.
stamp="$( (cd "$SRC" && find . -type f -name '*.go' -print0 | sort -z | xargs -0 sha256sum)
          sha256sum "${BASH_SOURCE[0]}"
          go version
          cat "$QUIC_DIR/go.mod" ) | sha256sum | cut -c1-64)"
if [ -x "$PEER" ] && [ -x "$CLIENT" ] && [ "$(cat "$OUT/stamp" 2>/dev/null || true)" = "$stamp" ]; then
    echo "$PEER"
    exit 0
fi

rm -f "$OUT/stamp"
(cd "$LINK" && go build -trimpath -o "$PEER.tmp" wallboard/upstream-peer && mv "$PEER.tmp" "$PEER") >&2
(cd "$LINK" && go build -trimpath -o "$CLIENT.tmp" wallboard/upstream-peer/client && mv "$CLIENT.tmp" "$CLIENT") >&2
echo "$stamp" > "$OUT/stamp"
echo "$PEER"
