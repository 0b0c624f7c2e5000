# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Hostile metadata (issue 17): the simulator's SEND_MEDIA_STATUS test hook sends MEDIA_STATUS
messages no honest receiver would, to the real window (castdeck --device) under Xvfb, read
through AT-SPI. The window must stay alive and answer, show text as text (no markup), keep
numbers in range, give up on artwork that never comes or never ends, and its main loop must
not stall (CASTDECK_MAINLOOP_PROBE; the longest stall is printed as a figure)."""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from atspi_helpers import Cases, Failure, app_named, castctl, click, find, find_all, plain, states, wait_for  # noqa: E402
from castraw import RawSender  # noqa: E402

CASTCTL = os.environ["CASTCTL"]
DEVICE = os.environ["HOSTILE_DEVICE"]  # 127.0.0.1:PORT of the simulator (--clock manual)
IMAGES = os.environ["IMAGES_URL"]  # image_server.py
IMAGE_LOG = os.environ["IMAGE_LOG"]
PROBE = os.environ["PROBE_FILE"]
WORK = os.environ["WORK"]
APP_PID = int(os.environ["CASTDECK_PID"])
STALL_LIMIT_MS = float(os.environ.get("STALL_LIMIT_MS", "5000"))  # a frozen window, not a benchmark
SHOTS = os.environ.get("SHOTS_DIR")
host, port = DEVICE.rsplit(":", 1)
case = Cases()
app = app_named("castdeck")
FRAME_LIMIT = 65536


def alive():
    try:
        os.kill(APP_PID, 0)
    except ProcessLookupError:
        raise Failure("castdeck is gone")
    with open(f"/proc/{APP_PID}/stat") as f:
        if f.read().split(") ")[1].startswith("Z"):
            raise Failure("castdeck has exited")


def media_session():
    status = json.loads(castctl(CASTCTL, DEVICE, "status", "--json"))
    return status["media"]["mediaSessionId"]


SESSION = None
sent_count = 0


def send(status_entry, name):
    """Writes one MEDIA_STATUS to a file and has the simulator send it as it is."""
    global sent_count
    sent_count += 1
    text = json.dumps({"type": "MEDIA_STATUS", "requestId": 0, "status": [status_entry]}, ensure_ascii=False)
    data = text.encode()
    if len(data) > FRAME_LIMIT - 300:
        raise Failure(f"{name}: {len(data)} bytes do not fit a Cast frame")
    path = os.path.join(WORK, f"status-{sent_count}-{name}.json")
    with open(path, "wb") as f:
        f.write(data)
    s = RawSender(host, int(port))
    try:
        answer = s.send_media_status(path)
        if answer.get("type") != "CLOCK":
            raise Failure(f"the hook did not answer: {answer}")
    finally:
        s.close()


def entry(title, **extra):
    media = {"contentId": "http://127.0.0.1:9/hostile.mp4", "contentType": "video/mp4", "streamType": "BUFFERED",
             "duration": 600, "metadata": {"metadataType": 0, "title": title}}
    media.update(extra.pop("media", {}))
    e = {"mediaSessionId": SESSION, "playbackRate": 1, "playerState": "PLAYING", "currentTime": 10,
         "supportedMediaCommands": 274447, "volume": {"level": 1, "muted": False}, "media": media}
    e.update(extra)
    return e


def label_named(text, timeout=30):
    """A label whose accessible name is exactly `text` (no folding, no mark stripping)."""
    def look():
        for n in find_all(app, role="label"):
            if n.name == text:
                return n
        return None
    return wait_for(f"a label named {text[:60]!r}… ({len(text)} characters)", look, timeout=timeout)


def responsive():
    """The window answers AT-SPI and its main loop still runs (a fresh probe line)."""
    alive()
    before = probe_lines()[-1]["t"] if probe_lines() else 0
    wait_for("a new main-loop probe line", lambda: probe_lines() and probe_lines()[-1]["t"] > before, timeout=15)
    find(app, "Play", "push button", timeout=15) if find_all(app, "Play", "push button") else find(app, "Pause", "push button", timeout=15)


def probe_lines():
    try:
        with open(PROBE) as f:
            return [json.loads(line) for line in f if line.strip()]
    except (FileNotFoundError, json.JSONDecodeError):
        return []


def shot(name):
    if SHOTS:
        subprocess.run(["import", "-window", "root", os.path.join(SHOTS, f"hostile-{name}.png")], check=False)


# ---------------------------------------------------------------------------- the cases

def starts():
    global SESSION
    find(app, "Hostile Start", "label", timeout=60)
    SESSION = media_session()


def markup_is_text():
    send(entry("<b>x</b>"), "markup")
    label_named("<b>x</b>")
    send(entry("<span foreground='red' size='xx-large'>big</span> &amp; <i>"), "markup2")
    label_named("<span foreground='red' size='xx-large'>big</span> &amp; <i>")


def huge_title():
    # A Cast message is at most 64 KiB (the frame limit of Chromium and Open Screen), so the
    # largest title a receiver can send is a little under that: 60,000 characters here.
    words = "The quick brown fox jumps over the lazy dog; "
    title = ("Huge title " + words * 2000)[:60000]
    send(entry(title), "huge-title")
    # The window shows the first 500 characters (AppModel `shortened`); labels ellipsize the rest.
    label_named(title[:500] + "…")
    responsive()
    shot("huge-title")


def unicode_text():
    title = "\u202eRTL override عربی فارسی עברית 😀👨‍👩‍👧‍👦🏳️‍🌈 e\u0301\u0302\u0303\u0304 Z\u0351\u0352\u0353 zero\u200bwidth\u200c\u200d\ufeff\u2060end"
    subtitle = "\u2067isolate\u2069 \u200f\u200e" + "\u0300" * 200
    send(entry(title, media={"metadata": {"metadataType": 0, "title": title, "subtitle": subtitle}}), "unicode")
    label_named(title)
    responsive()


def control_characters():
    title = "Control \x07bell \x1b[31mred\x1b[0m \x08back \x7f del \u0085 nel \r\n line"
    send(entry(title), "control")
    label_named(title)
    # NUL cannot be in a C string: the window must not die on it either.
    send(entry("Before\u0000after"), "nul")
    wait_for("a title starting Before", lambda: [n for n in find_all(app, role="label") if (n.name or "").startswith("Before")])
    responsive()


def many_tracks():
    # As many tracks as fit in one message (10,000 cannot: the frame limit), half text, half audio.
    tracks, n = [], 0
    size = 0
    while True:
        kind = "TEXT" if n % 2 == 0 else "AUDIO"
        t = {"trackId": n + 1, "type": kind, "name": f"T{n}\u202e"} if n % 50 == 0 else {"trackId": n + 1, "type": kind}
        size += len(json.dumps(t)) + 2
        if size > 60000:
            break
        tracks.append(t)
        n += 1
    send(entry(f"Many tracks ({len(tracks)})", media={"tracks": tracks}, activeTrackIds=[1, 2]), "tracks")
    label_named(f"Many tracks ({len(tracks)})")
    responsive()
    button = find(app, "Subtitles and audio", timeout=10)
    t0 = time.monotonic()
    click(button)
    wait_for("the tracks popover", lambda: find_all(app, "Subtitles", "label"), timeout=30)
    # Each track is a choice row, a "radio button" to AT-SPI. The popover lists the first
    # tracks of each kind and says how many more there are, instead of 1,700 buttons.
    buttons = wait_for("the track buttons", lambda: [n for n in find_all(app, role="radio button")
                                                     if re.match(r"^(track \d+|t\d+)", plain(n.name))], timeout=30)
    # One chosen row per kind: the active text track (1) and audio track (2), checked.
    checked = sorted(plain(n.name) for n in buttons if "checked" in states(n))
    if checked != ["t0\u202e", "track 2"]:
        raise Failure(f"checked track rows: {checked}, not the active text and audio track")
    more = wait_for("a line counting the tracks not shown",
                    lambda: [n for n in find_all(app, role="label") if "more tracks not shown" in (n.name or "")], timeout=10)
    print(f"     tracks popover: {len(buttons)} track buttons for {len(tracks)} tracks, then "
          f"{' / '.join(n.name for n in more)} (opened in {time.monotonic() - t0:.1f}s)", flush=True)
    if len(buttons) > 40:
        raise Failure(f"{len(buttons)} track buttons: the popover is not paged")
    shot("tracks")
    responsive()
    # Show More adds the next subtitles (50), not all of them, and the audio tracks stay as they were.
    click(find(app, "Show More Subtitles", timeout=10))
    def track_buttons():
        return [n for n in find_all(app, role="radio button") if re.match(r"^(track \d+|t\d+)", plain(n.name))]
    # The accessibility tree may show the new buttons a few at a time: wait for all 50.
    grown = wait_for("50 more track buttons", lambda: (lambda b: b if len(b) >= len(buttons) + 50 else None)(track_buttons()),
                     timeout=30)
    time.sleep(0.5)
    grown = track_buttons()
    print(f"     Show More Subtitles: {len(grown)} track buttons", flush=True)
    if len(grown) != len(buttons) + 50:
        raise Failure(f"Show More made {len(grown) - len(buttons)} buttons, not 50")
    responsive()
    # Close it again (Escape on the popover).
    subprocess.run(["xdotool", "key", "Escape"], check=False)
    time.sleep(0.5)


def long_queue():
    # A real 1,000-item queue on the receiver (the window lists the receiver's items, which it
    # asks for by id), then a forged status listing 1,000 items of its own.
    lines = ["#EXTM3U"]
    for n in range(1, 1001):
        lines += [f"#EXTINF:180,Song {n} \u202e", f"http://127.0.0.1:9/music/{n}.mp3"]
    path = os.path.join(WORK, "long.m3u8")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    subprocess.run([CASTCTL, "cast", "--device", DEVICE, path, "--timeout", "20"], check=True, capture_output=True, timeout=60)
    responsive()
    # Open the queue: the rows are made a page at a time as the list is scrolled, not 1,000 at once.
    button = wait_for("the Queue button", lambda: [b for b in find_all(app, "Queue") if b.getRoleName() != "list"], timeout=30)[0]
    wait_for("the Queue button to be sensitive", lambda: "sensitive" in states(button), timeout=30)
    t0 = time.monotonic()
    click(button)
    wait_for("the heading to count 1,000 items", lambda: find_all(app, "Queue · 1000 items", "label"), timeout=30)
    lst = wait_for("the queue list", lambda: find_all(app, "Queue", "list"), timeout=30)[0]
    wait_for("its rows", lambda: lst.childCount > 1 and lst.getChildAtIndex(0).name, timeout=30)
    print(f"     queue popover: {lst.childCount} rows made for 1000 items (opened in {time.monotonic() - t0:.1f}s)", flush=True)
    if not 1 < lst.childCount < 1000:
        raise Failure(f"{lst.childCount} rows made for 1,000 items")
    shot("queue")
    responsive()
    subprocess.run(["xdotool", "key", "Escape"], check=False)
    time.sleep(0.5)
    items = [{"itemId": i + 1, "media": {"contentId": f"http://127.0.0.1:9/{i}.mp4", "metadata": {"title": f"Item {i} \u202e"}}}
             if i < 100 else {"itemId": i + 1} for i in range(1000)]
    send(entry("Long queue", currentItemId=1, loadingItemId=2, preloadedItemId=3, items=items,
               queueData={"repeatMode": "REPEAT_ALL"}), "queue")
    label_named("Long queue")
    responsive()


def many_breaks():
    # Kept short to fit one message: 500 of each is about 45 KB.
    breaks = [{"id": f"b{i}", "position": i * 2, "breakClipIds": [f"c{i}"]} for i in range(500)]
    clips = [{"id": f"c{i}", "duration": 5 + i % 30} for i in range(500)]
    send(entry("Many breaks", media={"breaks": breaks, "breakClips": clips},
               breakStatus={"breakId": "b3", "breakClipId": "c3", "currentBreakTime": 1, "currentBreakClipTime": 1}), "breaks")
    label_named("Many breaks")
    responsive()
    shot("breaks")
    send(entry("After breaks"), "after-breaks")
    label_named("After breaks")


def numbers_as_strings():
    # Not numbers at all: a parser may reject the message, but nothing may crash or freeze.
    send(entry("Strings for numbers", currentTime="NaN", playbackRate="Infinity",
               media={"duration": "-Infinity"}, volume={"level": "1e999", "muted": "false"}), "nan-strings")
    send(entry("Huge numbers", currentTime=1e308, playbackRate=1e308, media={"duration": 1.7976931348623157e308}), "huge-numbers")
    label_named("Huge numbers")
    responsive()
    send(entry("Next after numbers"), "after-numbers")
    label_named("Next after numbers")


def slider_in_range(what):
    sliders = find_all(app, role="slider")
    for s in sliders:
        v = s.queryValue()
        cur, lo, hi = v.currentValue, v.minimumValue, v.maximumValue
        if not (lo <= cur <= hi) or cur != cur or lo < 0:
            raise Failure(f"{what}: slider {s.name!r} at {cur} outside [{lo}, {hi}]")


def negative_and_past_end():
    send(entry("Negative durations", currentTime=-50, playbackRate=-2, media={"duration": -100}), "negative")
    label_named("Negative durations")
    responsive()
    slider_in_range("negative duration")
    send(entry("Past the end", currentTime=5000, media={"duration": 100}), "past-end")
    label_named("Past the end")
    responsive()
    slider_in_range("past the end")
    shot("past-end")


def image_log():
    try:
        with open(IMAGE_LOG) as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def artwork_that_never_comes():
    send(entry("Artwork never answers", media={"metadata": {"metadataType": 0, "title": "Artwork never answers",
                                                             "images": [{"url": f"{IMAGES}/never/1"}]}}), "never")
    label_named("Artwork never answers")
    wait_for("the window to ask for /never/1", lambda: [e for e in image_log() if e["path"] == "/never/1"], timeout=30)
    responsive()
    for path in ("/huge/2", "/declared/3"):
        title = f"Artwork of 5 GB at {path}"
        send(entry(title, media={"metadata": {"metadataType": 0, "title": title, "images": [{"url": f"{IMAGES}{path}"}]}}), "huge-art")
        label_named(title)
        responsive()
    # The image cache caps a download (20 MB) and hangs up: the server sees the connection end
    # long before 5 GB.
    done = wait_for("the 5 GB downloads to be cut off", lambda: [e for e in image_log() if e["path"] in ("/huge/2", "/declared/3") and "sent" in e]
                    if len([e for e in image_log() if e["path"] in ("/huge/2", "/declared/3") and "sent" in e]) >= 1 else None, timeout=90)
    for e in image_log():
        if e["path"] in ("/huge/2", "/declared/3") and "sent" in e:
            print(f"     {e['path']}: {e['sent'] / 1e6:.1f} MB sent before the client hung up", flush=True)
            if e["finished"] or e["sent"] > 64_000_000:
                raise Failure(f"{e['path']}: {e['sent']} bytes read: the cap did not stop the download")
    responsive()


def castctl_escapes():
    title = "Evil \u202eright-to-left\u202c \x1b[2J\x1b[31mclear and red\x07"
    subprocess.run([CASTCTL, "cast", "--device", DEVICE, "http://127.0.0.1:9/evil.mp4", "--title", title, "--timeout", "10"],
                   check=True, capture_output=True, timeout=30)
    plain = subprocess.run([CASTCTL, "status", "--device", DEVICE, "--timeout", "10"], check=True, capture_output=True, timeout=30).stdout
    text = plain.decode()
    for bad in ("\x1b", "\u202e", "\x07"):
        if bad in text:
            raise Failure(f"castctl status printed {bad!r} raw: {text!r}")
    if "Evil" not in text:
        raise Failure(f"castctl status does not show the title: {text!r}")
    js = json.loads(subprocess.run([CASTCTL, "status", "--json", "--device", DEVICE, "--timeout", "10"], check=True,
                                   capture_output=True, timeout=30).stdout)
    got = js["media"]["media"]["metadata"]["title"]
    if got != title:
        raise Failure(f"castctl status --json changed the title: {got!r}")
    label_named(title)


def stall_figure():
    lines = probe_lines()
    hostile = [l for l in lines if l["t"] >= T_START]
    if not hostile:
        raise Failure("the main-loop probe wrote nothing")
    worst = max(l["max_ms"] for l in hostile)
    worst_at = [l for l in hostile if l["max_ms"] == worst][0]["t"] - T_START
    print(f"     main loop: longest stall {worst:.1f} ms over {len(hostile)} s of hostile metadata "
          f"(at +{worst_at:.0f} s; goal ≤ 50 ms; whole run incl. start-up {lines[-1]['longest_ms']:.1f} ms)", flush=True)
    with open(os.path.join(WORK, "stall.txt"), "w") as f:
        f.write(f"{worst}\n")
    if worst > STALL_LIMIT_MS:
        raise Failure(f"the main loop stalled for {worst:.0f} ms (frozen window)")


def worst_stall(t0, t1):
    """The longest main-loop stall in the probe lines of [t0, t1] (one second later included:
    a line covers the second before its time)."""
    lines = probe_lines()
    inside = [l["max_ms"] for l in lines if t0 <= l["t"] <= t1 + 1.05]
    if not inside:  # a case shorter than a second: the line that covers it
        inside = [l["max_ms"] for l in lines if l["t"] > t1][:1]
    return max(inside) if inside else None


case("the window shows the media cast before", starts)
time.sleep(1.1)  # the probe line covering start-up is not part of the hostile figure
T_START = time.monotonic()
per_case = []
for name, fn in [
    ("a title of <b>x</b> is shown as those characters", markup_is_text),
    ("a 60,000-character title", huge_title),
    ("right-to-left, emoji, combining and zero-width text", unicode_text),
    ("control characters and NUL", control_characters),
    ("as many tracks as fit in a message", many_tracks),
    ("1,000 queue items", long_queue),
    ("500 breaks and 500 clips", many_breaks),
    ("numbers as strings and out of range", numbers_as_strings),
    ("negative durations, currentTime past the duration", negative_and_past_end),
    ("artwork that never answers or answers 5 GB", artwork_that_never_comes),
    ("castctl status escapes, --json is exact", castctl_escapes),
]:
    t0 = time.monotonic()
    case(name, fn)
    per_case.append((name, t0, time.monotonic()))
    # The probe writes a line a second: wait for the next so each case's figure is its own.
    time.sleep(1.1)
time.sleep(1.2)  # the probe's line for the last second
for name, t0, t1 in per_case:
    w = worst_stall(t0, t1)
    print(f"     stall {w if w is None else f'{w:6.1f} ms'}  {name}", flush=True)
case("castdeck is alive and its main loop never froze", lambda: (alive(), stall_figure()))
sys.exit(1 if case.failed else 0)
