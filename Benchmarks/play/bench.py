#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""From "cast this file" to its first frame decoded on the device, split into steps, against
gnomecast's way and catt in the same run (Benchmarks/play/run.sh makes the files and calls this).

The device is `castctl receiver --first-frame`: it fetches each LOAD's media as a Cast device
does (the file with Range, or the HLS master, playlists and first segment) and decodes the first
frame with ffmpeg before it answers the LOAD, then logs `fetch=… first-frame=… at=UNIX-TIME`.
Every sender is timed from its start to that `at`:

  castdeck   `castctl cast FILE` (a new process; the device found by address), with the
             probe cache empty (cold) and filled by an earlier cast of the file (warm);
             CASTDECK_TIMINGS=1 splits it: probe, plan, segments planned, first segment,
             connect and launch (beside the probe), LOAD, device fetch, first frame
  gnomecast  what gnomecast does once a file and a device are chosen (its connection is made
             before the clock starts): ffprobe, then ffmpeg converts the whole file to MP4
             (`-c:v h264|copy -c:a mp3|copy`, nothing for MP4/MP3 the device plays), a Range
             server, pychromecast's play_media. A 10-minute full conversion would take most of
             an hour here: it converts the first 60 s, and the rest is added in proportion
             (marked "extrapolated")
  catt       `catt -d 127.0.0.1 cast FILE` (a new process, pinned catt 0.13.3) for the files
             served as they are, against a second receiver on port 8009 (catt knows no other)

Seek to 80 %: with the cast running, the device's part is played here: for CastDeck's HLS,
the video and audio segments holding 80 % are fetched (made by a restarted converter) and the
first frame of the video one decoded; for a file served as it is (and gnomecast's complete
MP4), ffmpeg reads from 80 % with Range requests and decodes a frame. The receiver's first
frame is likewise decoded from the first segment of the first variant, as a player does
(ffmpeg given the master would read two segments of every rendition first). Medians of ROUNDS
rounds.

    bench.py CASTCTL SOURCES WORK ROUNDS PYCHROMECAST_PYTHON CATT_OR_EMPTY
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

castctl, sources, work, rounds, pcc_python, catt = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
cache = os.path.join(work, "cache")
env = dict(os.environ, XDG_CACHE_HOME=cache, CASTDECK_TIMINGS="1")

CASES = [
    # name, file, what gnomecast converts (None: casts it as it is)
    ("direct MP4", "direct.mp4", None),
    ("MP3 with cover", "music.mp3", None),
    ("remux (H.264/AAC MKV)", "remux.mkv", ["-c:v", "copy", "-c:a", "copy"]),
    ("audio conversion (H.264 + AC-3 MKV)", "audio.mkv", ["-c:v", "copy", "-c:a", "mp3", "-b:a", "256k"]),
    ("full conversion (HEVC 10-bit 1080p)", "full.mkv", ["-c:v", "h264", "-pix_fmt", "yuv420p", "-c:a", "mp3", "-b:a", "256k"]),
]


