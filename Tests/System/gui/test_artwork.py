# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Artwork per place at the screen's scale factor (issue 31, item 6), in the real window:
castdeck runs with GDK_SCALE=2 and joins a session where another sender (a bare Cast sender,
castraw.py) loads media whose metadata lists five sizes of one picture. Each place asks the
image cache for its own size times 2, and the HTTP server's log says which sizes were fetched:
128 px (the mini controller's 48 × 2, the mini player's 64 × 2, a row's 40 × 2), 512 (the
desktop's media controls, 256 × 2) and 1280 (the expanded controller, 640 × 2), never 64 or 256.
Then the cache's disk bound follows the GSettings key image-cache-size-mb while the app runs:
three more items with large noise images fill the cache past 8 MB, `gsettings set` lowers the
bound to 8, and the cache shrinks under it."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from atspi_helpers import Cases, Failure, app_named, find, wait_for  # noqa: E402
from castraw import CONNECTION_NS, RawSender  # noqa: E402

RECEIVER_NS = "urn:x-cast:com.google.cast.receiver"
MEDIA_NS = "urn:x-cast:com.google.cast.media"
HOST, PORT = os.environ["ART_DEVICE"].rsplit(":", 1)
BASE = os.environ["ART_URL"]
HTTP_LOG = os.environ["HTTP_LOG"]
CACHE = os.environ["ART_CACHE"]
CASTDECK = os.environ["CASTDECK"]
case = Cases()


def load(title, images):
    """LOAD from a sender of its own (a new connection each time: it answers no heartbeat)."""
    sender = RawSender(HOST, int(PORT), source="sender-artwork")
    try:
        status = sender.request(RECEIVER_NS, "receiver-0", {"type": "GET_STATUS"})
        apps = status.get("status", {}).get("applications") or []
        if not apps:
            status = sender.request(RECEIVER_NS, "receiver-0", {"type": "LAUNCH", "appId": "CC1AD845"})
            apps = status.get("status", {}).get("applications") or []
        if not apps:
            raise Failure(f"LAUNCH answered without an app: {status}")
        transport = apps[0]["transportId"]
        sender.send(CONNECTION_NS, transport, {"type": "CONNECT"})
        media = {"contentId": "http://127.0.0.1:9/film.mp4", "contentType": "video/mp4", "streamType": "BUFFERED",
                 "duration": 600, "metadata": {"metadataType": 1, "title": title, "images": images}}
        answer = sender.request(MEDIA_NS, transport, {"type": "LOAD", "media": media, "autoplay": True})
        if answer.get("type") != "MEDIA_STATUS":
            raise Failure(f"LOAD of {title} was answered with {answer}")
    finally:
        sender.close()


def fetched():
    """The image files the HTTP server was asked for, in order."""
    try:
        with open(HTTP_LOG) as f:
            return re.findall(r'"GET /([\w.-]+\.png) HTTP', f.read())
    except FileNotFoundError:
        return []


def cache_bytes():
    total = 0
    for sub in ("originals", "variants"):
        folder = os.path.join(CACHE, sub)
        for name in os.listdir(folder) if os.path.isdir(folder) else []:
            total += os.path.getsize(os.path.join(folder, name))
    return total


def each_place_fetches_its_own_size():
    sizes = [64, 128, 256, 512, 1280]
    load("Art A", [{"url": f"{BASE}/a-{s}.png", "width": s, "height": s} for s in sizes])
    # The window joins the session running there (castdeck --device).
    subprocess.Popen([CASTDECK, "--device", os.environ["ART_DEVICE"]], stdout=open(os.environ["APP_LOG"], "a"),
                     stderr=subprocess.STDOUT, env=dict(os.environ, GDK_SCALE="2"))
    global app
    app = app_named("castdeck")
    find(app, "Art A", "label", timeout=60)
    want = {"a-128.png", "a-512.png", "a-1280.png"}
    wait_for(f"the window to fetch {sorted(want)}", lambda: want <= set(fetched()), timeout=60)
    wrong = {"a-64.png", "a-256.png"} & set(fetched())
    if wrong:
        raise Failure(f"at scale 2 no place draws that small, yet {sorted(wrong)} was fetched: {fetched()}")


def the_cache_bound_follows_the_setting():
    for name in ("d", "e", "f"):
        load(f"Noise {name.upper()}", [{"url": f"{BASE}/{name}-noise.png"}])
        find(app, f"Noise {name.upper()}", "label", timeout=60)
        wait_for(f"{name}-noise.png to be fetched", lambda: f"{name}-noise.png" in fetched(), timeout=60)
    # Every place's variant of the last item written (the size stops growing).
    last = [-1]

    def settled():
        now = cache_bytes()
        done = now == last[0]
        last[0] = now
        return done
    wait_for("the cache to settle", settled, timeout=60, interval=1)
    before = cache_bytes()
    if before <= 8_000_000:
        raise Failure(f"the fixture should fill more than 8 MB at the default bound, but the cache holds {before} bytes")
    subprocess.run(["gsettings", "set", "io.github.castdeck.CastDeck", "image-cache-size-mb", "8"], check=True, timeout=30)
    wait_for("the cache to shrink under 8 MB", lambda: cache_bytes() <= 8_000_000, timeout=60, interval=0.5)
    print(f"     cache {before} bytes at 100 MB, {cache_bytes()} after the bound became 8 MB")


case("each place fetches the image of its own size at scale 2", each_place_fetches_its_own_size)
if case.failed == 0:
    case("the artwork cache's disk bound follows image-cache-size-mb while the app runs", the_cache_bound_follows_the_setting)
sys.exit(1 if case.failed else 0)
