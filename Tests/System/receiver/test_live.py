# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""pychromecast 14.0.10 loads a LIVE stream on `castctl receiver` (replay window 120 s):
no duration, a liveSeekableRange that moves with the clock, seeks clamped into it, and
END_LIVE (isLiveDone) turning it into a recording that plays to its end."""

import threading

from conftest import connect, wait_until

URL = "https://example.com/news/live.m3u8"


def load_live(cast):
    mc = cast.media_controller
    loaded = threading.Event()
    mc.play_media(URL, "application/x-mpegURL", stream_type="LIVE", metadata={"metadataType": 0, "title": "News 24"},
                  callback_function=lambda ok, data: loaded.set())
    assert loaded.wait(20), "LOAD of a LIVE stream was not answered"


def end_live(control):
    done = threading.Event()
    control.send_message({"type": "END_LIVE"}, callback_function=lambda ok, data: done.set())
    assert done.wait(10), "END_LIVE was not answered"


def test_live_stream_window_moves_and_seeks_stay_inside(receiver):
    cast, raw, control = connect(receiver)
    try:
        load_live(cast)
        mc = cast.media_controller
        st = raw.wait_for(lambda s: s.get("playerState") == "PLAYING" and "liveSeekableRange" in s)
        assert st["media"]["streamType"] == "LIVE"
        assert "duration" not in st["media"]
        assert st["liveSeekableRange"] == {"start": 0, "end": 120, "isMovingWindow": True, "isLiveDone": False}
        assert st["currentTime"] == 120, "a live stream starts at its live edge"

        control.advance(30)
        mc.update_status()
        st = raw.wait_for(lambda s: s.get("liveSeekableRange", {}).get("end") == 150)
        assert st["liveSeekableRange"]["start"] == 30
        assert st["currentTime"] == 150

        # Inside the window: honoured; before its start: the start; past the edge: the edge.
        mc.seek(70)
        raw.wait_for(lambda s: s.get("currentTime") == 70)
        mc.seek(5)
        raw.wait_for(lambda s: s.get("currentTime") == 30)
        mc.seek(10_000)
        raw.wait_for(lambda s: s.get("currentTime") == 150)

        # Paused, the window moves on and drags the position along once it passes it.
        mc.seek(40)
        raw.wait_for(lambda s: s.get("currentTime") == 40)
        mc.pause()
        wait_until(lambda: mc.status.player_state == "PAUSED", what="PAUSED")
        control.advance(60)
        mc.update_status()
        st = raw.wait_for(lambda s: s.get("liveSeekableRange", {}).get("start") == 90)
        assert st["currentTime"] == 90
        assert mc.status.duration is None
    finally:
        cast.disconnect(timeout=5)


def test_ended_live_stream_plays_to_its_end(receiver):
    cast, raw, control = connect(receiver)
    try:
        load_live(cast)
        mc = cast.media_controller
        raw.wait_for(lambda s: s.get("playerState") == "PLAYING" and "liveSeekableRange" in s)
        mc.seek(100)  # 20 s behind the live edge
        raw.wait_for(lambda s: s.get("currentTime") == 100)
        end_live(control)
        st = raw.wait_for(lambda s: s.get("liveSeekableRange", {}).get("isLiveDone") is True)
        assert st["liveSeekableRange"] == {"start": 0, "end": 120, "isMovingWindow": False, "isLiveDone": True}
        control.advance(10)
        mc.update_status()
        raw.wait_for(lambda s: s.get("currentTime") == 110 and s.get("liveSeekableRange", {}).get("end") == 120)
        control.advance(10)  # the last 10 s: the recording is over
        st = raw.wait_for(lambda s: s.get("playerState") == "IDLE")
        assert st["idleReason"] == "FINISHED"
    finally:
        cast.disconnect(timeout=5)

