#!/usr/bin/env bash
# Makes (once) the Python venv the QUIC test peer runs in and prints its python's path as the
# last line on stdout:
#
#   PY="$(scripts/quic-venv.sh | tail -n1)"
#   "$PY" -B Tests/OrchestraPeer/quic_peer.py --port 0 --certs DIR
#
# The venv is .build/quic-venv, made from Debian's /usr/bin/python3 with --system-site-packages
# so that Debian's python3-protobuf (which pb.py needs) stays visible, with aioquic and its
# dependencies pinned below installed from PyPI into the venv only — never into the system
# Python. Missing Debian packages (python3-venv, python3-protobuf) are installed with apt-get.
#
# Idempotent and quiet: when the venv already holds exactly these pins (a stamp file records
# them) it only prints the path. Concurrent callers serialise on a lock file. Progress and
# errors go to stderr; exit status is non-zero when the venv cannot be made.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.build/quic-venv"
PY="$VENV/bin/python"
STAMP="$VENV/.wallboard-pins"
# aioquic 1.7.2 and the exact versions of what it pulls in (checked with `pip index versions`
# and a clean install on Debian 12's Python 3.11). Change them together.
PINS="aioquic==1.7.2
attrs==26.1.0
certifi==2026.10.19.post1
cffi==2.1.1
cryptography==50.0.2
pycparser==3.12
pylsqpack==1.0.0
pyopenssl==26.4.0
service-identity==26.1.0
typing-extensions==4.16.0"

export PYTHONDONTWRITEBYTECODE=1
export PIP_DISABLE_PIP_VERSION_CHECK=1

note() { echo "quic-venv: $*" >&2; }

if [ -x "$PY" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$PINS" ]; then
  echo "$PY"
  exit 0
fi

mkdir -p "$ROOT/.build"
exec 9>"$ROOT/.build/quic-venv.lock"
flock 9
# Another caller may have finished the job while we waited for the lock.
if [ -x "$PY" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$PINS" ]; then
  echo "$PY"
  exit 0
fi

apt_install() {
  local SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  note "installing Debian packages: $*"
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >&2
}

missing=()
/usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
/usr/bin/python3 -c 'import google.protobuf' 2>/dev/null || missing+=(python3-protobuf)
if [ "${#missing[@]}" -gt 0 ]; then
  apt_install "${missing[@]}"
fi

if [ ! -x "$PY" ]; then
  note "creating $VENV"
  rm -rf "$VENV"
  /usr/bin/python3 -m venv --system-site-packages "$VENV" >&2
fi

note "installing $(echo "$PINS" | head -n1) and its dependencies into $VENV"
# shellcheck disable=SC2086
"$PY" -m pip install --quiet --no-input $PINS >&2
"$PY" -c 'import aioquic, google.protobuf' >&2
echo "$PINS" >"$STAMP"
echo "$PY"
