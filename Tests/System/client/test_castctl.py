# SPDX-License-Identifier: GPL-3.0-or-later
"""Every castctl subcommand against `castctl receiver`, each result read back through
pychromecast (a foreign sender on the same receiver) or the raw MEDIA_STATUS JSON."""

import json
import subprocess
import time

import pytest

from conftest import CASTCTL, CUSTOM_APP, HELLO_NS, castctl, castctl_json, wait_until

URL = "https://example.com/bunny.mp4"
SUBS = ["--subtitle", "https://example.com/en.vtt,en,English", "--subtitle", "https://example.com/fr.vtt,fr"]


def mc_status(cast):
    return cast.media_controller.status


def test_status_on_an_idle_device(receiver):
    out = castctl(receiver, "status").stdout
    assert "Device:" in out and "App:" in out
    report = castctl_json(receiver, "status")
    assert report["device"] == receiver.device
    assert report["receiver"]["volume"]["level"] == 1
    assert report.get("media") is None


def test_cast_with_every_option(receiver, pycast, tmp_path):
    cast, raw = pycast
    breaks = {
        "breaks": [{"id": "mid", "position": 300, "breakClipIds": ["c1"], "duration": 10, "isWatched": False}],
        "breakClips": [{"id": "c1", "title": "Ad", "contentId": "https://example.com/ad.mp4", "contentType": "video/mp4",
                        "duration": 10, "whenSkippable": 5}],
    }
    ads = tmp_path / "ads.json"
    ads.write_text(json.dumps(breaks))
    report = castctl_json(receiver, "cast", URL, "--title", "Bunny", *SUBS, "--poster", "https://example.com/p.jpg",
                          "--content-type", "video/webm", "--ad-breaks", str(ads), "--start", "30", "--rate", "1.5")
    assert report["media"]["playbackRate"] == 1.5
    st = raw.wait_for(lambda s: (s.get("media") or {}).get("contentId") == URL)
    media = st["media"]
    assert media["metadata"]["title"] == "Bunny"
    assert media["metadata"]["images"][0]["url"] == "https://example.com/p.jpg"
    assert media["contentType"] == "video/webm"
    assert [(t["trackId"], t["language"], t["name"]) for t in media["tracks"]] == [(1, "en", "English"), (2, "fr", "fr")]
    assert media["breaks"][0]["id"] == "mid" and media["breakClips"][0]["whenSkippable"] == 5
    wait_until(lambda: mc_status(cast).playback_rate == 1.5, what="rate 1.5 in pychromecast")
    assert mc_status(cast).current_time >= 30


def test_play_pause_seek_rate_stop(receiver, pycast):
    cast, raw = pycast
    castctl(receiver, "cast", URL, "--title", "Bunny")
    wait_until(lambda: mc_status(cast).player_state == "PLAYING", what="PLAYING")
    castctl(receiver, "pause")
    wait_until(lambda: mc_status(cast).player_state == "PAUSED", what="PAUSED")
    castctl(receiver, "seek", "100")
    wait_until(lambda: abs(mc_status(cast).current_time - 100) < 0.5, what="position 100")
    castctl(receiver, "seek", "+10")
    wait_until(lambda: abs(mc_status(cast).current_time - 110) < 0.5, what="position 110")
    castctl(receiver, "seek", "-5")
    wait_until(lambda: abs(mc_status(cast).current_time - 105) < 0.5, what="position 105")
    castctl(receiver, "seek", "1:00")
    wait_until(lambda: abs(mc_status(cast).current_time - 60) < 0.5, what="position 60")
    assert mc_status(cast).player_state == "PAUSED"
    castctl(receiver, "play")
    wait_until(lambda: mc_status(cast).player_state == "PLAYING", what="PLAYING again")
    castctl(receiver, "rate", "2")
    wait_until(lambda: mc_status(cast).playback_rate == 2, what="rate 2")
    castctl(receiver, "stop")
    wait_until(lambda: mc_status(cast).player_state == "IDLE", what="IDLE")


