# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""A remote media server for CastDeck's CORS check: every GET answers a small HLS playlist with
Access-Control-Allow-Origin: *; an OPTIONS preflight under /no-range/ allows only the Origin
header, under /range/ allows Range too (as a server that serves HLS to Cast devices must).
Prints "port N" once listening."""
import http.server
import sys

PLAYLIST = b"#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nsegment0.ts\n#EXT-X-ENDLIST\n"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/vnd.apple.mpegurl")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(len(PLAYLIST)))
        self.end_headers()
        self.wfile.write(PLAYLIST)

    def do_OPTIONS(self):
        self.send_response(204)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "GET, HEAD")
        allowed = "origin, range" if self.path.startswith("/range/") else "origin"
        self.send_header("Access-Control-Allow-Headers", allowed)
        self.send_header("Content-Length", "0")
        self.end_headers()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"port {server.server_address[1]}", flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
