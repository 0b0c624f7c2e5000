#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""The peer of the sound delay benchmark, made the way mkchromecast casts the desktop's sound
with its ffmpeg backend (mkchromecast/audio.py, 0.3.x, the default MP3 at 192 kb/s): each GET
starts ffmpeg reading the PulseAudio monitor into MP3, and the response is ffmpeg's stdout
from its first byte, as mkchromecast's Flask server streams it. Prints `port N`."""
import http.server
import subprocess


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def do_GET(self):
        command = [
            "ffmpeg", "-nostdin", "-loglevel", "error", "-ac", "2", "-ar", "44100", "-f", "pulse", "-i", "@DEFAULT_MONITOR@",
            "-acodec", "libmp3lame", "-f", "mp3", "-ac", "2", "-ar", "44100", "-b:a", "192k", "pipe:1",
        ]
        encoder = subprocess.Popen(command, stdout=subprocess.PIPE)
        self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg")
        self.end_headers()
        try:
            while True:
                chunk = encoder.stdout.read1(1 << 12)
                if not chunk:
                    break
                self.wfile.write(chunk)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            encoder.kill()
            encoder.wait()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"port {server.server_address[1]}", flush=True)
server.serve_forever()
