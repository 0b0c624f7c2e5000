# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Artwork URLs from a hostile receiver (run-hostile.sh), on 127.0.0.1:PORT:

  /never/N   accepts the request and never answers (the connection stays open)
  /huge/N    200 image/png, no Content-Length, 5 GB of zeros made as they are sent
  /declared/N  200 image/png, Content-Length 5 GB, zeros made as they are sent

Nothing is held in memory: each chunk is the same 64 KiB of zeros. After every response
that ends (the client hung up or everything was sent) one JSON line goes to LOG:
{"path": ..., "sent": bytes, "finished": true if all 5 GB went}.

    image_server.py PORT LOG
"""
import json
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FIVE_GB = 5 * 1000 ** 3
CHUNK = bytes(64 * 1024)
port, log_path = int(sys.argv[1]), sys.argv[2]
log_lock = threading.Lock()


def note(entry):
    with log_lock, open(log_path, "a") as f:
        f.write(json.dumps(entry) + "\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/never"):
            note({"path": self.path, "event": "holding"})
            # Keep the socket open without a byte of answer until the client gives up.
            while True:
                try:
                    self.connection.settimeout(1.0)
                    if self.connection.recv(1) == b"":
                        break
                except TimeoutError:
                    continue
                except OSError:
                    break
            note({"path": self.path, "sent": 0, "finished": False})
            return
        if not (self.path.startswith("/huge") or self.path.startswith("/declared")):
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        if self.path.startswith("/declared"):
            self.send_header("Content-Length", str(FIVE_GB))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        sent = 0
        try:
            while sent < FIVE_GB:
                self.wfile.write(CHUNK)
                sent += len(CHUNK)
        except OSError:
            pass
        note({"path": self.path, "sent": sent, "finished": sent >= FIVE_GB})
        self.close_connection = True


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


Server(("127.0.0.1", port), Handler).serve_forever()
