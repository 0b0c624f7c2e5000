# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""The Cast Streaming path's readings for barcode_read.py --readings: the simulator's
`--mirror-output DIR`, run with CASTDECK_MIRROR_GRAY=1, holds every decoded picture 160x90 grey
in `sN-gray-160x90.raw` and a `decoded` line per picture, in the same order, with the time the
decoder gave it back (frames.jsonl). Prints `counter time` (`- time` for a picture whose
counter does not read) for the last session in DIR."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
from barcode_layout import read  # noqa: E402

W, H = 160, 90
directory = sys.argv[1]
sessions = [int(m.group(1)) for n in os.listdir(directory) if (m := re.fullmatch(r"s(\d+)-gray-160x90\.raw", n))]
if not sessions:
    sys.exit(f"no decoded pictures in {directory} (was the receiver run with CASTDECK_MIRROR_GRAY=1?)")
session = max(sessions)
times = [e["at"] for e in map(json.loads, open(os.path.join(directory, "frames.jsonl")))
         if e.get("event") == "decoded" and e.get("session") == session]
with open(os.path.join(directory, f"s{session}-gray-{W}x{H}.raw"), "rb") as f:
    for t in times:
        picture = f.read(W * H)
        if len(picture) < W * H:
            break
        value = read(picture, W, H)
        print(f"{'-' if value is None else value} {t}")
