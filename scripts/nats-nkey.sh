#!/bin/sh
# Makes a NATS user NKey with Debian's openssl and coreutils only (no nsc, no nk: neither is
# packaged), for a hub's `authorization { users: [ { nkey: U… } ] }` and a board's seed file:
#
#   scripts/nats-nkey.sh NAME [DIR]
#
# writes DIR/NAME.nk (the seed "SU…", mode 0600) and DIR/NAME.pub (the public key "U…"; DIR
# defaults to .), and prints the public key. An existing NAME.nk is never overwritten.
#
# The encoding is nats-io/nkeys's: base32 (RFC 4648 alphabet, no padding) of prefix bytes +
# 32-byte Ed25519 key + CRC-16/XMODEM of both, little-endian. A user's public key has the prefix
# 0xA0 ('U' = 20 << 3); its seed 0x95 0x00 ('S' = 18 << 3 with the high bits of 'U', then its low
# bits). The Ed25519 seed and public key are the last 32 bytes of openssl's PKCS#8 and SPKI DER.
# POSIX sh (dash): the CRC is shell arithmetic, since Debian's awk (mawk) has no bit operations.
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ -z "$1" ]; then
  echo "usage: $0 NAME [DIR]" >&2
  exit 2
fi
name=$1
dir=${2:-.}
case $name in
*/*) echo "$0: NAME is a file name, not a path: $name" >&2; exit 2 ;;
esac
for tool in openssl od basenc tail tr; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$0: $tool is missing (apt-get install openssl coreutils)" >&2; exit 1; }
done
if [ -e "$dir/$name.nk" ]; then
  echo "$0: $dir/$name.nk exists: not overwritten" >&2
  exit 1
fi
mkdir -p "$dir"
umask 077
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

openssl genpkey -algorithm ED25519 -out "$tmp/key.pem" 2>/dev/null
openssl pkey -in "$tmp/key.pem" -outform DER | tail -c 32 >"$tmp/seed"
openssl pkey -in "$tmp/key.pem" -pubout -outform DER | tail -c 32 >"$tmp/public"
[ "$(od -An -v -tu1 "$tmp/seed" | wc -w)" -eq 32 ] && [ "$(od -An -v -tu1 "$tmp/public" | wc -w)" -eq 32 ] || {
  echo "$0: openssl did not give a 32-byte Ed25519 key" >&2
  exit 1
}

# encode FILE: FILE's bytes (prefix + key) and their CRC-16/XMODEM (little-endian), in base32
# without padding.
encode() {
  crc=0
  for byte in $(od -An -v -tu1 "$1"); do
    crc=$((crc ^ (byte << 8)))
    bit=0
    while [ $bit -lt 8 ]; do
      if [ $((crc & 32768)) -ne 0 ]; then crc=$((((crc << 1) ^ 4129) & 65535)); else crc=$(((crc << 1) & 65535)); fi
      bit=$((bit + 1))
    done
  done
  {
    cat "$1"
    # shellcheck disable=SC2059 # the format is the octal escapes of the two CRC bytes
    printf "\\$(printf %03o $((crc & 255)))\\$(printf %03o $((crc >> 8)))"
  } | basenc --base32 -w0 | tr -d '='
}

printf '\225\000' >"$tmp/s"
cat "$tmp/seed" >>"$tmp/s"
printf '\240' >"$tmp/u"
cat "$tmp/public" >>"$tmp/u"
{ encode "$tmp/s"; echo; } >"$tmp/nk"
{ encode "$tmp/u"; echo; } >"$tmp/pub"
chmod 600 "$tmp/nk"
chmod 644 "$tmp/pub"
mv "$tmp/nk" "$dir/$name.nk"
mv "$tmp/pub" "$dir/$name.pub"
cat "$dir/$name.pub"
