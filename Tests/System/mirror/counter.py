#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""counter.py WIDTH HEIGHT: a window that draws a frame counter 20 times a second, for the
mirroring tests (run-mirror.sh). Its top sixth is a row of 16 blocks, the counter in binary
(most significant bit first; white is 1, black is 0), which frames.py reads back from a
decoded picture; below it the number in large digits on a blue-grey ground (never black).
Prints its X window id (the toplevel, as x11grab's -window_id wants it) once it is mapped;
follows resizes (xdotool windowsize)."""
import sys
import tkinter as tk

width, height = int(sys.argv[1]), int(sys.argv[2])
root = tk.Tk()
root.overrideredirect(True)
root.geometry(f"{width}x{height}+0+0")
canvas = tk.Canvas(root, highlightthickness=0, background="#50789f")
canvas.pack(fill="both", expand=True)
count = 0


def draw():
    global count
    count += 1
    w, h = canvas.winfo_width(), canvas.winfo_height()
    canvas.delete("all")
    stripe = max(h // 6, 4)
    for bit in range(16):
        on = (count >> (15 - bit)) & 1
        x0, x1 = bit * w // 16, (bit + 1) * w // 16
        canvas.create_rectangle(x0, 0, x1, stripe, fill="#ffffff" if on else "#000000", width=0)
    canvas.create_text(w // 2, (h + stripe) // 2, text=str(count), fill="#ffffff", font=("TkFixedFont", max(h // 4, 8)))
    root.after(50, draw)


def announce():
    root.update_idletasks()
    print(int(root.wm_frame(), 16), flush=True)


root.after(50, draw)
root.after(200, announce)
root.mainloop()
