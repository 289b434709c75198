#!/usr/bin/env bash
# Makes the certificates the QUIC test peer and the Swift QUIC tests use, as upstream Orchestra
# makes its own (sdk-go plugin/certs.go): an Ed25519 CA (CN "Orchestra CA", O=Orchestra,
# basicConstraints CA:true pathlen:1, one year) and Ed25519 leaves (PKCS#8 keys, one year) with
# SANs {name}, localhost, 127.0.0.1, ::1, keyUsage digitalSignature and extendedKeyUsage
# serverAuth + clientAuth, where {name} is the file's stem.
#
#   Tests/OrchestraPeer/make-certs.sh OUTDIR
#
# OUTDIR then holds (every .crt PEM, every .key a PKCS#8 PEM private key, mode 600):
#   ca.crt ca.key                        the CA
#   server.crt server.key                the peer's certificate, signed by ca
#   wallboard-client.crt/.key            Wallboard's client certificate, signed by ca
#   other-ca.crt other-ca.key            a second, unrelated CA (same shape)
#   other-server.crt/.key                a server certificate from other-ca
#   other-client.crt/.key                a client certificate from other-ca (the peer refuses it)
#   wrongname-server.crt/.key            signed by ca, but SANs only elsewhere.example, 10.9.9.9
#
# Uses only Debian's openssl CLI with its own config (nothing from /etc/ssl/openssl.cnf).
# Idempotent: when every file is there and no certificate expires within a day, it does
# nothing; otherwise it makes the whole set afresh (in a scratch folder, then moved into place).
# Everything runs under a lock on OUTDIR/.make-certs.lock, so concurrent callers are safe. No prompts; about 0.1 s.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
OUT="$1"
OPENSSL="${OPENSSL:-openssl}"
NAMES=(ca server wallboard-client other-ca other-server other-client wrongname-server)

complete() {
  local n
  for n in "${NAMES[@]}"; do
    [ -s "$OUT/$n.key" ] && [ -s "$OUT/$n.crt" ] || return 1
    "$OPENSSL" x509 -in "$OUT/$n.crt" -noout -checkend 86400 >/dev/null 2>&1 || return 1
  done
}

mkdir -p "$OUT"
exec 9>"$OUT/.make-certs.lock"
flock 9
complete && exit 0

WORK="$(mktemp -d "$OUT/.make-certs.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
umask 077

# One config for everything: the subject comes from -subj, the extensions from a section.
cat >"$WORK/openssl.cnf" <<'EOF'
[req]
distinguished_name = dn
prompt = no
[dn]
[ca]
basicConstraints = critical, CA:true, pathlen:1
keyUsage = critical, digitalSignature, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[leaf]
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth, clientAuth
subjectAltName = ${ENV::LEAF_SANS}
authorityKeyIdentifier = keyid
EOF
export LEAF_SANS="DNS:unused"  # the config is read whole, [leaf] included, on every call

serial() { echo "0x1$("$OPENSSL" rand -hex 15)"; }  # 124 random bits, positive

make_ca() {  # make_ca NAME
  "$OPENSSL" genpkey -algorithm ed25519 -out "$WORK/$1.key"
  "$OPENSSL" req -config "$WORK/openssl.cnf" -x509 -new -key "$WORK/$1.key" \
    -subj "/O=Orchestra/CN=Orchestra CA" -days 365 -set_serial "$(serial)" \
    -extensions ca -out "$WORK/$1.crt"
}

make_leaf() {  # make_leaf NAME CA SANS [CN]
  local name="$1" ca="$2" cn="${4:-$1}"
  "$OPENSSL" genpkey -algorithm ed25519 -out "$WORK/$name.key"
  "$OPENSSL" req -config "$WORK/openssl.cnf" -new -key "$WORK/$name.key" \
    -subj "/O=Orchestra/CN=$cn" -out "$WORK/$name.csr"
  LEAF_SANS="$3" "$OPENSSL" x509 -req -in "$WORK/$name.csr" -CA "$WORK/$ca.crt" \
    -CAkey "$WORK/$ca.key" -set_serial "$(serial)" -days 365 \
    -extfile "$WORK/openssl.cnf" -extensions leaf -out "$WORK/$name.crt" 2>/dev/null
  rm -f "$WORK/$name.csr"
}

sans() { echo "DNS:$1,DNS:localhost,IP:127.0.0.1,IP:::1"; }

make_ca ca
make_ca other-ca
make_leaf server ca "$(sans server)"
make_leaf wallboard-client ca "$(sans wallboard-client)"
make_leaf other-server other-ca "$(sans other-server)"
make_leaf other-client other-ca "$(sans other-client)"
make_leaf wrongname-server ca "DNS:elsewhere.example,IP:10.9.9.9" elsewhere.example

# Sanity: each leaf chains to its CA (openssl verify checks signatures and dates).
for pair in server:ca wallboard-client:ca wrongname-server:ca other-server:other-ca other-client:other-ca; do
  "$OPENSSL" verify -CAfile "$WORK/${pair#*:}.crt" "$WORK/${pair%%:*}.crt" >/dev/null
done

chmod 644 "$WORK"/*.crt
for n in "${NAMES[@]}"; do
  mv -f "$WORK/$n.key" "$OUT/$n.key"
  mv -f "$WORK/$n.crt" "$OUT/$n.crt"
done
