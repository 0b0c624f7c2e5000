# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""`castctl watch` says how an app session went away (issue 30), in CastClient's one sentence
(SessionEnding, the window's notice says the same): ambient mode closing a paused app (the
receiver clock moved past --ambient-after), another phone starting an app (the LAUNCH hook),
and a reboot (the REBOOT hook: every socket drops, watch reconnects to a device without it)."""
import json
import subprocess

import pytest

from castraw import SIMULATOR_NS, RawSender
from conftest import CASTCTL, castctl

URL = "https://media.example/film.mp4"
MANUAL = ("--clock", "manual", "--ambient-after", "600", "--foreign-app", "youtube")


def hook(receiver, payload):
    raw = RawSender(receiver.host, receiver.port, source="sender-watch-test")
    try:
        if payload["type"] == "REBOOT":
            raw.send(SIMULATOR_NS, "receiver-0", payload)
            return None
        return raw.request(SIMULATOR_NS, "receiver-0", payload)
    finally:
        raw.close()


class Watch:
    def __init__(self, receiver):
        self.proc = subprocess.Popen([CASTCTL, "watch", "--json", "--device", receiver.device],
                                     stdout=subprocess.PIPE, text=True)
        self.seen = []

    def until(self, pred):
        while True:
            line = self.proc.stdout.readline()
            assert line, f"watch ended early; saw {self.seen}"
            ev = json.loads(line)
            self.seen.append(ev)
            if pred(ev):
                return ev

    def playing(self):
        self.until(lambda e: e["event"] == "media" and (e.get("media") or {}).get("playerState") == "PLAYING")

    def ended(self):
        return self.until(lambda e: e["event"] == "ended")["ended"]

    def close(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture
def watch(receiver):
    castctl(receiver, "cast", URL, "--title", "Film")
    w = Watch(receiver)
    try:
        w.playing()
        yield w
    finally:
        w.close()


@pytest.mark.parametrize("receiver", [MANUAL], indirect=True)
def test_ambient_mode_is_said(receiver, watch):
    castctl(receiver, "pause")
    watch.until(lambda e: e["event"] == "media" and (e.get("media") or {}).get("playerState") == "PAUSED")
    hook(receiver, {"type": "ADVANCE_CLOCK", "seconds": 599})
    hook(receiver, {"type": "ADVANCE_CLOCK", "seconds": 2})
    assert watch.ended() == f"{receiver.device} closed Film after it had been paused for a long time."
    assert not [e for e in watch.seen if e["event"] == "ended"][1:], "said twice"


@pytest.mark.parametrize("receiver", [MANUAL], indirect=True)
def test_another_phone_starting_an_app_is_said(receiver, watch):
    hook(receiver, {"type": "LAUNCH", "appId": "233637DE"})
    assert watch.ended() == f"Someone else started YouTube on {receiver.device}."


@pytest.mark.parametrize("receiver", [MANUAL], indirect=True)
def test_a_reboot_is_said_after_reconnecting(receiver, watch):
    hook(receiver, {"type": "REBOOT"})
    assert watch.ended() == f"{receiver.device} stopped playing Film, probably because it restarted."
    # Watching goes on: a new cast shows.
    castctl(receiver, "cast", URL, "--title", "Film again")
    watch.playing()
