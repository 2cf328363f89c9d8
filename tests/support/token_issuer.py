#!/usr/bin/env python3
"""Test token issuer for the registry of tests/support/registry.sh.

A Docker/OCI registry token server (the `realm` of a registry's
`auth: token` config), python3 standard library only; RS256 signatures are
made by `openssl dgst -sha256 -sign KEY`.

  GET /token?service=S&scope=repository:NAME:pull,push[&scope=...]
      with optional HTTP Basic auth. Answers
      {"token": JWT, "access_token": JWT, "expires_in": 300, "issued_at": RFC3339}.
      The JWT is what distribution 2.8 verifies: header {typ, alg RS256,
      x5c [DER of --cert]}, claims iss, sub, aud (a string: 2.8 does not
      accept a list), exp, nbf, iat, jti, access [{type, name, actions}].
      Basic auth matching a USER:PASSWORD line of --credentials: every
      requested action. Basic auth not matching: 401. No Authorization
      header (anonymous): `pull` on repositories under --public-prefix only,
      nothing on anything else (so the registry answers 401, like a private
      repository on Docker Hub).

Failure modes for the tests, every path:
  --mode hang     accepts each connection and reads the request, never answers.
  --mode garbage  answers 200 with random bytes (not JSON, not a manifest)
                  and Content-Type application/vnd.oci.image.manifest.v1+json,
                  plus Docker-Distribution-Api-Version: registry/2.0 so that
                  a client's /v2/ probe passes and it goes on to the manifest.

Prints `token_issuer ready url=http://HOST:PORT mode=MODE` on stdout once it
listens (--port 0 picks a free port). Logs requests on stderr. Runs until
killed (SIGTERM/SIGINT exit 0).
Exit: 0 killed; 2 bad arguments or the key/cert/credentials cannot be read;
1 the port cannot be bound.
"""

import argparse
import base64
import datetime
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

USAGE = (
    "token_issuer.py --port PORT [--host 127.0.0.1] [--mode token|hang|garbage]\n"
    "                [--key KEY.pem --cert CERT.pem --credentials FILE]\n"
    "                [--service jgrid-test-registry] [--issuer jgrid-test-issuer]\n"
    "                [--public-prefix public/] [--expires 300]"
)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def rfc3339(t: float) -> str:
    return (
        datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
        .isoformat(timespec="seconds")
        .replace("+00:00", "Z")
    )


def cert_der_b64(cert_path: str) -> str:
    """Standard base64 of the certificate's DER (the x5c encoding)."""
    with open(cert_path, "r", encoding="ascii") as f:
        lines = f.read().splitlines()
    try:
        begin = lines.index("-----BEGIN CERTIFICATE-----")
        end = lines.index("-----END CERTIFICATE-----", begin)
    except ValueError:
        raise ValueError(f"{cert_path}: no PEM certificate") from None
    der = base64.b64decode("".join(lines[begin + 1 : end]), validate=True)
    return base64.b64encode(der).decode("ascii")


