#!/usr/bin/env bash
# Certificates for the TLS tests, made with openssl into DIR:
#   ca.pem / ca.key            a test CA
#   good.pem / good.key        127.0.0.1 and localhost, signed by the CA
#   wrong-host.pem / .key      only wrong-host.example, signed by the CA
#   expired.pem / .key         127.0.0.1, signed by the CA, valid in 2020 only
#   unknown-ca.pem / .key      127.0.0.1, signed by another CA nobody trusts
# Usage: tls-certs.sh DIR     Exit: 0 made; 125 no openssl (1 under CI=true).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/skip.sh"
require_tool openssl "apt-get install -y openssl"
dir="${1:?usage: tls-certs.sh DIR}"
mkdir -p "$dir"
cd "$dir"

key() { openssl genrsa -out "$1" 2048 2>/dev/null; }
ca() {  # ca NAME SUBJECT
  key "$1.key"
  openssl req -x509 -new -key "$1.key" -sha256 -days 3650 -subj "/CN=$2" -out "$1.pem" 2>/dev/null
}
# leaf NAME CA SAN [STARTDATE ENDDATE]: a server certificate signed by CA
leaf() {
  local name="$1" issuer="$2" san="$3"
  key "$name.key"
  openssl req -new -key "$name.key" -subj "/CN=jgrid-local test" -out "$name.csr" 2>/dev/null
  mkdir -p "ca-$issuer/new"
  : >"ca-$issuer/index.txt"
  [ -f "ca-$issuer/serial" ] || echo 1000 >"ca-$issuer/serial"
  cat >"$name.cnf" <<CNF
[ca]
default_ca = test
[test]
dir = ca-$issuer
database = \$dir/index.txt
new_certs_dir = \$dir/new
serial = \$dir/serial
certificate = $issuer.pem
private_key = $issuer.key
default_md = sha256
policy = any
copy_extensions = none
unique_subject = no
[any]
commonName = supplied
[leaf]
basicConstraints = CA:FALSE
keyUsage = digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = $san
CNF
  local dates=(-days 825)
  [ $# -ge 5 ] && dates=(-startdate "$4" -enddate "$5")
  openssl ca -batch -config "$name.cnf" -extensions leaf "${dates[@]}" -in "$name.csr" -out "$name.pem" \
    -notext 2>/dev/null
  rm -f "$name.csr" "$name.cnf"
}

ca ca "jgrid-local test CA"
ca other-ca "an unknown CA"
leaf good ca "IP:127.0.0.1,DNS:localhost"
leaf wrong-host ca "DNS:wrong-host.example"
leaf expired ca "IP:127.0.0.1,DNS:localhost" 20200101000000Z 20200102000000Z
leaf unknown-ca other-ca "IP:127.0.0.1,DNS:localhost"
