#!/usr/bin/env python3
"""Callback receivers for tests/e2e/callbacks_hostile.sh, one port each:

  huge     answers 200 with a declared 3 GB body and streams it (at most
           --huge-bytes, then holds the connection open)
  trickle  answers one byte of a reply head per second, for ever
  ok       answers 200 {} at once

Prints "listening MODE URL" per receiver, then "MODE delivery DLV" for each
request it reads (after its body).
"""
import argparse
import socketserver
import sys
import threading
import time


def say(text):
    print(text, flush=True)


def read_request(rfile):
    length = 0
    delivery = "?"
    while True:
        line = rfile.readline()
        if not line or line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value.strip())
        if name.lower() == "x-jgrid-delivery":
            delivery = value.strip()
    rfile.read(length)
    return delivery


def make_handler(mode, huge_bytes):
    class Handler(socketserver.StreamRequestHandler):
        def handle(self):
            delivery = read_request(self.rfile)
            say(f"{mode} delivery {delivery}")
            try:
                if mode == "ok":
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
                elif mode == "huge":
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 3000000000\r\n\r\n")
                    chunk = b"x" * 65536
                    for _ in range(huge_bytes // len(chunk)):
                        self.wfile.write(chunk)
                    time.sleep(60)
                else:
                    for byte in b"HTTP/1.1 200 OK\r\nX-Trickle: " + b"t" * 100000:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(1)
            except OSError:
                say(f"{mode} reader hung up")

    return Handler


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--huge-bytes", type=int, default=512 << 20)
    args = parser.parse_args()
    for mode in ("huge", "trickle", "ok"):
        server = Server(("127.0.0.1", 0), make_handler(mode, args.huge_bytes))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        say(f"listening {mode} http://127.0.0.1:{server.server_address[1]}/hook")
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