def read_credentials(path: str) -> dict:
    users = {}
    with open(path, "r", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            user, sep, password = line.partition(":")
            if not sep:
                raise ValueError(f"{path}: line is not USER:PASSWORD")
            users[user] = password
    return users


def parse_scope(scope: str):
    """`type:name:actions` (the name may hold ':' e.g. a port) or None."""
    kind, sep, rest = scope.partition(":")
    name, sep2, actions = rest.rpartition(":")
    if not sep or not sep2 or not kind or not name:
        return None
    return kind, name, [a for a in actions.split(",") if a]


class Issuer:
    def __init__(self, args):
        self.key = args.key
        self.x5c = cert_der_b64(args.cert)
        self.users = read_credentials(args.credentials)
        self.service = args.service
        self.issuer = args.issuer
        self.public_prefix = args.public_prefix
        self.expires = args.expires
        # Fail now rather than on the first request if the key is unusable.
        self.sign(b"probe")

    def sign(self, data: bytes) -> bytes:
        proc = subprocess.run(
            ["openssl", "dgst", "-sha256", "-sign", self.key],
            input=data,
            capture_output=True,
            check=False,
        )
        if proc.returncode != 0 or not proc.stdout:
            raise RuntimeError("openssl dgst -sign failed: " + proc.stderr.decode(errors="replace"))
        return proc.stdout

    def grant(self, subject, scopes):
        access = []
        for kind, name, actions in scopes:
            if subject is None:
                if kind != "repository" or not name.startswith(self.public_prefix):
                    continue
                actions = [a for a in actions if a == "pull"]
                if not actions:
                    continue
            access.append({"type": kind, "name": name, "actions": actions})
        return access

    def token(self, subject, access):
        now = int(time.time())
        header = {"typ": "JWT", "alg": "RS256", "x5c": [self.x5c]}
        claims = {
            "iss": self.issuer,
            "sub": subject or "",
            "aud": self.service,
            "exp": now + self.expires,
            "nbf": now - 1,
            "iat": now,
            "jti": uuid.uuid4().hex,
            "access": access,
        }
        signing_input = (
            b64url(json.dumps(header, separators=(",", ":")).encode())
            + "."
            + b64url(json.dumps(claims, separators=(",", ":")).encode())
        )
        jwt = signing_input + "." + b64url(self.sign(signing_input.encode("ascii")))
        return {
            "token": jwt,
            "access_token": jwt,
            "expires_in": self.expires,
            "issued_at": rfc3339(now),
        }


class Handler(BaseHTTPRequestHandler):
    server_version = "jgrid-test-token-issuer"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        sys.stderr.write("%s [%s] %s\n" % (self.address_string(), rfc3339(time.time()), fmt % args))
        sys.stderr.flush()

    def send_json(self, status, body, extra_headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in extra_headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > 0:
            self.rfile.read(length)

    # --mode token -----------------------------------------------------------
    def token_request(self):
        issuer: Issuer = self.server.issuer
        url = urlsplit(self.path)
        if url.path != "/token":
            self.send_json(404, {"errors": [{"code": "NOT_FOUND", "message": "only /token is served"}]})
            return
        query = parse_qs(url.query, keep_blank_values=True)
        service = (query.get("service") or [issuer.service])[0]
        if service != issuer.service:
            self.send_json(400, {"errors": [{"code": "DENIED",
                                             "message": f"unknown service {service!r}, this issuer serves {issuer.service!r}"}]})
            return
        scopes = []
        for value in query.get("scope", []):
            for scope in value.split():
                parsed = parse_scope(scope)
                if parsed is None:
                    self.send_json(400, {"errors": [{"code": "DENIED", "message": f"malformed scope {scope!r}"}]})
                    return
                scopes.append(parsed)
        subject = None
        auth = self.headers.get("Authorization")
        if auth is not None:
            kind, _, value = auth.partition(" ")
            user = password = None
            if kind.lower() == "basic":
                try:
                    user, sep, password = base64.b64decode(value.strip(), validate=True).decode("utf-8").partition(":")
                    if not sep:
                        user = None
                except (ValueError, UnicodeDecodeError):
                    user = None
            if user is None or issuer.users.get(user) != password:
                self.send_json(401, {"errors": [{"code": "UNAUTHORIZED", "message": "authentication failed"}]},
                               [("WWW-Authenticate", f'Basic realm="{issuer.issuer}"')])
                return
            subject = user
        try:
            body = issuer.token(subject, issuer.grant(subject, scopes))
        except RuntimeError as e:
            self.send_json(500, {"errors": [{"code": "UNKNOWN", "message": str(e)}]})
            return
        self.send_json(200, body)

    # --mode hang ------------------------------------------------------------
    def hang(self):
        # The request line and headers are read; never answer. The thread is
        # a daemon thread: it ends with the process.
        self.close_connection = True
        threading.Event().wait()

    # --mode garbage ---------------------------------------------------------
    def garbage(self):
        self.read_body()
        # Starts with bytes no JSON document can start with, then random bytes.
        data = b"\x00\xffnot-a-manifest\x00" + os.urandom(256)
        self.send_response(200)
        self.send_header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
        self.send_header("Docker-Distribution-Api-Version", "registry/2.0")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def handle_any(self):
        mode = self.server.mode
        if mode == "hang":
            self.hang()
        elif mode == "garbage":
            self.garbage()
        elif self.command in ("GET", "HEAD"):
            self.token_request()
        else:
            self.read_body()
            self.send_json(405, {"errors": [{"code": "UNSUPPORTED", "message": "GET /token only"}]})

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main(argv):
    parser = argparse.ArgumentParser(
        prog="token_issuer.py",
        usage=USAGE,
        description="Token issuer (and failing fake registry) for tests/support/registry.sh.",
        epilog="Modes: token (default) needs --key, --cert and --credentials; "
               "hang and garbage need only --port.",
    )
    parser.add_argument("--port", type=int, required=True, help="port to listen on (0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--mode", choices=["token", "hang", "garbage"], default="token")
    parser.add_argument("--key", help="PEM RSA private key that signs the tokens")
    parser.add_argument("--cert", help="PEM certificate of --key (the registry's rootcertbundle)")
    parser.add_argument("--credentials", help="file of USER:PASSWORD lines")
    parser.add_argument("--service", default="jgrid-test-registry", help="aud claim (the registry's service)")
    parser.add_argument("--issuer", default="jgrid-test-issuer", help="iss claim (the registry's issuer)")
    parser.add_argument("--public-prefix", default="public/",
                        help="repositories anonymous clients may pull (default public/)")
    parser.add_argument("--expires", type=int, default=300, help="token lifetime in seconds (default 300)")
    args = parser.parse_args(argv)

    issuer = None
    if args.mode == "token":
        missing = [f"--{n}" for n in ("key", "cert", "credentials") if getattr(args, n) is None]
        if missing:
            parser.error("--mode token needs " + " ".join(missing))
        try:
            issuer = Issuer(args)
        except (OSError, ValueError, RuntimeError) as e:
            print(f"token_issuer: {e}", file=sys.stderr)
            return 2

    try:
        server = Server((args.host, args.port), Handler)
    except OSError as e:
        print(f"token_issuer: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 1
    server.mode = args.mode
    server.issuer = issuer

    def on_signal(signum, frame):
        # shutdown() waits for serve_forever, which runs in this thread.
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    host, port = server.server_address[:2]
    print(f"token_issuer ready url=http://{host}:{port} mode={args.mode}", flush=True)
    server.serve_forever()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
