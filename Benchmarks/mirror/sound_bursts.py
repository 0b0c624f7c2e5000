#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""The sound delay benchmark's source: writes 48 kHz stereo s16le to stdout in 10 ms pieces,
paced by the clock (for `pacat` into the null sink): silence with a 60 ms 1 kHz burst after
gaps of 0.4-0.9 s (irregular, so that bursts cannot be matched to the wrong ones), and logs
`index time` to --log as each burst's first piece is written.

    sound_bursts.py --log FILE --count 30 | pacat --raw ... --latency-msec=10
"""
import argparse
import math
import random
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--log", required=True)
ap.add_argument("--count", type=int, default=30)
ap.add_argument("--lead", type=float, default=1.0, help="silence before the first burst, in seconds")
a = ap.parse_args()
rate, piece = 48000, 480
silence = bytes(piece * 4)
burst = bytearray()
for i in range(rate * 60 // 1000):
    v = int(16000 * math.sin(2 * math.pi * 1000 * i / rate))
    burst += v.to_bytes(2, "little", signed=True) * 2
burst_pieces = [bytes(burst[i:i + piece * 4]) for i in range(0, len(burst), piece * 4)]
random.seed(33)
plan = []  # the piece number each burst starts at
at = int(a.lead * 100)
for _ in range(a.count):
    plan.append(at)
    at += len(burst_pieces) + int(random.uniform(0.4, 0.9) * 100)
log = open(a.log, "w")
out = sys.stdout.buffer
start = time.monotonic()
n, k = 0, 0
while n < at + 100:
    delay = start + n * 0.01 - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    if k < len(plan) and plan[k] <= n < plan[k] + len(burst_pieces):
        if n == plan[k]:
            log.write(f"{k} {time.time():.4f}\n")
            log.flush()
        out.write(burst_pieces[n - plan[k]])
        if n == plan[k] + len(burst_pieces) - 1:
            k += 1
    else:
        out.write(silence)
    out.flush()
    n += 1
