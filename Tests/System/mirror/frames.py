#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""frames.py DIR [SESSION]: reads what `castctl receiver --mirror-output DIR` wrote and prints
one JSON object: pictures received and decoded, their mean brightness, and the counters that
counter.py drew, read back from the decoded PNGs (through ffmpeg, as 160x90 grey)."""
import glob
import json
import subprocess
import sys

directory = sys.argv[1]
session = int(sys.argv[2]) if len(sys.argv) > 2 else None
received, decoded, lumas, sessions = 0, 0, [], set()
for line in open(f"{directory}/frames.jsonl"):
    e = json.loads(line)
    sessions.add(e["session"])
    if session is not None and e["session"] != session:
        continue
    if e["event"] == "received" and e["stream"] == "video":
        received += 1
    elif e["event"] == "decoded":
        decoded += 1
        lumas.append(e["luma"])


def counter(png):
    """The 16-bit counter from the row of blocks at the top of a decoded picture."""
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", png, "-vf", "scale=160:90,format=gray", "-f", "rawvideo", "-"],
        capture_output=True, check=True).stdout
    row = 90 // 12  # the middle of the top sixth
    value = 0
    for bit in range(16):
        value = value << 1 | (raw[row * 160 + bit * 10 + 5] > 128)
    return value


pattern = f"{directory}/s{session}-frame-*.png" if session is not None else f"{directory}/s*-frame-*.png"
pngs = sorted(glob.glob(pattern))
counters = [counter(p) for p in pngs]
print(json.dumps({"sessions": sorted(sessions), "received": received, "decoded": decoded,
                  "min_luma": min(lumas) if lumas else None, "counters": counters, "pngs": len(pngs)}))