def test_device_and_stream_volume(receiver, pycast):
    cast, raw = pycast
    castctl(receiver, "volume", "0.3")
    wait_until(lambda: abs(cast.status.volume_level - 0.3) < 1e-6, what="device volume 0.3")
    castctl(receiver, "mute")
    wait_until(lambda: cast.status.volume_muted is True, what="muted")
    castctl(receiver, "unmute")
    wait_until(lambda: cast.status.volume_muted is False, what="unmuted")
    castctl(receiver, "cast", URL)
    castctl(receiver, "volume", "0.5", "--stream")
    raw.wait_for(lambda s: (s.get("volume") or {}).get("level") == 0.5)
    castctl(receiver, "mute", "--stream")
    raw.wait_for(lambda s: (s.get("volume") or {}).get("muted") is True)
    castctl(receiver, "unmute", "--stream")
    raw.wait_for(lambda s: (s.get("volume") or {}).get("muted") is False)


def test_tracks_and_style(receiver, pycast):
    cast, raw = pycast
    castctl(receiver, "cast", URL, *SUBS)
    rows = castctl_json(receiver, "tracks")
    assert [r["trackId"] for r in rows] == [1, 2] and not any(r["active"] for r in rows)
    castctl(receiver, "tracks", "--on", "2")
    wait_until(lambda: mc_status(cast).current_subtitle_tracks == [2], what="track 2 on")
    assert [r["trackId"] for r in castctl_json(receiver, "tracks") if r["active"]] == [2]
    castctl(receiver, "tracks", "--on", "1", "2")
    raw.wait_for(lambda s: s.get("activeTrackIds") == [1, 2])
    castctl(receiver, "tracks", "--off")
    raw.wait_for(lambda s: s.get("activeTrackIds") == [])
    bad = castctl(receiver, "tracks", "--on", "7", check=False)
    assert bad.returncode == 1 and "no track 7" in bad.stderr

    castctl(receiver, "style", "--foreground", "#FFFF00FF", "--background", "#00000080", "--edge-type", "outline",
            "--edge-color", "#FF0000FF", "--font-scale", "1.5", "--font-family", "Cantarell",
            "--font-generic-family", "serif", "--font-style", "bold-italic", "--window-type", "rounded-corners",
            "--window-color", "#11223344", "--window-radius", "8")
    st = raw.wait_for(lambda s: ((s.get("media") or {}).get("textTrackStyle") or {}).get("fontScale") == 1.5)
    style = st["media"]["textTrackStyle"]
    assert style["foregroundColor"] == "#FFFF00FF" and style["backgroundColor"] == "#00000080"
    assert style["edgeType"] == "OUTLINE" and style["edgeColor"] == "#FF0000FF"
    assert style["fontFamily"] == "Cantarell" and style["fontGenericFamily"] == "SERIF"
    assert style["fontStyle"] == "BOLD_ITALIC" and style["windowType"] == "ROUNDED_CORNERS"
    assert style["windowColor"] == "#11223344" and style["windowRoundedCornerRadius"] == 8
    # A later change keeps the other properties.
    castctl(receiver, "style", "--font-scale", "2")
    st = raw.wait_for(lambda s: ((s.get("media") or {}).get("textTrackStyle") or {}).get("fontScale") == 2)
    assert st["media"]["textTrackStyle"]["foregroundColor"] == "#FFFF00FF"


def test_skip_ad(receiver, pycast, tmp_path):
    cast, raw = pycast
    ads = tmp_path / "ads.json"
    ads.write_text(json.dumps({
        "breaks": [{"id": "pre", "position": 0, "breakClipIds": ["c1"], "duration": 30}],
        "breakClips": [{"id": "c1", "duration": 30, "whenSkippable": 0, "contentId": "https://example.com/ad.mp4"}],
    }))
    castctl(receiver, "cast", URL, "--ad-breaks", str(ads))
    raw.wait_for(lambda s: (s.get("breakStatus") or {}).get("breakClipId") == "c1")
    castctl(receiver, "skip-ad")
    raw.wait_for(lambda s: "breakStatus" not in s and s.get("playerState") == "PLAYING")


