# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""pychromecast 14.0.10 as a foreign sender against `castctl receiver`."""

import threading

import pychromecast
from conftest import connect, note_retry, wait_until

DMR = "CC1AD845"
URL = "https://example.com/sintel.mp4"

MEDIA_INFO = {
    "duration": 600,
    "tracks": [
        {"trackId": 1, "type": "TEXT", "subtype": "SUBTITLES", "trackContentId": "https://example.com/en.vtt",
         "trackContentType": "text/vtt", "name": "English", "language": "en-US"},
        {"trackId": 2, "type": "TEXT", "subtype": "SUBTITLES", "trackContentId": "https://example.com/de.vtt",
         "trackContentType": "text/vtt", "name": "Deutsch", "language": "de"},
    ],
    "textTrackStyle": {"foregroundColor": "#FFFF00FF", "backgroundColor": "#00000080", "edgeType": "OUTLINE",
                       "fontScale": 1.25, "fontGenericFamily": "SANS_SERIF"},
    "breaks": [
        {"id": "pre", "position": 0, "breakClipIds": ["ad1"], "isWatched": False},
        {"id": "mid", "position": 300, "breakClipIds": ["ad2"], "isWatched": False},
    ],
    "breakClips": [
        {"id": "ad1", "title": "Pre-roll ad", "contentId": "https://example.com/ad1.mp4", "duration": 10, "whenSkippable": 5},
        {"id": "ad2", "title": "Mid-roll ad", "contentId": "https://example.com/ad2.mp4", "duration": 15},
    ],
}
METADATA = {
    "metadataType": 1, "title": "Sintel", "subtitle": "Blender Foundation", "studio": "Blender",
    "images": [{"url": "https://example.com/poster.jpg", "width": 480, "height": 720},
               {"url": "https://example.com/still.jpg", "width": 1280, "height": 720}],
}


def launch_and_load(cast, raw):
    """Launch the DMR and LOAD; allows two reconnects + retries (8a): pychromecast's race (below)
    can strike again while it reconnects, when the machine is busy. Each retry is noted."""
    mc = cast.media_controller
    for attempt in (1, 2, 3):
        loaded = threading.Event()
        result = {}

        def callback(ok, data):
            result["ok"], result["data"] = ok, data
            loaded.set()

        try:
            mc.play_media(URL, "video/mp4", stream_type="BUFFERED", metadata=dict(METADATA),
                          media_info=dict(MEDIA_INFO), callback_function=callback)
        except pychromecast.error.NotConnected as e:
            result["error"] = str(e)
        else:
            if loaded.wait(20) and result.get("ok"):
                return
        if attempt < 3:
            # pychromecast writes to its TLS socket from two threads without a lock; the
            # records can interleave (the simulator then reads BAD_DECRYPT and closes). Its
            # socket thread reconnects by itself: wait for that, not just for a status.
            note_retry(f"LOAD attempt {attempt} failed ({result}); reconnecting and retrying")
            wait_until(lambda: cast.socket_client.is_connected, timeout=15, what="pychromecast to reconnect")
    raise AssertionError(f"LOAD failed three times: {result}")


