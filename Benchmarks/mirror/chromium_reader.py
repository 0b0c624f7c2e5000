#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Serves chromium_reader.html and appends the `counter time` lines it posts to --out
(`- time` for a frame whose barcode did not read). Prints `port N` first."""
import argparse
import http.server
import os

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
a = ap.parse_args()
PAGE = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "chromium_reader.html"), "rb").read()
out = open(a.out, "a", buffering=1)


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, body, kind="text/plain"):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/page.html"):
            self.answer(PAGE, "text/html")
        else:
            self.send_error(404)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        out.write(body.decode())
        self.answer(b"")


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"port {server.server_address[1]}", flush=True)
server.serve_forever()
