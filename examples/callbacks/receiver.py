#!/usr/bin/env python3
"""A tiny callback receiver for jgrid-local (docs/api.md §5), standard library only.

Prints every callback it gets and whether its X-JGrid-Signature verifies:
  t=<unix>,v1=<hex HMAC-SHA256(key, "<t>.<body>")>
where the key is the job's callback_auth_token, or, for jobs without one,
the server's callback secret (<data-dir>/callback.key).

  python3 receiver.py --port 9000 --token my-token
  python3 receiver.py --secret-file ./jgrid-data/callback.key --fail-first 2

--fail-first N answers 500 to the first N requests (to watch the retries).
--fail-every N answers 500 to every Nth request, at most once per delivery id
  (retries all along, each delivery succeeding by its second attempt).
--delay-ms MS waits MS milliseconds before answering.
--count N exits after N callbacks answered 200.
"""
import argparse
import hashlib
import hmac
import http.server
import json
import ssl
import sys
import time


def verify(header, body, keys):
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    if "t" not in parts or "v1" not in parts:
        return False
    signed = parts["t"].encode() + b"." + body
    return any(hmac.compare_digest(hmac.new(k.encode(), signed, hashlib.sha256).hexdigest(), parts["v1"]) for k in keys)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument("--token", action="append", default=[], help="a callback_auth_token to verify with")
    parser.add_argument("--secret-file", help="the server's callback.key")
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--fail-every", type=int, default=0)
    parser.add_argument("--delay-ms", type=int, default=0)
    parser.add_argument("--count", type=int, default=0)
    parser.add_argument("--tls-cert", help="serve https with this PEM certificate (needs --tls-key)")
    parser.add_argument("--tls-key", help="the PEM private key of --tls-cert")
    args = parser.parse_args()
    keys = list(args.token)
    if args.secret_file:
        with open(args.secret_file) as f:
            keys.append(f.read().strip())
    state = {"requests": 0, "delivered": 0, "failed_ids": set()}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            state["requests"] += 1
            ok = verify(self.headers.get("X-JGrid-Signature", ""), body, keys)
            doc = json.loads(body)
            delivery = self.headers.get("X-JGrid-Delivery")
            periodic = (args.fail_every and state["requests"] % args.fail_every == 0
                        and delivery not in state["failed_ids"])
            if periodic:
                state["failed_ids"].add(delivery)
            code = 500 if state["requests"] <= args.fail_first or periodic else 200
            time.sleep(args.delay_ms / 1000)
            print(f"callback {self.headers.get('X-JGrid-Event')} job {doc.get('job_id')} "
                  f"status {doc.get('status')} delivery {delivery} "
                  f"signature {'verified' if ok else 'INVALID'} metadata {json.dumps(doc.get('metadata'))} "
                  f"answer {code}", flush=True)
            self.send_response(code)
            self.send_header("Content-Length", "0")
            self.end_headers()
            if code == 200:
                state["delivered"] += 1

        def log_message(self, *_):
            pass

    server = http.server.HTTPServer(("127.0.0.1", args.port), Handler)
    scheme = "http"
    if args.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    print(f"receiver listening on {scheme}://127.0.0.1:{server.server_port}/hook", flush=True)
    while not args.count or state["delivered"] < args.count:
        server.handle_request()
    return 0


if __name__ == "__main__":
    sys.exit(main())
