#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""The sound delay benchmark's receiver end: finds the bursts of sound_bursts.py in decoded
48 kHz stereo s16le and takes, for each, delay = the time the decoded piece holding its onset
arrived − the time the burst was written. Decoded sound comes from either
  --mirror DIR --session N   what `castctl receiver --mirror-output DIR` decoded (sN-audio.s16le,
                             placed in time by the `"sound"` lines of frames.jsonl), or
  --pipe                     stdin (an ffmpeg client's output), each piece timed as it arrives,
                             until --seconds have passed.
Onsets are matched to the logged bursts by order, at the shifts that make the delays most
alike (the gaps between bursts are irregular). Prints JSON: median_s, p95_s, counted, bursts."""
import argparse
import json
import statistics
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--log", required=True)
ap.add_argument("--mirror")
ap.add_argument("--session", type=int, default=1)
ap.add_argument("--pipe", action="store_true")
ap.add_argument("--seconds", type=float, default=30)
a = ap.parse_args()

pcm, times = bytearray(), []  # times: (samples decoded so far, arrival time)
if a.pipe:
    end = time.time() + a.seconds
    while time.time() < end:
        chunk = sys.stdin.buffer.read1(1 << 14)
        if not chunk:
            break
        pcm += chunk
        times.append((len(pcm) // 4, time.time()))
else:
    pcm = bytearray(open(f"{a.mirror}/s{a.session}-audio.s16le", "rb").read())
    for line in open(f"{a.mirror}/frames.jsonl"):
        e = json.loads(line)
        if e["event"] == "sound" and e["session"] == a.session:
            times.append((e["samples"], float(e["at"])))

left = [int.from_bytes(pcm[i:i + 2], "little", signed=True) for i in range(0, len(pcm) - 3, 4)]
onsets, quiet = [], 0
for i in range(0, len(left), 48):  # 1 ms blocks
    loud = max(abs(x) for x in left[i:i + 48]) > 4000
    if loud and quiet >= 100:
        onsets.append(i + next(j for j, x in enumerate(left[i:i + 48]) if abs(x) > 4000))
    quiet = 0 if loud else quiet + 1


def arrival(sample):
    for n, t in times:
        if n > sample:
            return t
    return None


heard = [t for t in (arrival(s) for s in onsets) if t is not None]
written = [float(line.split()[1]) for line in open(a.log)]
best = None
# Either list may start with extras: bursts played before the stream was up, or a click as
# the decoder started.
for skip_heard in range(min(3, len(heard))):
    for skip_written in range(len(written)):
        delays = [h - w for h, w in zip(heard[skip_heard:], written[skip_written:])]
        if len(delays) < max(3, len(heard) // 2) or min(delays) < 0:
            continue
        spread = statistics.pstdev(delays)
        if best is None or spread < best[0]:
            best = (spread, delays)
if best is None:
    print(json.dumps({"counted": 0, "bursts": len(written), "onsets": len(onsets)}))
    sys.exit(0)
delays = sorted(best[1])
p95 = delays[min(len(delays) - 1, int(round(0.95 * (len(delays) - 1))))]
print(json.dumps({"median_s": round(statistics.median(delays), 4), "p95_s": round(p95, 4), "counted": len(delays), "bursts": len(written)}))
