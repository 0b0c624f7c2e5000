#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Serves http_page.html and prints each report the page sends (one `t=… buffered=… lit=…
error=…` line), for Tests/System/mirror/http_live.sh. Prints `port N` first."""
import http.server
import os
import sys
import urllib.parse

PAGE = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "http_page.html"), "rb").read()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        if url.path == "/page.html":
            body, kind = PAGE, "text/html"
        elif url.path == "/report":
            q = urllib.parse.parse_qs(url.query)
            print(" ".join(f"{k}={q.get(k, ['?'])[0]}" for k in ("t", "buffered", "lit", "error")), flush=True)
            body, kind = b"", "text/plain"
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"port {server.server_address[1]}", flush=True)
server.serve_forever()
