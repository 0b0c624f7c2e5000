#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""The receiver end of the glass-to-glass benchmark: reads barcode.py's counter back from
decoded frames, and with barcode.py's log gives delay = decode time − draw time per frame
(the first frame that shows a counter; repeats of it are not counted). Prints one JSON line:
frames, counted, unreadable, median_s, p95_s, min_s, max_s, drift_s, and over two minutes or
more first_minute_median_s and last_minute_median_s (see summary()).

Where the decoded frames come from (any one; times are CLOCK_REALTIME seconds):
  --url URL          ffmpeg reads the stream as a client (one decoding thread, as a device's
                     hardware decoder adds no frame delay) and hands over grey frames; the
                     decode time is when a whole frame arrives here.
  --raw PATH         grey frames of --frame-size from a pipe or file ('-' = stdin), timed as they arrive.
  --frames DIR       files named <decode-time>.gray (raw grey of --frame-size) or .pgm, read afterwards.
  --readings PATH    lines `counter decode-time` (`- decode-time` for a frame that did not read) from a
                     reader that decodes on its own (chromium_reader.html, a receiver).
--warmup S drops the first S seconds (start-up, the first buffering), --seconds N then measures N.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from barcode_layout import read  # noqa: E402


def frames_from_pipe(stream, w, h):
    size = w * h
    buf = bytearray()
    while True:
        chunk = stream.read1(1 << 20) if hasattr(stream, "read1") else stream.read(1 << 20)
        if not chunk:
            return
        buf += chunk
        now = time.time()
        while len(buf) >= size:
            yield now, bytes(buf[:size])
            del buf[:size]


def readings_live(frames, warmup, seconds):
    out, unreadable, total = [], 0, 0
    start = time.time()
    for t, frame in frames:
        if t - start < warmup:
            continue
        if t - start > warmup + seconds:
            break
        total += 1
        value = read(frame, W, H)
        if value is None:
            unreadable += 1
        else:
            out.append((value, t))
    return out, unreadable, total


def readings_dir(path):
    out, unreadable, total = [], 0, 0
    for name in sorted(os.listdir(path), key=lambda n: float(n.rsplit(".", 1)[0])):
        t = float(name.rsplit(".", 1)[0])
        data = open(os.path.join(path, name), "rb").read()
        if name.endswith(".pgm"):  # P5 header: magic, width, height, maxval
            parts = data.split(maxsplit=4)
            data = parts[4]
        total += 1
        value = read(data, W, H)
        if value is None:
            unreadable += 1
        else:
            out.append((value, t))
    return out, unreadable, total


def readings_file(path, warmup, seconds):
    """`counter time` lines (`- time`: a frame that did not read), the window counted from the first."""
    rows = [line.split() for line in open(path) if len(line.split()) == 2]
    if not rows:
        return [], 0, 0
    start = min(float(t) for _, t in rows)
    rows = [(v, float(t)) for v, t in rows if warmup <= float(t) - start <= warmup + seconds]
    out = [(int(v), t) for v, t in rows if v != "-"]
    return out, len(rows) - len(out), len(rows)


def delays(draw_log, readings):
    drawn = {}
    for line in open(draw_log):
        parts = line.split()
        if len(parts) == 2:
            drawn.setdefault(int(parts[0]), []).append(float(parts[1]))
    seen, out = set(), []
    for value, t in readings:
        if value in seen or value not in drawn:
            continue
        seen.add(value)
        # The counter wraps after 65536 frames: the draw just before the decode is the one.
        before = [d for d in drawn[value] if d <= t]
        if before:
            out.append((t, t - before[-1]))
    return out


def summary(timed, unreadable, total):
    """Figures of the delays ((time, delay) in the order the frames came). drift_s: the median
    of the last fifth minus that of the first fifth (a delay that grows as the run goes on);
    over two minutes or more, also the medians of the first and the last minute."""
    in_order = [d for _, d in timed]
    ds = sorted(in_order)
    if not ds:
        return {"frames": total, "counted": 0, "unreadable": unreadable}
    p95 = ds[min(len(ds) - 1, int(round(0.95 * (len(ds) - 1))))]
    fifth = max(len(in_order) // 5, 1)
    drift = statistics.median(in_order[-fifth:]) - statistics.median(in_order[:fifth])
    figures = {
        "frames": total, "counted": len(ds), "unreadable": unreadable, "median_s": round(statistics.median(ds), 4),
        "p95_s": round(p95, 4), "min_s": round(ds[0], 4), "max_s": round(ds[-1], 4), "drift_s": round(drift, 4),
    }
    start, end = timed[0][0], timed[-1][0]
    if end - start >= 120:
        figures["first_minute_median_s"] = round(statistics.median([d for t, d in timed if t - start < 60]), 4)
        figures["last_minute_median_s"] = round(statistics.median([d for t, d in timed if end - t < 60]), 4)
    return figures


def main():
    global W, H
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--url")
    src.add_argument("--raw")
    src.add_argument("--frames")
    src.add_argument("--readings")
    ap.add_argument("--draw-log", required=True)
    ap.add_argument("--frame-size", default="320x180", help="the size frames are read at (--url scales to it)")
    ap.add_argument("--warmup", type=float, default=5)
    ap.add_argument("--seconds", type=float, default=20)
    a = ap.parse_args()
    W, H = (int(v) for v in a.frame_size.split("x"))
    if a.url:
        ff = subprocess.Popen(
            ["ffmpeg", "-nostdin", "-v", "error", "-threads", "1", "-i", a.url, "-an", "-vf", f"scale={W}:{H},format=gray",
             "-f", "rawvideo", "pipe:1"], stdout=subprocess.PIPE)
        try:
            readings, unreadable, total = readings_live(frames_from_pipe(ff.stdout, W, H), a.warmup, a.seconds)
        finally:
            ff.kill()
            ff.wait()
    elif a.raw:
        stream = sys.stdin.buffer if a.raw == "-" else open(a.raw, "rb")
        readings, unreadable, total = readings_live(frames_from_pipe(stream, W, H), a.warmup, a.seconds)
    elif a.frames:
        readings, unreadable, total = readings_dir(a.frames)
    else:
        readings, unreadable, total = readings_file(a.readings, a.warmup, a.seconds)
    print(json.dumps(summary(delays(a.draw_log, readings), unreadable, total)))


if __name__ == "__main__":
    main()
