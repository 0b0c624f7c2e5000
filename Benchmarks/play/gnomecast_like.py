#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""One cast the way gnomecast makes it, for Benchmarks/play/bench.py: connected to the device
beforehand (gnomecast connects when the device is chosen), then, from the start of the clock:
ffprobe, ffmpeg converting the whole file to MP4 when it must, a Range server for the result,
pychromecast's play_media. Prints JSON: the clock's start (`t0`), the conversion's seconds and
the media seconds it converted, the total to the receiver's first frame, and the time of a
seek to 80 % of the served file.

    gnomecast_like.py HOST:PORT FILE WORK CODECS_JSON LIMIT_SECONDS
"""
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import uuid

import pychromecast

device, path, work, codecs, limit = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), float(sys.argv[5])
host, port = device.rsplit(":", 1)
log = os.path.join(work, "receiver-Bench TV.log")

cast = pychromecast.get_chromecast_from_host((host, int(port), uuid.uuid4(), "Chromecast", "Bench TV"), tries=1, timeout=10)
cast.wait(timeout=10)
mark = os.path.getsize(log)


class RangeHandler(http.server.BaseHTTPRequestHandler):
    """Serves one file with Range (as gnomecast's server does)."""
    file = None

    def log_message(self, *args):
        pass

    def do_GET(self):
        size = os.path.getsize(self.file)
        start, end = 0, size - 1
        m = re.match(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
        if m:
            if m.group(1):
                start = int(m.group(1))
            if m.group(2):
                end = min(int(m.group(2)), size - 1)
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        else:
            self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg" if self.file.endswith(".mp3") else "video/mp4")
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        with open(self.file, "rb") as f:
            f.seek(start)
            left = end - start + 1
            try:
                while left > 0:
                    chunk = f.read(min(left, 1 << 20))
                    if not chunk:
                        break
                    self.wfile.write(chunk)
                    left -= len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass


t0 = time.time()
subprocess.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams", path], capture_output=True, check=True)
served, convert, converted = path, 0.0, 0.0
if codecs is not None:
    served = os.path.join(work, "gnomecast.mp4")
    c0 = time.time()
    cut = ["-t", str(limit)] if limit else []
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", path] + cut + ["-map", "0:v:0", "-map", "0:a:0"] + codecs + [served], check=True)
    convert = time.time() - c0
    converted = float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", served],
                                     capture_output=True, text=True, check=True).stdout)
RangeHandler.file = served
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RangeHandler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/media" + os.path.splitext(served)[1]
cast.media_controller.play_media(url, "audio/mpeg" if served.endswith(".mp3") else "video/mp4")
at = None
deadline = time.monotonic() + 120
while at is None and time.monotonic() < deadline:
    with open(log) as f:
        f.seek(mark)
        for line in f:
            if "first frame decoded" in line:
                at = float(line.split("at=")[1].split()[0])
    time.sleep(0.005)
if at is None:
    sys.exit("no first frame from the receiver")
length = float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", served],
                              capture_output=True, text=True, check=True).stdout)
what = ["-vn", "-frames:a", "1"] if served.endswith(".mp3") else ["-an", "-frames:v", "1"]
s0 = time.perf_counter()
subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-probesize", "500000", "-analyzeduration", "200000", "-ss", f"{length * 0.8:.3f}", "-i", url]
               + what + ["-f", "null", "-"], check=True)
seek = time.perf_counter() - s0
cast.media_controller.stop()
time.sleep(0.2)
server.shutdown()
cast.disconnect(timeout=5)
print(json.dumps({"t0": t0, "total": at - t0, "convert": convert, "converted": converted, "seek": seek}))
