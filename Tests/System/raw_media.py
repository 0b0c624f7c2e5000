# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Shared by the pychromecast system tests (receiver/ and client/ conftest.py).

pychromecast's own MediaStatus keeps neither textTrackStyle nor breakStatus
(docs/protocol.md §18), so tests register this second handler on the media namespace and
read the raw JSON of every MEDIA_STATUS."""
import threading
import time

from pychromecast.controllers import BaseController

MEDIA_NS = "urn:x-cast:com.google.cast.media"


class RawMediaHandler(BaseController):
    def __init__(self):
        super().__init__(MEDIA_NS)
        self.statuses = []
        self.queue_messages = []  # QUEUE_CHANGE, QUEUE_ITEM_IDS, QUEUE_ITEMS
        self.cond = threading.Condition()

    def receive_message(self, _message, data):
        if data.get("type") == "MEDIA_STATUS":
            with self.cond:
                self.statuses.append(data)
                self.cond.notify_all()
        elif str(data.get("type", "")).startswith("QUEUE_"):
            with self.cond:
                self.queue_messages.append(data)
                self.cond.notify_all()
        return False  # let pychromecast's media controller see it too

    @property
    def last(self):
        """The newest non-empty media status."""
        with self.cond:
            for data in reversed(self.statuses):
                if data.get("status"):
                    return data["status"][0]
        return None

    def wait_for_queue(self, predicate, timeout=10):
        """The first queue message (QUEUE_CHANGE, QUEUE_ITEM_IDS, ...) matching `predicate`."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for data in self.queue_messages:
                    if predicate(data):
                        return data
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("no queue message matched in time")
                self.cond.wait(left)

    def wait_for(self, predicate, timeout=10):
        """The newest status matching `predicate`, waiting up to `timeout` seconds for one.
        Newest first, so waiting for a state the media returns to (unmuted after muted)
        is not satisfied by an older status."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for data in reversed(self.statuses):
                    for st in data.get("status") or []:
                        if predicate(st):
                            return st
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("no MEDIA_STATUS matched in time")
                self.cond.wait(left)