def test_next_and_prev(receiver, pycast):
    cast, raw = pycast
    castctl(receiver, "cast", URL)
    wait_until(lambda: mc_status(cast).media_session_id is not None, what="media session")
    items = [{"media": {"contentId": f"https://example.com/{n}.mp3", "contentType": "audio/mpeg", "streamType": "BUFFERED",
                        "duration": 100}, "autoplay": True} for n in (1, 2, 3)]
    raw.send_message({"type": "QUEUE_LOAD", "items": items, "startIndex": 0, "repeatMode": "REPEAT_OFF"})
    # The status carries only the current item (as a Web Receiver's does): ask castctl for the ids.
    raw.wait_for(lambda s: ((s.get("media") or {}).get("contentId") or "").endswith("/1.mp3"))
    ids = [i["itemId"] for i in castctl_json(receiver, "queue")["items"]]
    assert len(ids) == 3
    raw.wait_for(lambda s: s.get("currentItemId") == ids[0])
    castctl(receiver, "next")
    raw.wait_for(lambda s: s.get("currentItemId") == ids[1])
    castctl(receiver, "prev")
    raw.wait_for(lambda s: s.get("currentItemId") == ids[0] and s.get("items") is not None or s.get("currentItemId") == ids[0])


def test_send_on_a_custom_namespace(receiver):
    p = castctl(receiver, "send", "--namespace", HELLO_NS, "--app", CUSTOM_APP, '{"hello":"cast"}')
    assert p.stdout.strip() == '{"hello":"cast"}'
    report = castctl_json(receiver, "send", "--namespace", HELLO_NS, "again")
    assert report == {"namespace": HELLO_NS, "message": "again"}
    bad = castctl(receiver, "send", "--namespace", "urn:x-cast:com.example.unlisted", "x", check=False)
    assert bad.returncode == 1 and "does not list" in bad.stderr


def test_watch_prints_changes_until_interrupted(receiver, pycast):
    cast, raw = pycast
    castctl(receiver, "cast", URL, "--title", "Bunny")
    proc = subprocess.Popen([CASTCTL, "watch", "--json", "--device", receiver.device], stdout=subprocess.PIPE, text=True)
    try:
        seen = []
        def read_until(pred):
            while True:
                line = proc.stdout.readline()
                assert line, "watch ended early"
                ev = json.loads(line)
                seen.append(ev)
                if pred(ev):
                    return ev
        read_until(lambda e: e["event"] == "media" and e["media"] and e["media"]["playerState"] == "PLAYING")
        cast.media_controller.pause()
        read_until(lambda e: e["event"] == "media" and e["media"] and e["media"]["playerState"] == "PAUSED")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_watch_ends_quietly_when_its_reader_goes(receiver):
    # `castctl watch | head -1`: once the reader has gone, the next write fails with EPIPE
    # (SwiftNIO ignores SIGPIPE). castctl must end as SIGPIPE would end a tool: status 141,
    # no crash report.
    castctl(receiver, "cast", URL, "--title", "Bunny")
    proc = subprocess.Popen([CASTCTL, "watch", "--device", receiver.device], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline(), "watch printed nothing"
    proc.stdout.close()
    castctl(receiver, "pause")  # another event, so watch writes again
    castctl(receiver, "play")
    assert proc.wait(timeout=20) == 141
    stderr = proc.stderr.read()
    assert "Fatal error" not in stderr and stderr == "", stderr


def test_exit_codes(receiver):
    bad_usage = castctl(receiver, "volume", "5", check=False)
    assert bad_usage.returncode == 2
    no_media = castctl(receiver, "pause", check=False)
    assert no_media.returncode == 1
    assert len(no_media.stderr.strip().splitlines()) == 1 and "castctl cast" in no_media.stderr
    refused = subprocess.run([CASTCTL, "status", "--device", "127.0.0.1:1", "--timeout", "3"], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 1 and "Could not connect" in refused.stderr
    missing = subprocess.run([CASTCTL, "play"], capture_output=True, text=True, timeout=30, env={"PATH": "/usr/bin"})
    assert missing.returncode == 2
