# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Where barcode.py draws each block, and how barcode_read.py reads a frame back."""
BITS = 16
ROWS = 2
LEFT, RIGHT = 0.05, 0.95
ROW_Y = ((0.08, 0.28), (0.30, 0.50))


def block_box(row, i, w, h):
    """(x0, y0, x1, y1) in pixels of block `i` of `row` on a w×h picture."""
    bw = (RIGHT - LEFT) / BITS
    y0, y1 = ROW_Y[row]
    return (int(w * (LEFT + i * bw)), int(h * y0), int(w * (LEFT + (i + 1) * bw)), int(h * y1))


def read(frame, w, h):
    """The counter in a w×h grey frame (bytes or a numpy array of h×w), or None when the two
    rows do not agree (a torn or smeared frame). Samples the middle half of each block."""
    try:
        import numpy
    except ImportError:
        numpy = None
    a = None
    if numpy is not None:
        a = frame if hasattr(frame, "shape") else numpy.frombuffer(frame, dtype=numpy.uint8).reshape(h, w)
    bits = []
    for row in range(ROWS):
        value = 0
        for i in range(BITS):
            x0, y0, x1, y1 = block_box(row, i, w, h)
            qx, qy = (x1 - x0) // 4, (y1 - y0) // 4
            if a is not None:
                level = float(a[y0 + qy:y1 - qy, x0 + qx:x1 - qx].mean())
            else:
                total = count = 0
                for y in range(y0 + qy, y1 - qy, 2):
                    row_bytes = frame[y * w + x0 + qx:y * w + x1 - qx:2]
                    total += sum(row_bytes)
                    count += len(row_bytes)
                level = total / max(count, 1)
            if 48 < level < 208:
                return None  # neither black nor white: a smeared block
            value = value << 1 | (1 if level >= 128 else 0)
        bits.append(value)
    return bits[0] if bits[0] ^ bits[1] == 0xFFFF else None
