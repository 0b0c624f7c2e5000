# SPDX-License-Identifier: GPL-3.0-or-later
"""For the benchmarks that drive a media session through pychromecast: connect to a device by
host and port and return its media controller once a media session is known."""
import time
import uuid

import pychromecast


def media_controller(device, name="Bench"):
    host, port = device.rsplit(":", 1)
    cast = pychromecast.get_chromecast_from_host((host, int(port), uuid.uuid4(), "Chromecast", name), tries=1, timeout=10)
    cast.wait(timeout=10)
    mc = cast.media_controller
    deadline = time.monotonic() + 10
    while mc.status.media_session_id is None and time.monotonic() < deadline:
        mc.update_status()
        time.sleep(0.05)
    assert mc.status.media_session_id is not None, "no media session to drive"
    return cast, mc
