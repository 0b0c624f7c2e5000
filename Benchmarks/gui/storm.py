# SPDX-License-Identifier: GPL-3.0-or-later
"""A status storm: pychromecast, as another sender, seeks the media `RATE` times a second for
`SECONDS` seconds; every seek makes the receiver send a MEDIA_STATUS to every sender.
Prints how many seeks were answered.   storm.py HOST:PORT SECONDS [RATE]"""
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from pcc_media import media_controller  # noqa: E402

seconds = float(sys.argv[2])
rate = float(sys.argv[3]) if len(sys.argv) > 3 else 100
cast, mc = media_controller(sys.argv[1], "Storm")
start = time.monotonic()
n = 0
while time.monotonic() - start < seconds:
    mc.seek(100 + (n % 50))
    n += 1
    next_at = start + n / rate
    pause = next_at - time.monotonic()
    if pause > 0:
        time.sleep(pause)
print(f"{n} seeks in {time.monotonic() - start:.1f} s", flush=True)
cast.disconnect(timeout=5)
