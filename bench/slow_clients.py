#!/usr/bin/env python3
"""Slow and greedy clients against a real `jgrid-local serve`, and how the
server's other clients fare meanwhile.

Starts the binary (auth keys, plain or TLS), then, in phases:
  flood     FLOODS connections each send a request head of FLOOD_MB megabytes
            as fast as they can; prints the server's peak RSS growth.
  attack    SLOW connections trickle a request head one byte every TRICKLE s
            (reconnecting when the server closes them), and FEEDS connections
            open GET /v1/events with one read-only key and stay idle;
            meanwhile probes time GET /healthz and an authenticated
            GET /v1/jobs/{id} (p50, p99, max, failures).
  after     the attackers leave; waits SETTLE s and prints threads and RSS
            against before.
With --check, exits 1 unless: every probe answered within --p99 s at the
99th percentile with no failures, feeds beyond the stream caps got 429, the
flood's peak RSS growth is at most --max-flood-mb, and threads and RSS came
back within 10% (+4 threads, +8 MB for small servers) of before.

usage: slow_clients.py BINARY [--tls CERTDIR] [--slow N] [--feeds N] ...
"""
import argparse
import json
import os
import re
import selectors
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

KEY = "jg_slow_clients_read_0001"
WRITER = "jg_slow_clients_write_001"


def proc_status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return {"threads": int(fields["Threads"]), "rss_mb": int(fields["VmRSS"].split()[0]) / 1024,
            "hwm_mb": int(fields["VmHWM"].split()[0]) / 1024}


def start(binary, work, args):
    keys = os.path.join(work, "keys.json")
    with open(keys, "w") as f:
        json.dump({"keys": [{"key": KEY, "workspace": "w1", "scopes": ["jobs:read"]},
                            {"key": WRITER, "workspace": "w1", "scopes": ["jobs:write", "jobs:read"]}]}, f)
    cmd = [binary, "serve", "--port", "0", "--ephemeral", "--local", "off", "--registry-lookup", "off",
           "--auth", "keys", "--keys-file", keys] + args.serve_arg
    if args.tls:
        cmd += ["--tls-cert", os.path.join(args.tls, "good.pem"), "--tls-key", os.path.join(args.tls, "good.key")]
    out = open(os.path.join(work, "serve.out"), "w")
    err = open(os.path.join(work, "serve.err"), "w")
    proc = subprocess.Popen(cmd, stdout=out, stderr=err)
    for _ in range(400):
        text = open(os.path.join(work, "serve.out")).read()
        m = re.search(r"^jgrid-local ready url=https?://([^:/]+):(\d+)", text, re.M)
        if m:
            return proc, m.group(1), int(m.group(2))
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    sys.stderr.write(open(os.path.join(work, "serve.err")).read())
    raise SystemExit("FAIL: server did not start")


