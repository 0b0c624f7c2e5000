# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""pychromecast 14.0.10 as a second sender for test_live.py (run with the project's .venv):
`live_sender.py HOST PORT load` LOADs a LIVE stream; `... end` ends it (the simulator's
END_LIVE test hook, only with `castctl receiver --clock manual`)."""
import sys
import threading
import uuid

import pychromecast
from pychromecast.controllers import BaseController

host, port, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]


class Simulator(BaseController):
    def __init__(self):
        super().__init__("urn:x-cast:io.github.castdeck.simulator", target_platform=True)

    def receive_message(self, _message, _data):
        return True


cast = pychromecast.get_chromecast_from_host((host, port, uuid.uuid4(), "Chromecast", "Test TV"), tries=3, retry_wait=0.5, timeout=10)
control = Simulator()
cast.register_handler(control)
cast.wait(timeout=15)
done = threading.Event()
if what == "load":
    cast.media_controller.play_media(
        "https://tv.example/news/live.m3u8", "application/x-mpegURL", stream_type="LIVE",
        metadata={"metadataType": 0, "title": "News 24", "subtitle": "Live from the newsroom"},
        callback_function=lambda ok, data: done.set())
else:
    control.send_message({"type": "END_LIVE"}, callback_function=lambda ok, data: done.set())
ok = done.wait(20)
cast.disconnect(timeout=5)
sys.exit(0 if ok else 1)
