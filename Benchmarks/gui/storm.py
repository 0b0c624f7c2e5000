# SPDX-License-Identifier: GPL-3.0-or-later
"""A status storm: pychromecast, as another sender, seeks the media `RATE` times a second for
`SECONDS` seconds; every seek makes the receiver send a MEDIA_STATUS to every sender.
Prints how many seeks were answered.   storm.py HOST:PORT SECONDS [RATE]"""
import sys
import time
import uuid

import pychromecast

host, port = sys.argv[1].rsplit(":", 1)
seconds = float(sys.argv[2])
rate = float(sys.argv[3]) if len(sys.argv) > 3 else 100
cast = pychromecast.get_chromecast_from_host((host, int(port), uuid.uuid4(), "Chromecast", "Storm"), tries=1, timeout=10)
cast.wait(timeout=10)
mc = cast.media_controller
deadline = time.monotonic() + 10
while mc.status.media_session_id is None and time.monotonic() < deadline:
    mc.update_status()
    time.sleep(0.05)
assert mc.status.media_session_id is not None, "no media session to seek in"
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
