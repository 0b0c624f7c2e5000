# SPDX-License-Identifier: GPL-3.0-or-later
"""CastDeck and pychromecast on the same receiver: what one changes, the other sees.
CastDeck's observers are read through `castctl watch --json`, which prints one event per
status-observer update ("media") and per metadata-observer update ("metadata")."""

import json
import subprocess
import threading
import time

from conftest import CASTCTL, castctl, wait_until

URL = "https://example.com/bunny.mp4"


class Watch:
    """Runs `castctl watch --json` and keeps every event it prints, in order."""

    def __init__(self, rcv):
        self.proc = subprocess.Popen([CASTCTL, "watch", "--json", "--device", rcv.device], stdout=subprocess.PIPE, text=True)
        self.events = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.cond:
                self.events.append(json.loads(line))
                self.cond.notify_all()

    def until(self, pred, start=0, timeout=15):
        """The index of the first event at or after `start` that matches (hang guard: timeout)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for i in range(start, len(self.events)):
                    if pred(self.events[i]):
                        return i
                left = deadline - time.monotonic()
                assert left > 0, f"no matching watch event; saw {[e['event'] for e in self.events[start:]]}"
                self.cond.wait(left)

    def close(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def style_of(ev):
    return ((ev.get("metadata") or {}).get("textTrackStyle") or {})


def test_pychromecast_changes_reach_castdeck_observers(receiver, pycast):
    cast, raw = pycast
    castctl(receiver, "cast", URL, "--subtitle", "https://example.com/en.vtt,en,English",
            "--subtitle", "https://example.com/fr.vtt,fr,French")
    mc = cast.media_controller
    wait_until(lambda: mc.status.media_session_id is not None, what="pychromecast sees the media")
    watch = Watch(receiver)
    try:
        i_meta = watch.until(lambda e: e["event"] == "metadata" and e["metadata"])
        i_media = watch.until(lambda e: e["event"] == "media" and e["media"])
        begin = max(i_meta, i_media) + 1

        # pychromecast turns subtitle 2 on: the status observer sees it, the metadata observer does not.
        mc.enable_subtitle(2)
        i_tracks = watch.until(lambda e: e["event"] == "media" and (e["media"] or {}).get("activeTrackIds") == [2], start=begin)

        # pychromecast changes the text style: both observers see it.
        new_style = {"foregroundColor": "#00FF00FF", "fontScale": 1.75, "edgeType": "DROP_SHADOW"}
        raw.send_message({"type": "EDIT_TRACKS_INFO", "mediaSessionId": mc.status.media_session_id, "textTrackStyle": new_style})
        i_style = watch.until(lambda e: e["event"] == "metadata" and style_of(e).get("foregroundColor") == "#00FF00FF", start=i_tracks)
        watch.until(lambda e: e["event"] == "media"
                    and ((e["media"] or {}).get("media") or {}).get("textTrackStyle", {}).get("fontScale") == 1.75, start=i_tracks)

        # The track change produced no metadata update: every metadata event after the
        # initial one, up to the style change, already carries the new style.
        later = [e for e in watch.events[begin:i_style + 1] if e["event"] == "metadata"]
        assert later and all(style_of(e).get("foregroundColor") == "#00FF00FF" for e in later), later
    finally:
        watch.close()


def test_castdeck_rate_is_seen_by_pychromecast(receiver, pycast):
    cast, raw = pycast
    castctl(receiver, "cast", URL)
    mc = cast.media_controller
    wait_until(lambda: mc.status.player_state == "PLAYING", what="pychromecast sees PLAYING")
    castctl(receiver, "rate", "2")
    wait_until(lambda: mc.status.playback_rate == 2, what="pychromecast sees playbackRate 2")
    assert raw.wait_for(lambda s: s.get("playbackRate") == 2)["playbackRate"] == 2
