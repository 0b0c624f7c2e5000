# SPDX-License-Identifier: GPL-3.0-or-later
"""The peer of `castctl move`: the naive transfer a pychromecast script does. Read the source's
status, play_media the current item on the target at its position, stop the source. What it
does not carry (the rest of the queue, the subtitle, the style, the rate) is lost, as it would
be. `naive_move.py SOURCE TARGET` (HOST:PORT each)."""
import sys
import threading
import uuid

import os

import pychromecast

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "System"))
from pcc_serial import serialize  # noqa: E402  (the socket is used from two threads)


def connect(device):
    host, port = device.rsplit(":", 1)
    cast = pychromecast.get_chromecast_from_host((host, int(port), uuid.uuid4(), "Chromecast", device), tries=1, timeout=10)
    cast.wait(timeout=10)
    return serialize(cast)


source, target = connect(sys.argv[1]), connect(sys.argv[2])
mc = source.media_controller
mc.update_status()
st = mc.status
done = threading.Event()
target.media_controller.play_media(
    st.content_id, st.content_type or "audio/mpeg", title=st.title, current_time=st.adjusted_current_time,
    callback_function=lambda ok, data: done.set())
mc.stop()
done.wait(20)
source.disconnect(timeout=5)
target.disconnect(timeout=5)
