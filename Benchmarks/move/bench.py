# SPDX-License-Identifier: GPL-3.0-or-later
"""The gap a move leaves, `castctl move` against the naive pychromecast transfer (naive_move.py).

Before each move the source plays a queue of three (the second item current) with an English
subtitle on and rate 2×, and the target plays nothing. An independent pychromecast listener is
connected to both devices for the whole run and timestamps every MEDIA_STATUS on arrival.

The gap of one move: from the last moment the source was heard PLAYING (its first status after
the move began that is not PLAYING: it was PLAYING until then) to the first PLAYING status on the
target. Negative means both played for that long (the target started before the source
stopped). Also: how long until the target played (the process started → its first PLAYING), and what
arrived on the target (queue length, subtitle, rate). The two peers alternate, MOVES each.
`bench.py CASTCTL SOURCE TARGET MOVES`."""
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid

import pychromecast

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "System"))
from pcc_serial import serialize  # noqa: E402  (the socket is used from two threads)
from raw_media import RawMediaHandler  # noqa: E402

castctl, source, target, moves = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
HERE = os.path.dirname(os.path.abspath(__file__))
VTT = "https://example.com/sub-en.vtt"


class Listener(RawMediaHandler):
    """Every MEDIA_STATUS with the moment it came."""

    def __init__(self):
        super().__init__()
        self.timed = []

    def receive_message(self, message, data):
        if data.get("type") == "MEDIA_STATUS":
            now = time.monotonic()
            with self.cond:
                for st in data.get("status") or []:
                    self.timed.append((now, st))
        return super().receive_message(message, data)

    def since(self, t0):
        with self.cond:
            return [(t, s) for t, s in self.timed if t >= t0]


def connect(device):
    host, port = device.rsplit(":", 1)
    cast = pychromecast.get_chromecast_from_host((host, int(port), uuid.uuid4(), "Chromecast", device), tries=3, timeout=10)
    listener = Listener()
    cast.register_handler(listener)
    cast.wait(timeout=15)
    serialize(cast)
    return cast, listener


def item(n):
    return {"media": {"contentId": f"https://example.com/{n}.mp3", "contentType": "audio/mpeg", "streamType": "BUFFERED",
                      "duration": 900, "metadata": {"metadataType": 3, "title": f"Song {n}"},
                      "tracks": [{"trackId": 1, "type": "TEXT", "subtype": "SUBTITLES", "trackContentId": VTT,
                                  "trackContentType": "text/vtt", "language": "en", "name": "English"}]}, "autoplay": True}


def run(*args):
    subprocess.run([castctl, *args], check=True, capture_output=True, timeout=60)


def wait(pred, what, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.02)
    raise SystemExit(f"timed out waiting for {what}")


src_cast, src = connect(source)
tgt_cast, tgt = connect(target)
started = threading.Event()
src_cast.media_controller.play_media("https://example.com/warmup.mp3", "audio/mpeg", callback_function=lambda ok, d: started.set())
started.wait(20)


def prepare():
    """The source plays the queue at item 2 with the subtitle at 2×; the target plays nothing."""
    status = json.loads(subprocess.run([castctl, "status", "--json", "--device", target], capture_output=True, text=True).stdout)
    if (status.get("media") or {}).get("playerState") not in (None, "IDLE"):
        run("stop", "--device", target)
    t0 = time.monotonic()
    src.send_message({"type": "QUEUE_LOAD", "items": [item(n) for n in (1, 2, 3)], "startIndex": 1, "repeatMode": "REPEAT_OFF"})
    wait(lambda: any(s.get("playerState") == "PLAYING" and ((s.get("media") or {}).get("contentId") or "").endswith("/2.mp3")
                     for _, s in src.since(t0)), "the source's queue")
    run("tracks", "--on", "1", "--device", source)
    run("rate", "2", "--device", source)
    time.sleep(0.3)  # the source plays on for a moment, as it would before someone moves it


def measure(command):
    prepare()
    t0 = time.monotonic()
    subprocess.run(command, check=True, capture_output=True, timeout=60)
    wait(lambda: any(s.get("playerState") != "PLAYING" for _, s in src.since(t0)), "the source to stop")
    wait(lambda: any(s.get("playerState") == "PLAYING" for _, s in tgt.since(t0)), "the target to play")
    stopped = next(t for t, s in src.since(t0) if s.get("playerState") != "PLAYING")
    playing_at, st = next((t, s) for t, s in tgt.since(t0) if s.get("playerState") == "PLAYING")
    time.sleep(0.3)  # what the move sets after the load (rate, tracks) arrives
    last = [s for _, s in tgt.since(t0) if s.get("playerState") == "PLAYING"][-1]
    carried = {"rate": last.get("playbackRate"), "subtitle": last.get("activeTrackIds") == [1]}
    return (playing_at - stopped) * 1000, (playing_at - t0) * 1000, carried


ours, peer = [], []
for i in range(moves):
    ours.append(measure([castctl, "move", "--device", source, "--to", target]))
    peer.append(measure([sys.executable, os.path.join(HERE, "naive_move.py"), source, target]))
    print(f"  move {i + 1} of {moves}: castctl gap {ours[-1][0]:7.1f} ms, naive gap {peer[-1][0]:7.1f} ms")


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


print(f"== move: the gap (source last PLAYING → target first PLAYING; negative: both played), {moves} moves each")
for name, runs in (("castctl move", ours), ("naive pychromecast", peer)):
    gaps, totals = [r[0] for r in runs], [r[1] for r in runs]
    rate = {r[2]["rate"] for r in runs}
    subtitle = all(r[2]["subtitle"] for r in runs)
    print(f"  {name:20s} gap median {statistics.median(gaps):7.1f} ms  p90 {pct(gaps, 90):7.1f} ms   "
          f"start → target PLAYING median {statistics.median(totals):7.1f} ms   target rate {sorted(rate)}, subtitle {'on' if subtitle else 'lost'}")


def result(name, a, b):
    print("bench-result: " + json.dumps({"area": "move", "name": name, "ours": a, "peer": b,
                                          "peer_name": "naive pychromecast transfer (play_media on the target, stop the source)",
                                          "unit": "ms", "better": "lower", "samples": f"{moves} moves each"}, ensure_ascii=False))


result("move: command started → target PLAYING, median", statistics.median(r[1] for r in ours), statistics.median(r[1] for r in peer))
# Silence is the positive part of the gap (an overlap is none): compared only when both fell silent.
ours_gap, peer_gap = statistics.median(r[0] for r in ours), statistics.median(r[0] for r in peer)
if ours_gap > 0 and peer_gap > 0:
    result("move: silence between source and target, median", ours_gap, peer_gap)
src_cast.disconnect(timeout=5)
tgt_cast.disconnect(timeout=5)
