#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Loopback HTTP server for the ImageCache tests and benchmark.

Prints "PORT <n>" on stdout once listening on 127.0.0.1, then serves until killed (or until
its parent process goes away). Every request is counted per path (query excluded); GET /_stats
returns the counts as JSON, GET /_reset clears them.

Routes (all images are real PNGs made here with zlib, no third-party modules):
  /img/<name>.png?w=&h=&maxage=&nocache=1&noetag=1&nolm=1   image with ETag / Last-Modified,
        answers 304 to a matching If-None-Match or If-Modified-Since
  /_bump/<name>                 changes the content (and ETag) of /img/<name>.png
  /slow/<name>.png?delay=s      waits, then sends an image
  /trickle/<name>.png?seconds=s first request: a ~2 MB PNG sent slowly; later requests: fast
  /huge.png                     30 MB body with Content-Length
  /huge-chunked.png             30 MB body, chunked, no Content-Length
  /bomb.png                     PNG whose header says 20000x20000 (the file itself is small)
  /text.png                     text/html content type
  /garbage.png                  image/png content type, bytes that are no image
  /redirect/<n>/<name>.png      n redirects, then the image
  /loop.png                     redirects to itself
  /fail/<name>.png?times=n      503 for the first n requests, then the image
"""
import json
import os
import struct
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
COUNTS = {}
CONDITIONAL = {}
VERSIONS = {}
PNG_CACHE = {}


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def make_png(width, height, seed, level=6, noise=False):
    key = (width, height, seed, level, noise)
    with LOCK:
        if key in PNG_CACHE:
            return PNG_CACHE[key]
    r, g, b = (seed * 67) % 256, (seed * 151) % 256, (seed * 31) % 256
    if noise:
        raw = b"".join(b"\x00" + os.urandom(width * 3) for _ in range(height))
    else:
        row = bytearray(b"\x00")
        for x in range(width):
            row += bytes(((r + x) % 256, g, (b + x // 2) % 256))
        raw = bytes(row) * height
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(raw, level)) + chunk(b"IEND", b"")
    with LOCK:
        PNG_CACHE[key] = data
    return data


def bomb_png():
    width = height = 20000
    header = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
    # Only the first rows of pixel data: enough to start decoding, far too little to finish.
    rows = zlib.compressobj(9)
    body = rows.compress(b"\x00" * ((width + 1) * 16)) + rows.flush(zlib.Z_SYNC_FLUSH)
    return header + chunk(b"IDAT", body)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out at once (no 40 ms delayed-ACK stalls)

    def log_message(self, *args):
        pass

    def count(self, path):
        with LOCK:
            COUNTS[path] = COUNTS.get(path, 0) + 1
            return COUNTS[path]

    def send_body(self, status, body, content_type="image/png", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        url = urlsplit(self.path)
        path = url.path
        q = {k: v[-1] for k, v in parse_qs(url.query).items()}
        w, h = int(q.get("w", 64)), int(q.get("h", 64))
        seed = sum(path.encode()) % 251
        if path == "/_stats":
            with LOCK:
                body = json.dumps({"counts": COUNTS, "conditional": CONDITIONAL}).encode()
            return self.send_body(200, body, "application/json")
        if path == "/_reset":
            with LOCK:
                COUNTS.clear()
                CONDITIONAL.clear()
            return self.send_body(200, b"{}", "application/json")
        if path.startswith("/_bump/"):
            name = path[len("/_bump/"):]
            with LOCK:
                VERSIONS[name] = VERSIONS.get(name, 1) + 1
            return self.send_body(200, b"{}", "application/json")

        n = self.count(path)
        if path.startswith("/img/"):
            name = path[len("/img/"):-len(".png")]
            version = VERSIONS.get(name, 1)
            etag = '"%s-v%d"' % (name, version)
            last_modified = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(1_700_000_000 + version * 1000))
            headers = []
            if "noetag" not in q:
                headers.append(("ETag", etag))
            if "nolm" not in q:
                headers.append(("Last-Modified", last_modified))
            if "maxage" in q:
                headers.append(("Cache-Control", "max-age=%s" % q["maxage"]))
            elif "nocache" in q:
                headers.append(("Cache-Control", "no-cache"))
            inm = self.headers.get("If-None-Match")
            ims = self.headers.get("If-Modified-Since")
            if inm or ims:
                with LOCK:
                    CONDITIONAL[path] = CONDITIONAL.get(path, 0) + 1
            if (inm and "noetag" not in q and inm == etag) or (not inm and ims and "nolm" not in q and ims == last_modified):
                self.send_response(304)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            return self.send_body(200, make_png(w, h, seed + version), headers=headers)
        if path.startswith("/slow/"):
            time.sleep(float(q.get("delay", 0.5)))
            return self.send_body(200, make_png(w, h, seed))
        if path.startswith("/trickle/"):
            body = make_png(1000, 700, seed, level=0, noise=True)
            if n > 1:
                return self.send_body(200, body)
            seconds = float(q.get("seconds", 20))
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            pieces = 200
            step = len(body) // pieces + 1
            for i in range(0, len(body), step):
                self.wfile.write(body[i:i + step])
                self.wfile.flush()
                time.sleep(seconds / pieces)
            return
        if path in ("/huge.png", "/huge-chunked.png"):
            total = 30 * 1000 * 1000
            block = b"\x89PNG\r\n\x1a\n" + b"\x00" * (65536 - 8)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            chunked = path == "/huge-chunked.png"
            if chunked:
                self.send_header("Transfer-Encoding", "chunked")
            else:
                self.send_header("Content-Length", str(total))
            self.end_headers()
            sent = 0
            try:
                while sent < total:
                    piece = block[: min(len(block), total - sent)]
                    if chunked:
                        self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
                    else:
                        self.wfile.write(piece)
                    sent += len(piece)
                if chunked:
                    self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            with LOCK:
                COUNTS[path + "#bytes"] = COUNTS.get(path + "#bytes", 0) + sent
            self.close_connection = True
            return
        if path == "/bomb.png":
            return self.send_body(200, bomb_png())
        if path == "/text.png":
            return self.send_body(200, b"<html><body>not an image</body></html>", "text/html")
        if path == "/garbage.png":
            return self.send_body(200, b"this is not a png at all " * 40)
        if path.startswith("/redirect/"):
            parts = path.split("/")
            hops = int(parts[2])
            if hops > 0:
                return self.redirect("/redirect/%d/%s" % (hops - 1, parts[3]))
            return self.send_body(200, make_png(w, h, seed))
        if path == "/loop.png":
            return self.redirect("/loop.png")
        if path.startswith("/fail/"):
            if n <= int(q.get("times", 2)):
                return self.send_body(503, b"try later", "text/plain")
            return self.send_body(200, make_png(w, h, seed))
        self.send_body(404, b"not found", "text/plain")


def watch_parent():
    parent = os.getppid()
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=watch_parent, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
