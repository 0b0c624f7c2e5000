# SPDX-License-Identifier: GPL-3.0-or-later
"""`castctl move` between two `castctl receiver`s: pychromecast 14.0.10 casts the source (a
foreign app on the media namespace, not CastDeck), castctl moves it, and pychromecast on the
target checks what arrived as a second opinion."""
import pytest

from pcc_serial import serialize  # the socket is used from two threads
from conftest import castctl, castctl_json, connect_pychromecast, start_receiver, stop_receiver, wait_until

VTT = "https://example.com/sub-en.vtt"


def item(n):
    return {"media": {"contentId": f"https://example.com/{n}.mp3", "contentType": "audio/mpeg", "streamType": "BUFFERED",
                      "duration": 600, "metadata": {"metadataType": 3, "title": f"Song {n}"},
                      "tracks": [{"trackId": 1, "type": "TEXT", "subtype": "SUBTITLES", "trackContentId": VTT,
                                  "trackContentType": "text/vtt", "language": "en", "name": "English"}]},
            "autoplay": True}


@pytest.fixture
def target():
    rcv = start_receiver()
    try:
        yield rcv
    finally:
        stop_receiver(rcv)


def play_queue_of_three(cast, raw, rcv):
    """pychromecast starts the Default Media Receiver and loads three items, then the
    second plays with the subtitle on, a larger font and rate 2×."""
    serialize(cast)
    cast.media_controller.play_media("https://example.com/warmup.mp3", "audio/mpeg")
    wait_until(lambda: cast.media_controller.status.media_session_id is not None, what="pychromecast's first load")
    raw.send_message({"type": "QUEUE_LOAD", "items": [item(n) for n in (1, 2, 3)], "startIndex": 1, "repeatMode": "REPEAT_ALL"})
    raw.wait_for(lambda s: ((s.get("media") or {}).get("contentId") or "").endswith("/2.mp3"))
    castctl(rcv, "tracks", "--on", "1")
    castctl(rcv, "style", "--font-scale", "1.5")
    castctl(rcv, "rate", "2")
    return raw.wait_for(lambda s: s.get("playbackRate") == 2 and s.get("activeTrackIds") == [1])


def test_move_carries_the_queue_subtitle_style_and_rate(receiver, pycast, target):
    cast, raw = pycast
    before = play_queue_of_three(cast, raw, receiver)
    report = castctl_json(receiver, "move", "--to", target.device)
    assert report["items"] == 3 and report["currentPosition"] == 2 and report["title"] == "Song 2"
    assert report["targetState"] == "PLAYING" and report["playbackRate"] == 2 and report["activeTrackIds"] == [1]
    assert report["startedAt"] >= before["currentTime"]

    # The source's media session ended (its app stays, as after any STOP).
    raw.wait_for(lambda s: s.get("playerState") == "IDLE")
    # pychromecast on the target: the queue, its position, the subtitle, the style and the rate.
    tcast, traw = connect_pychromecast(target)
    serialize(tcast)
    try:
        traw.send_message({"type": "GET_STATUS"})
        st = traw.wait_for(lambda s: s.get("playerState") == "PLAYING")
        assert st["playbackRate"] == 2 and st["activeTrackIds"] == [1] and st.get("repeatMode") == "REPEAT_ALL"
        assert st["media"]["contentId"].endswith("/2.mp3")
        assert st["media"]["textTrackStyle"]["fontScale"] == 1.5
        assert st["currentTime"] >= before["currentTime"]
        traw.send_message({"type": "QUEUE_GET_ITEM_IDS"})
        ids = traw.wait_for_queue(lambda m: m.get("type") == "QUEUE_ITEM_IDS")["itemIds"]
        assert len(ids) == 3 and ids.index(st["currentItemId"]) == 1
    finally:
        tcast.disconnect(timeout=5)
    q = castctl_json(target, "queue")
    assert [i["title"] for i in q["items"]] == ["Song 1", "Song 2", "Song 3"] and q["currentPosition"] == 2
    assert castctl_json(receiver, "status")["media"]["playerState"] == "IDLE"


def test_a_target_that_cannot_be_reached_leaves_the_source_playing(receiver, pycast):
    cast, raw = pycast
    play_queue_of_three(cast, raw, receiver)
    p = castctl(receiver, "move", "--to", "127.0.0.1:1", "--timeout", "3", check=False)
    assert p.returncode == 1
    assert "keeps playing where it was" in p.stderr and "127.0.0.1:1" in p.stderr
    assert castctl_json(receiver, "status")["media"]["playerState"] == "PLAYING"


def test_a_target_that_cannot_load_leaves_the_source_playing(receiver, pycast):
    """A target that fetches what it loads, and media it cannot fetch: LOAD_FAILED there."""
    cast, raw = pycast
    serialize(cast)
    cast.media_controller.play_media("http://127.0.0.1:1/nowhere.mp3", "audio/mpeg", title="Nowhere")
    raw.wait_for(lambda s: s.get("playerState") == "PLAYING")
    fetching = start_receiver(("--fetch-media",))
    try:
        p = castctl(receiver, "move", "--to", fetching.device, check=False)
        assert p.returncode == 1, p.stdout
        assert "keeps playing where it was" in p.stderr and "could not load" in p.stderr, p.stderr
        assert castctl_json(receiver, "status")["media"]["playerState"] == "PLAYING"
        # Nothing was left half-started on the target.
        assert (castctl_json(fetching, "status").get("media") or {}).get("playerState") in (None, "IDLE")
    finally:
        stop_receiver(fetching)


def test_nothing_playing_and_the_same_device_are_refused(receiver, target):
    p = castctl(receiver, "move", "--to", target.device, check=False)
    assert p.returncode == 1 and "Nothing is playing" in p.stderr
    p = castctl(receiver, "move", "--to", receiver.device, check=False)
    assert p.returncode == 1 and "already the device that plays" in p.stderr