class Target:
    def __init__(self, host, port, tls_dir):
        self.host, self.port = host, port
        self.ctx = None
        if tls_dir:
            self.ctx = ssl.create_default_context(cafile=os.path.join(tls_dir, "ca.pem"))
            self.ctx.check_hostname = False

    def connect(self, timeout=10):
        sock = socket.create_connection((self.host, self.port), timeout=timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return self.ctx.wrap_socket(sock) if self.ctx else sock

    def request(self, path, headers=(), body=None, timeout=10):
        """One request on a new connection: (status, body bytes)."""
        sock = self.connect(timeout)
        try:
            method = "POST" if body is not None else "GET"
            lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: close"]
            lines += list(headers)
            data = body.encode() if body is not None else b""
            if body is not None:
                lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
            sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
            chunks = []
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            sock.close()
        reply = b"".join(chunks)
        m = re.match(rb"HTTP/1\.[01] (\d{3})", reply)
        return (int(m.group(1)) if m else 0), reply.partition(b"\r\n\r\n")[2]


class Prober(threading.Thread):
    """Times `path` requests back to back until stopped."""

    def __init__(self, target, path, headers=()):
        super().__init__(daemon=True)
        self.target, self.path, self.headers = target, path, headers
        self.times, self.failures, self.stop = [], 0, False

    def run(self):
        while not self.stop:
            t0 = time.monotonic()
            try:
                status, _ = self.target.request(self.path, self.headers, timeout=5)
                ok = status == 200
            except OSError:
                ok = False
            self.times.append(time.monotonic() - t0)
            self.failures += 0 if ok else 1
            time.sleep(0.05)

    def summary(self):
        times = sorted(self.times) or [0.0]
        pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
        return {"n": len(self.times), "p50": pick(0.5), "p99": pick(0.99), "max": times[-1], "failures": self.failures}


class Attack(threading.Thread):
    """SLOW trickling heads and FEEDS idle event streams, held until stopped."""

    def __init__(self, target, slow, feeds, trickle):
        super().__init__(daemon=True)
        self.target, self.slow, self.feeds, self.trickle = target, slow, feeds, trickle
        self.stop, self.ready = False, threading.Event()
        self.feed_status, self.reconnects, self.slow_open = {}, 0, 0

    def open_slow(self):
        sock = self.target.connect()
        sock.sendall(f"GET /v1/jobs HTTP/1.1\r\nHost: {self.target.host}\r\n".encode())
        sock.setblocking(False)
        return sock

    def open_feed(self):
        sock = self.target.connect()
        sock.sendall(f"GET /v1/events HTTP/1.1\r\nHost: {self.target.host}\r\n"
                     f"Authorization: Bearer {KEY}\r\nAccept: text/event-stream\r\n\r\n".encode())
        sock.settimeout(10)
        head = b""
        try:
            while b"\r\n" not in head:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                head += chunk
        except OSError:
            pass
        m = re.match(rb"HTTP/1\.[01] (\d{3})", head)
        status = int(m.group(1)) if m else 0
        self.feed_status[status] = self.feed_status.get(status, 0) + 1
        return sock

    def run(self):
        feeds = [self.open_feed() for _ in range(self.feeds)]
        slow = []
        for _ in range(self.slow):
            try:
                slow.append(self.open_slow())
            except OSError:
                self.reconnects += 1
        self.slow_open = len(slow)
        self.ready.set()
        while not self.stop:
            time.sleep(self.trickle)
            for i, sock in enumerate(slow):
                try:
                    sock.send(b"X")
                except (BlockingIOError, ssl.SSLWantWriteError):
                    pass
                except OSError:  # closed by the server: the attacker comes back
                    sock.close()
                    self.reconnects += 1
                    try:
                        slow[i] = self.open_slow()
                    except OSError:
                        pass
        for sock in slow + feeds:
            sock.close()


def flood(target, pid, count, megabytes):
    """`count` connections each send `megabytes` MB of header lines."""
    before = proc_status(pid)["rss_mb"]
    line = b"X-Flood: " + b"a" * 1000 + b"\r\n"
    statuses = []

    def one():
        try:
            sock = target.connect()
            sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {target.host}\r\n".encode())
            sent, total = 0, megabytes << 20
            while sent < total:
                sock.sendall(line * 64)
                sent += len(line) * 64
        except OSError:
            pass
        try:
            reply = sock.recv(4096)
            m = re.match(rb"HTTP/1\.[01] (\d{3})", reply)
            statuses.append(int(m.group(1)) if m else 0)
        except OSError:
            statuses.append(0)
        sock.close()

    threads = [threading.Thread(target=one) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    peak = proc_status(pid)["hwm_mb"]
    return {"peak_growth_mb": max(0.0, peak - before), "statuses": sorted(set(statuses))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--tls", metavar="CERTDIR", help="serve HTTPS with CERTDIR/good.pem, good.key, ca.pem")
    ap.add_argument("--slow", type=int, default=1100)
    ap.add_argument("--feeds", type=int, default=1030)
    ap.add_argument("--trickle", type=float, default=4.0)
    ap.add_argument("--seconds", type=float, default=20.0, help="how long the attack phase lasts")
    ap.add_argument("--floods", type=int, default=8)
    ap.add_argument("--flood-mb", type=int, default=62)
    ap.add_argument("--settle", type=float, default=8.0)
    ap.add_argument("--serve-arg", action="append", default=[], help="extra argument for serve (repeatable)")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--p99", type=float, default=1.0)
    ap.add_argument("--max-flood-mb", type=float, default=20.0)
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="jgrid-slow-")
    proc, host, port = start(args.binary, work, args)
    target = Target(host, port, args.tls)
    problems = []
    try:
        status, body = target.request("/v1/jobs", [f"Authorization: Bearer {WRITER}"],
                                      json.dumps({"image": "rocm/pytorch:latest", "command": ["true"], "workload_type": "batch",
                                                  "gpu_vendor": "amd", "runtime": "rocm"}))
        if status != 202:
            raise SystemExit(f"FAIL: submit answered {status}: {body[:300]!r}")
        job = json.loads(body)["job_id"]
        time.sleep(1.0)
        before = proc_status(proc.pid)
        print(f"before: threads {before['threads']}, RSS {before['rss_mb']:.1f} MB")

        if args.floods:
            f = flood(target, proc.pid, args.floods, args.flood_mb)
            print(f"flood: {args.floods} x {args.flood_mb} MB heads: statuses {f['statuses']}, "
                  f"peak RSS growth {f['peak_growth_mb']:.1f} MB")
            if f["peak_growth_mb"] > args.max_flood_mb:
                problems.append(f"header flood grew RSS by {f['peak_growth_mb']:.1f} MB")
            if any(s not in (0, 431) for s in f["statuses"]):
                problems.append(f"header flood answered {f['statuses']} (expected 431)")

        attack = Attack(target, args.slow, args.feeds, args.trickle)
        attack.start()
        if not attack.ready.wait(300):
            problems.append("the attackers could not connect within 300 s")
        during = proc_status(proc.pid)
        probes = [Prober(target, "/healthz"), Prober(target, f"/v1/jobs/{job}", [f"Authorization: Bearer {KEY}"])]
        for p in probes:
            p.start()
        time.sleep(args.seconds)
        for p in probes:
            p.stop = True
        for p in probes:
            p.join()
        attack.stop = True
        attack.join()
        print(f"attack: {attack.slow_open} slow heads (trickle {args.trickle} s, {attack.reconnects} reconnects), "
              f"{args.feeds} feeds {dict(sorted(attack.feed_status.items()))}; "
              f"threads {during['threads']}, RSS {during['rss_mb']:.1f} MB")
        for name, p in zip(["/healthz", "GET /v1/jobs/{id} (key)"], probes):
            s = p.summary()
            print(f"  {name}: n={s['n']} p50 {s['p50'] * 1000:.0f} ms, p99 {s['p99'] * 1000:.0f} ms, "
                  f"max {s['max'] * 1000:.0f} ms, failures {s['failures']}")
            if s["failures"] or s["p99"] > args.p99 or s["n"] < 5:
                problems.append(f"{name}: p99 {s['p99']:.2f} s, {s['failures']} failures, {s['n']} answered")
        if args.feeds and 429 not in attack.feed_status:
            problems.append(f"no feed was refused with 429: {attack.feed_status}")

        time.sleep(args.settle)
        after = proc_status(proc.pid)
        print(f"after {args.settle:.0f} s: threads {after['threads']} (before {before['threads']}), "
              f"RSS {after['rss_mb']:.1f} MB (before {before['rss_mb']:.1f})")
        if after["threads"] > before["threads"] * 1.1 + 4:
            problems.append(f"threads stayed at {after['threads']} (before {before['threads']})")
        if after["rss_mb"] > before["rss_mb"] * 1.1 + 8:
            problems.append(f"RSS stayed at {after['rss_mb']:.1f} MB (before {before['rss_mb']:.1f})")
        if proc.poll() is not None:
            problems.append(f"the server exited with {proc.returncode}")
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    if args.check and problems:
        print("FAIL: " + "; ".join(problems))
        sys.stderr.write(open(os.path.join(work, "serve.err")).read()[-3000:])
        return 1
    if args.check:
        print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
