#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""The picture of the glass-to-glass benchmark: draws a frame counter as a barcode on the X
display, FPS times a second, and logs `counter draw-time` (CLOCK_REALTIME seconds) for each.

Layout (fractions of the window, shared with barcode_read.py): two rows of 16 blocks across
x 0.05–0.95; row 0 (y 0.08–0.28) is the counter's 16 bits, most significant first, white for 1;
row 1 (y 0.30–0.50) is its complement, so a frame torn between two counters or smeared by the
encoder fails the check and is not counted. The lower half moves (a bar sweeping across, a
shade that changes), so the encoder has a changing picture like a real screen.

    barcode.py --size 1280x720 --fps 30 --log draw.log      (DISPLAY names the screen)
"""
import argparse
import time
import tkinter

from barcode_layout import BITS, block_box, ROWS


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--fps", type=float, default=30)
    ap.add_argument("--log", required=True)
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    root = tkinter.Tk()
    root.overrideredirect(True)
    root.geometry(f"{w}x{h}+0+0")
    c = tkinter.Canvas(root, width=w, height=h, bg="black", highlightthickness=0)
    c.pack()
    blocks = [[c.create_rectangle(*block_box(r, i, w, h), fill="black", width=0) for i in range(BITS)] for r in range(ROWS)]
    bar = c.create_rectangle(0, int(h * 0.6), int(w * 0.08), int(h * 0.95), fill="#e04040", width=0)
    shade = c.create_rectangle(int(w * 0.6), int(h * 0.6), int(w * 0.95), int(h * 0.95), fill="#000000", width=0)
    period = 1.0 / a.fps
    log = open(a.log, "w", buffering=1)
    n = 0
    start = time.monotonic()
    while True:
        value = n & 0xFFFF
        for i in range(BITS):
            bit = (value >> (BITS - 1 - i)) & 1
            c.itemconfigure(blocks[0][i], fill="white" if bit else "black")
            c.itemconfigure(blocks[1][i], fill="black" if bit else "white")
        x = (n * 7) % max(w - int(w * 0.08), 1)
        c.coords(bar, x, int(h * 0.6), x + int(w * 0.08), int(h * 0.95))
        g = (n * 5) % 256
        c.itemconfigure(shade, fill=f"#{g:02x}{255 - g:02x}{(g * 3) % 256:02x}")
        root.update()
        log.write(f"{value} {time.time():.6f}\n")
        n += 1
        delay = start + n * period - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        elif delay < -1:  # fell far behind (a busy machine): start the schedule again
            start = time.monotonic() - n * period


if __name__ == "__main__":
    main()
