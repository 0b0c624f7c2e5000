# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""pychromecast 14.0.10 as the second sender of test_chapters.py: launches the Default Media
Receiver on the device and loads one of two items, then exits.

    pcc_chapters.py HOST PORT film|audiobook

film: "Sintel" with a subtitle, a caption, a description, a METADATA track and a WebVTT
chapter track (a data: URL: One 0:00, Two 1:40, Three 4:10). audiobook: an
AUDIOBOOK_CHAPTER item (chapter 3, "Over Hill and Under Hill") with no chapter track."""
import base64
import os
import sys
import threading
import uuid

import pychromecast

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pcc_serial import serialize  # noqa: E402  (the socket is used from two threads)

host, port, which = sys.argv[1], int(sys.argv[2]), sys.argv[3]
CHAPTERS = ("WEBVTT\n\n00:00.000 --> 01:40.000\nOne\n\n00:01:40.000 --> 00:04:10.000\nTwo\n\n"
            "00:04:10.000 --> 00:10:00.000\n<b>Three</b>\n")
CHAPTER_URL = "data:text/vtt;base64," + base64.b64encode(CHAPTERS.encode()).decode()


def track(tid, subtype, url):
    return {"trackId": tid, "type": "TEXT", "subtype": subtype, "trackContentId": url,
            "trackContentType": "text/vtt", "language": "en"}


if which == "film":
    url, ctype = "https://example.com/sintel.mp4", "video/mp4"
    metadata = {"metadataType": 1, "title": "Sintel"}
    info = {"duration": 600, "tracks": [
        track(1, "SUBTITLES", "https://example.com/en.vtt"), track(2, "CAPTIONS", "https://example.com/cc.vtt"),
        track(3, "DESCRIPTIONS", "https://example.com/desc.vtt"), track(4, "CHAPTERS", CHAPTER_URL),
        track(5, "METADATA", "https://example.com/cues.vtt")]}
else:
    url, ctype = "https://example.com/hobbit-3.mp3", "audio/mpeg"
    metadata = {"metadataType": 5, "title": "The Hobbit", "bookTitle": "The Hobbit", "chapterNumber": 3,
                "chapterTitle": "Over Hill and Under Hill"}
    info = {"duration": 1800}

cast = pychromecast.get_chromecast_from_host((host, port, uuid.uuid4(), "Chromecast", "Test TV"),
                                             tries=3, retry_wait=0.5, timeout=10)
cast.wait(timeout=15)
serialize(cast)
done = threading.Event()
result = {}


def callback(ok, data):
    result["ok"], result["data"] = ok, data
    done.set()


cast.media_controller.play_media(url, ctype, stream_type="BUFFERED", metadata=metadata, media_info=info,
                                 callback_function=callback)
if not done.wait(30) or not result.get("ok"):
    print(f"pychromecast could not load {which}: {result}", file=sys.stderr)
    sys.exit(1)
cast.disconnect(timeout=5)