class Receiver:
    """A `castctl receiver --first-frame` whose log lines are read as they come."""

    def __init__(self, port, name):
        self.log = open(os.path.join(work, f"receiver-{name}.log"), "w+")
        out = os.path.join(work, f"receiver-{name}.out")
        # On 8009 the setup API answers on 8008 (catt asks it for the device's name).
        args = [castctl, "receiver", "--port", str(port), "--first-frame", "--name", name]
        self.process = subprocess.Popen(args, stdout=open(out, "w"), stderr=self.log)
        for _ in range(200):
            text = open(out).read()
            if "listening on " in text:
                self.device = "127.0.0.1:" + text.split("listening on ")[1].split()[0].rsplit(":", 1)[1]
                return
            if self.process.poll() is not None:
                raise SystemExit(f"the receiver on port {port} did not start: {open(self.log.name).read()[-400:]}")
            time.sleep(0.05)
        raise SystemExit("the receiver did not start")

    def mark(self):
        return os.path.getsize(self.log.name)

    def frame(self, after, timeout=900, sender=None):
        """The next `first frame decoded` line after byte `after`: its fields. `sender`: the
        process whose cast it is (its early end is a failure)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if sender is not None and sender.poll() is not None:
                raise SystemExit(f"the sender ended (exit {sender.returncode}) before the first frame")
            with open(self.log.name) as f:
                f.seek(after)
                for line in f:
                    if "first frame decoded" in line:
                        fields = dict(p.split("=", 1) for p in line.split() if p.count("=") == 1)
                        return {k: float(fields[k]) for k in ("fetch", "first-frame", "at")}
                    if "LOAD failed" in line:
                        raise SystemExit(f"the receiver failed the LOAD: {line.strip()}")
            time.sleep(0.005)
        raise SystemExit("no first frame within the time limit")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def stop_cast(device, process):
    subprocess.run([castctl, "stop", "--device", device], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def read_lines(stream, into):
    for line in stream:
        into.append(line)


def castdeck(receiver, path, cold):
    if cold:
        subprocess.run(["rm", "-rf", os.path.join(cache, "castdeck", "probe")])
    mark = receiver.mark()
    out, err = [], []
    t0 = time.time()
    p = subprocess.Popen([castctl, "cast", "--device", receiver.device, "--model", "Chromecast", path], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    threading.Thread(target=read_lines, args=(p.stdout, out), daemon=True).start()
    threading.Thread(target=read_lines, args=(p.stderr, err), daemon=True).start()
    try:
        frame = receiver.frame(mark, sender=p)
    except SystemExit as e:
        time.sleep(0.2)
        raise SystemExit(f"{e}: castctl cast {path}: {''.join(err)[-600:]}")
    while not any(l.startswith("Casting") for l in out) and p.poll() is None:
        time.sleep(0.005)
    line = next((l for l in out if l.startswith("Casting")), "")
    if not line:
        raise SystemExit(f"castctl cast failed: {''.join(err)}")
    url = line.split(" from ")[1].split()[0]
    steps = {l.split()[2]: float(l.split()[3]) for l in err if l.startswith("castctl: timing: ")}
    return frame["at"] - t0, frame, steps, url, p


def hls_segment(playlist, at):
    """The segment of a media playlist that holds second `at` (relative to the first)."""
    with urllib.request.urlopen(playlist) as r:
        lines = r.read().decode().split("\n")
    t = 0.0
    for i, line in enumerate(lines):
        if line.startswith("#EXTINF:"):
            t += float(line[8:].rstrip(","))
            if t > at:
                return lines[i + 1].strip()
    raise SystemExit(f"no segment holds {at} s in {playlist}")


def download(url, into):
    with urllib.request.urlopen(url, timeout=300) as r, open(into, "wb") as f:
        f.write(r.read())


def seek_frame(url, at, audio_only):
    """What a device does for a seek: for HLS, fetch the video and audio segments that hold
    `at` (made by a restarted converter) and decode the first frame of the video one; for a
    file, ffmpeg reads it from `at` with Range requests and decodes a frame."""
    what = ["-vn", "-frames:a", "1"] if audio_only else ["-an", "-frames:v", "1"]
    t0 = time.perf_counter()
    if url.endswith("master.m3u8"):
        base = url[: -len("master.m3u8")]
        video = hls_segment(base + "v.m3u8", at)
        got = [os.path.join(work, "seek-v.ts"), os.path.join(work, "seek-a.ts")]
        audio = threading.Thread(target=download, args=(base + video.replace("v_", "a0_"), got[1]))
        audio.start()
        download(base + video, got[0])
        audio.join()
        url = got[0]
        at = 0
    r = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-probesize", "500000", "-analyzeduration", "200000"]
                       + (["-ss", f"{at:.3f}"] if at else []) + ["-i", url] + what + ["-f", "null", "-"],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise SystemExit(f"ffmpeg could not seek in {url}: {r.stderr[-300:]}")
    return time.perf_counter() - t0


def duration(path):
    return float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", path],
                                capture_output=True, text=True, check=True).stdout)


def gnomecast(device, path, codecs, limit):
    """One round of the peer in a pychromecast process; returns its JSON."""
    args = [pcc_python, os.path.join(os.path.dirname(__file__), "gnomecast_like.py"), device, path, work, json.dumps(codecs), str(limit or 0)]
    r = subprocess.run(args, capture_output=True, text=True, timeout=3600)
    if r.returncode != 0:
        raise SystemExit(f"the gnomecast-like sender failed: {r.stderr[-600:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def catt_round(receiver, path):
    mark = receiver.mark()
    t0 = time.time()
    p = subprocess.Popen([catt, "-d", "127.0.0.1", "cast", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        frame = receiver.frame(mark, timeout=120, sender=p)
    except SystemExit as e:
        raise SystemExit(f"{e}: catt: {p.stderr.read().decode(errors='replace')[-400:]}")
    total = frame["at"] - t0
    os.killpg(p.pid, signal.SIGTERM)
    p.wait()
    subprocess.run([castctl, "stop", "--device", receiver.device], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
    return total


def med(values):
    return statistics.median(values) if values else float("nan")


def result(name, ours, peer, peer_name):
    print("bench-result: " + json.dumps({"area": "play", "name": name, "ours": ours, "peer": peer, "peer_name": peer_name,
                                         "unit": "s", "better": "lower"}, ensure_ascii=False), flush=True)


# PLAY_ONLY=full,remux: only the cases whose names contain one of these words.
only = [w for w in os.environ.get("PLAY_ONLY", "").split(",") if w]
if only:
    CASES = [c for c in CASES if any(w in c[0] for w in only)]

main = Receiver(0, "Bench TV")
second = None
if catt:
    try:
        second = Receiver(8009, "Bench catt")
    except SystemExit as e:
        print(f"(catt left out: port 8009 is not free here: {e})")
try:
    for name, file, codecs in CASES:
        path = os.path.join(sources, file)
        length = duration(path)
        audio_only = file.endswith(".mp3")
        cold, warm, seeks, splits = [], [], [], []
        for r in range(rounds):
            for is_cold in (True, False):
                total, frame, steps, url, p = castdeck(main, path, is_cold)
                (cold if is_cold else warm).append(total)
                if is_cold:
                    splits.append((steps, frame, total))
                else:
                    seeks.append(seek_frame(url, length * 0.8, audio_only))
                stop_cast(main.device, p)
        peer, peer_seek, peer_note = [], [], ""
        limit = 60 if "full" in name else 0
        for r in range(rounds if not limit else max(1, rounds // 2)):
            g = gnomecast(main.device, path, codecs, limit)
            total = g["total"]
            if limit and g["converted"] < length:
                # The rest of the whole-file conversion, in proportion to what was measured.
                total += g["convert"] * (length - g["converted"]) / g["converted"]
                peer_note = f" (extrapolated from {g['converted']:.0f} s converted)"
            peer.append(total)
            peer_seek.append(g["seek"])
        catts = []
        if second and codecs is None:
            for _ in range(rounds):
                try:
                    catts.append(catt_round(second, path))
                except SystemExit as e:
                    print(f"  (a catt round failed and is left out: {e})")

        # The steps of the cold casts, medians (seconds each, not since the start).
        def step(s, key, before):
            return s.get(key, s.get(before, 0)) - s.get(before, 0)
        probe = med([s.get("probe", 0) for s, _, _ in splits])
        plan = med([step(s, "plan", "probe") for s, _, _ in splits])
        serve = med([max(s.get("first-segment", 0), s.get("segments-planned", 0), s.get("plan", 0)) - s.get("plan", 0) for s, _, _ in splits])
        connect = med([s.get("connected", 0) for s, _, _ in splits])
        launched = med([s.get("app-launched", 0) for s, _, _ in splits])
        fetch = med([f["fetch"] for _, f, _ in splits])
        first = med([f["first-frame"] for _, f, _ in splits])
        load = med([t - f["fetch"] - f["first-frame"] - s.get("app-launched", 0) for s, f, t in splits])
        print(f"{name}, {length:.0f} s:")
        print(f"  CastDeck  cold {med(cold):6.3f} s  warm {med(warm):6.3f} s  seek to 80 % {med(seeks):6.3f} s")
        print(f"            probe {probe:.3f}  plan {plan:.3f}  serve/convert {serve:.3f}  (connect {connect:.3f} and launch, done at {launched:.3f},"
              f" beside them)  LOAD {load:.3f}  device fetch {fetch:.3f}  first frame {first:.3f}")
        print(f"  gnomecast {med(peer):6.3f} s{peer_note}  seek to 80 % {med(peer_seek):6.3f} s")
        if catts:
            print(f"  catt      {med(catts):6.3f} s (whole process)")
        result(f"{name} {length:.0f} s: cast → first frame", med(cold), med(peer), "gnomecast's way" + peer_note)
        result(f"{name}: seek to 80 % → frame", med(seeks), med(peer_seek), "gnomecast's way (whole file converted)")
        if catts:
            result(f"{name} {length:.0f} s: cast → first frame", med(cold), med(catts), "catt 0.13.3 (whole process)")
finally:
    main.stop()
    if second:
        second.stop()
