#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""sound.py DIR SESSION: reads the sound `castctl receiver --mirror-output DIR` decoded
(sSESSION-audio.s16le, 48 kHz stereo s16le) and prints one JSON object: audio frames received,
seconds decoded, the loudness (RMS of the left channel, 0-32767) and the dominant frequency
(Hz, by FFT with numpy if it is there, else by Goertzel over 50-4000 Hz in plain Python) of
the last whole seconds (the first half second is left out: it may still be silence)."""
import json
import math
import sys

directory, session = sys.argv[1], int(sys.argv[2])
received = 0
for line in open(f"{directory}/frames.jsonl"):
    e = json.loads(line)
    if e["session"] == session and e["event"] == "received" and e["stream"] == "audio":
        received += 1
raw = open(f"{directory}/s{session}-audio.s16le", "rb").read()
rate = 48000
left = [int.from_bytes(raw[i:i + 2], "little", signed=True) for i in range(0, len(raw) - 3, 4)]
body = left[rate // 2:]
seconds = len(left) / rate
rms, peak = 0.0, None
if len(body) >= rate // 2:
    rms = math.sqrt(sum(x * x for x in body) / len(body))
    try:
        import numpy as np

        a = np.array(body, dtype=float)
        spectrum = np.abs(np.fft.rfft(a * np.hanning(len(a))))
        spectrum[0] = 0
        peak = float(np.argmax(spectrum)) * rate / len(a)
    except ImportError:
        window = body[:rate]

        def power(f):
            w = 2 * math.cos(2 * math.pi * f / rate)
            s1 = s2 = 0.0
            for x in window:
                s1, s2 = x + w * s1 - s2, s1
            return s1 * s1 + s2 * s2 - w * s1 * s2

        peak = max(range(50, 4000, 5), key=power)
print(json.dumps({"received": received, "seconds": round(seconds, 2), "rms": round(rms, 1), "peak_hz": peak and round(peak, 1)}))