def test_single_sender_full_session(receiver):
    cast, raw, control = connect(receiver)
    try:
        assert cast.cast_info.friendly_name == "Test TV"
        launch_and_load(cast, raw)
        assert cast.status.app_id == DMR
        mc = cast.media_controller

        # The pre-roll plays first: breakStatus from the raw handler.
        st = raw.wait_for(lambda s: (s.get("breakStatus") or {}).get("breakId") == "pre")
        assert st["breakStatus"]["breakClipId"] == "ad1"
        assert st["breakStatus"]["whenSkippable"] == 5
        control.advance(10)  # the pre-roll ends
        raw.wait_for(lambda s: s.get("playerState") == "PLAYING" and "breakStatus" not in s)
        wait_until(lambda: mc.status.player_state == "PLAYING", what="PLAYING")

        status = mc.status
        assert status.title == "Sintel"
        assert [i.url for i in status.images] == ["https://example.com/poster.jpg", "https://example.com/still.jpg"]
        assert [t["trackId"] for t in status.subtitle_tracks] == [1, 2]
        assert status.duration == 600
        assert status.supports_pause and status.supports_seek
        assert status.supports_stream_volume and status.supports_stream_mute
        assert status.supports_queue_next and status.supports_queue_prev
        assert raw.last["media"]["breaks"][0]["isWatched"] is True
        assert raw.last["media"]["textTrackStyle"]["foregroundColor"] == "#FFFF00FF"

        mc.pause()
        wait_until(lambda: mc.status.player_state == "PAUSED", what="PAUSED")
        mc.play()
        wait_until(lambda: mc.status.player_state == "PLAYING", what="PLAYING again")

        control.advance(20)
        mc.update_status()
        wait_until(lambda: mc.status.current_time == 20, what="position 20 after advancing 20 s")

        mc.seek(120)
        wait_until(lambda: mc.status.current_time == 120, what="seek to 120")

        cast.set_volume(0.35)
        wait_until(lambda: abs(cast.status.volume_level - 0.35) < 1e-9, what="volume 0.35")
        cast.set_volume_muted(True)
        wait_until(lambda: cast.status.volume_muted is True, what="muted")
        cast.set_volume_muted(False)
        wait_until(lambda: cast.status.volume_muted is False, what="unmuted")

        mc.enable_subtitle(2)
        wait_until(lambda: mc.status.current_subtitle_tracks == [2], what="subtitle 2 on")
        mc.disable_subtitle()
        wait_until(lambda: mc.status.current_subtitle_tracks == [], what="subtitles off")

        mc.set_playback_rate(1.5)
        wait_until(lambda: mc.status.playback_rate == 1.5, what="rate 1.5")
        control.advance(10)
        mc.update_status()
        wait_until(lambda: mc.status.current_time == 135, what="15 s of content in 10 s at 1.5x")

        # Seeking across the unwatched mid-roll at 300 plays it first, then resumes at 400.
        mc.seek(400)
        st = raw.wait_for(lambda s: (s.get("breakStatus") or {}).get("breakId") == "mid")
        assert st["currentTime"] == 300
        control.advance(15)
        raw.wait_for(lambda s: s.get("currentTime") == 400 and "breakStatus" not in s)
        wait_until(lambda: mc.status.current_time == 400, what="resumed at the seek target")
    finally:
        cast.disconnect(timeout=5)


def test_two_senders_see_each_other(receiver):
    a, raw_a, control = connect(receiver)
    b, raw_b, _ = connect(receiver)
    try:
        launch_and_load(a, raw_a)
        control.advance(10)  # past the pre-roll
        # b joins the running session and sees a's media.
        wait_until(lambda: b.status is not None and b.status.app_id == DMR, what="b sees the DMR")
        b.media_controller.update_status()
        wait_until(lambda: b.media_controller.status.title == "Sintel", what="b sees the media")

        a.media_controller.pause()
        wait_until(lambda: b.media_controller.status.player_state == "PAUSED", what="b sees a's pause")
        b.media_controller.play()
        wait_until(lambda: a.media_controller.status.player_state == "PLAYING", what="a sees b's play")
        b.media_controller.seek(42)
        wait_until(lambda: a.media_controller.status.current_time == 42, what="a sees b's seek")
        a.media_controller.set_playback_rate(2.0)
        wait_until(lambda: b.media_controller.status.playback_rate == 2.0, what="b sees a's rate")
        b.media_controller.enable_subtitle(1)
        wait_until(lambda: a.media_controller.status.current_subtitle_tracks == [1], what="a sees b's subtitle")
        a.set_volume(0.6)
        wait_until(lambda: abs(b.status.volume_level - 0.6) < 1e-9, what="b sees a's volume")
        raw_b.wait_for(lambda s: s.get("playbackRate") == 2.0)
    finally:
        a.disconnect(timeout=5)
        b.disconnect(timeout=5)
