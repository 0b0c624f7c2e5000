# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""pychromecast 14.0.10 for test_move.py (run with the project's .venv), a foreign sender and
the second opinion: `move_sender.py HOST PORT queue` starts the Default Media Receiver and
QUEUE_LOADs three items with an English subtitle track, the second one playing;
`... check` prints what the device reports, as JSON: the media status (asked for anew) and
the queue's item ids."""
import json
import os
import sys
import threading
import uuid

import pychromecast

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from pcc_serial import serialize  # noqa: E402  (the socket is used from two threads)
from raw_media import RawMediaHandler  # noqa: E402

host, port, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
VTT = "https://example.com/sub-en.vtt"


def item(n):
    return {"media": {"contentId": f"https://example.com/{n}.mp3", "contentType": "audio/mpeg", "streamType": "BUFFERED",
                      "duration": 900, "metadata": {"metadataType": 3, "title": f"Song {n}", "artist": "The Movers"},
                      "tracks": [{"trackId": 1, "type": "TEXT", "subtype": "SUBTITLES", "trackContentId": VTT,
                                  "trackContentType": "text/vtt", "language": "en", "name": "English"}]},
            "autoplay": True}


cast = pychromecast.get_chromecast_from_host((host, port, uuid.uuid4(), "Chromecast", "Test TV"), tries=3, retry_wait=0.5, timeout=10)
raw = RawMediaHandler()
cast.register_handler(raw)
cast.wait(timeout=15)
serialize(cast)
out = 0
if what == "queue":
    done = threading.Event()
    cast.media_controller.play_media("https://example.com/warmup.mp3", "audio/mpeg", callback_function=lambda ok, data: done.set())
    done.wait(20)
    raw.send_message({"type": "QUEUE_LOAD", "items": [item(n) for n in (1, 2, 3)], "startIndex": 1, "repeatMode": "REPEAT_OFF"})
    raw.wait_for(lambda s: ((s.get("media") or {}).get("contentId") or "").endswith("/2.mp3"), timeout=20)
else:
    if cast.app_id:
        raw.send_message({"type": "GET_STATUS"})
        try:
            st = raw.wait_for(lambda s: True, timeout=10)
        except AssertionError:
            st = None
    else:
        st = None
    ids = []
    if st and st.get("playerState") != "IDLE":
        raw.send_message({"type": "QUEUE_GET_ITEM_IDS"})
        ids = raw.wait_for_queue(lambda m: m.get("type") == "QUEUE_ITEM_IDS", timeout=10)["itemIds"]
    print(json.dumps({"status": st, "itemIds": ids}))
cast.disconnect(timeout=5)
sys.exit(out)
