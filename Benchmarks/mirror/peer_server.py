#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""The peer of the glass-to-glass benchmark, made the way mkchromecast casts a screen
(mkchromecast/video.py, `--video --screencast`, 0.3.x): each GET starts ffmpeg grabbing the X
screen into H.264 (veryfast, zerolatency, 10 Mbit/s cap, a key frame every 60 frames) in
fragmented MP4 cut only at key frames (`frag_keyframe+empty_moov`), and the response is
ffmpeg's stdout from its first byte, as mkchromecast's Flask server streams it. (mkchromecast
also grabs a PulseAudio monitor into Vorbis; the benchmark has no sound on either side.) Prints `port N` and, per GET, `pid N` (the
encoder, for CPU accounting).

    peer_server.py --size 1280x720 --fps 30       (DISPLAY names the screen)
"""
import argparse
import http.server
import os
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("--size", default="1280x720")
ap.add_argument("--fps", default="30")
a = ap.parse_args()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def do_GET(self):
        command = [
            "ffmpeg", "-nostdin", "-loglevel", "error", "-f", "x11grab", "-r", a.fps, "-s", a.size,
            "-i", os.environ.get("DISPLAY", ":0") + "+0,0", "-vcodec", "libx264", "-preset", "veryfast", "-tune", "zerolatency",
            "-maxrate", "10000k", "-bufsize", "20000k", "-pix_fmt", "yuv420p", "-g", "60", "-f", "mp4",
            "-movflags", "frag_keyframe+empty_moov", "pipe:1",
        ]
        encoder = subprocess.Popen(command, stdout=subprocess.PIPE)
        print(f"pid {encoder.pid}", flush=True)
        self.send_response(200)
        self.send_header("Content-Type", "video/mp4")
        self.end_headers()
        try:
            while True:
                chunk = encoder.stdout.read1(1 << 16)
                if not chunk:
                    break
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            encoder.kill()
            encoder.wait()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"port {server.server_address[1]}", flush=True)
server.serve_forever()
