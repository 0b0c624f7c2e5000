# SPDX-License-Identifier: GPL-3.0-or-later
"""Queues end to end: castctl (CastDeck's sender) and pychromecast 14.0.10 (a foreign
sender) against `castctl receiver` over TLS on loopback. Real files made with ffmpeg,
served by castctl's media server."""
import importlib.util
import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("client_fixtures", Path(__file__).resolve().parent.parent / "client" / "conftest.py")
_c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_c)
castctl, castctl_json, wait_until, CASTCTL = _c.castctl, _c.castctl_json, _c.wait_until, _c.CASTCTL


def make_album(folder: Path):
    """Three tagged MP3s whose names sort differently as text and naturally."""
    assert shutil.which("ffmpeg"), "ffmpeg is needed (scripts/setup.sh installs it)"
    folder.mkdir()
    for n, title in ((1, "One"), (2, "Two"), (10, "Ten")):
        subprocess.run(
            ["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", f"sine=frequency={220 * n}:duration=30",
             "-metadata", f"title={title}", "-metadata", "artist=The Testers", "-c:a", "libmp3lame", "-q:a", "9",
             str(folder / f"{n} - {title.lower()}.mp3")], check=True)
    (folder / "notes.txt").write_text("not media")
    return folder


def queue(rcv):
    return castctl_json(rcv, "queue")


def titles(q):
    return [i["title"] for i in q["items"]]


@pytest.fixture
def serving_album(receiver, tmp_path):
    """`castctl cast DIR` in the background, serving the album until the queue ends."""
    album = make_album(tmp_path / "album")
    proc = subprocess.Popen([CASTCTL, "cast", str(album), "--device", receiver.device],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("Casting 3 items to "), f"unexpected: {line!r} {proc.stderr.read() if proc.poll() is not None else ''}"
    try:
        yield proc, line
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)


def test_a_folder_is_queued_in_natural_order_and_both_senders_move_it(receiver, pycast, serving_album):
    cast, raw = pycast
    proc, line = serving_album
    assert "“One”, “Two”, “Ten”" in line
    q = queue(receiver)
    assert titles(q) == ["One", "Two", "Ten"]
    assert [i["artist"] for i in q["items"]] == ["The Testers"] * 3
    assert q["currentPosition"] == 1 and q["items"][0]["current"]
    assert all(i["contentId"].startswith("http://127.0.0.1:") for i in q["items"])
    ids = [i["itemId"] for i in q["items"]]
    # pychromecast sees the first item playing, with its title from the tags.
    wait_until(lambda: cast.media_controller.status.title == "One", what="pychromecast to see One")

    castctl(receiver, "next")
    raw.wait_for(lambda s: s.get("currentItemId") == ids[1])
    wait_until(lambda: cast.media_controller.status.title == "Two", what="pychromecast to see Two")
    assert queue(receiver)["currentPosition"] == 2

    cast.media_controller.queue_next()  # QUEUE_UPDATE jump 1
    wait_until(lambda: queue(receiver)["currentPosition"] == 3, what="castctl to see pychromecast's next")
    text = castctl(receiver, "queue").stdout.splitlines()
    assert text[2].startswith("* 3  Ten — The Testers"), text
    assert proc.poll() is None, "castctl stopped serving while the queue plays"


def test_edits_from_either_sender_show_up_in_the_other(receiver, pycast):
    cast, raw = pycast
    urls = [f"https://example.com/{n}.mp3" for n in ("a", "b", "c")]
    out = castctl(receiver, "cast", *urls).stdout
    assert out.startswith("Casting 3 items")
    ids = [i["itemId"] for i in queue(receiver)["items"]]

    # castctl: play next → pychromecast receives the QUEUE_CHANGE naming where it went.
    castctl(receiver, "queue", "add", "https://example.com/next.mp3", "--next")
    change = raw.wait_for_queue(lambda m: m["type"] == "QUEUE_CHANGE" and m.get("changeType") == "INSERT")
    assert change["insertBefore"] == ids[1] and len(change["itemIds"]) == 1
    new_id = change["itemIds"][0]
    assert titles(queue(receiver)) == ["a.mp3", "next.mp3", "b.mp3", "c.mp3"]

    # castctl: move and remove → REMOVE / UPDATE changes with growing sequence numbers.
    castctl(receiver, "queue", "move", "4", "1")
    moved = raw.wait_for_queue(lambda m: m["type"] == "QUEUE_CHANGE" and m.get("changeType") == "UPDATE")
    assert moved["itemIds"] == [ids[2], ids[0], new_id, ids[1]]
    castctl(receiver, "queue", "remove", "2")
    removed = raw.wait_for_queue(lambda m: m["type"] == "QUEUE_CHANGE" and m.get("changeType") == "REMOVE")
    assert removed["itemIds"] == [ids[0]] and removed["sequenceNumber"] == moved["sequenceNumber"] + 1

    # pychromecast: insert, reorder, remove with raw messages → castctl lists the result.
    session = raw.last["mediaSessionId"]
    raw.send_message({"type": "QUEUE_INSERT", "mediaSessionId": session,
                      "items": [{"media": {"contentId": "https://example.com/py.mp3", "contentType": "audio/mpeg",
                                           "streamType": "BUFFERED", "metadata": {"metadataType": 0, "title": "From Python"}}}]})
    wait_until(lambda: "From Python" in titles(queue(receiver)), what="castctl to see pychromecast's insert")
    raw.send_message({"type": "QUEUE_REORDER", "mediaSessionId": session, "itemIds": [ids[1]], "insertBefore": ids[2]})
    wait_until(lambda: titles(queue(receiver))[0] == "b.mp3", what="castctl to see pychromecast's reorder")
    raw.send_message({"type": "QUEUE_REMOVE", "mediaSessionId": session, "itemIds": [new_id]})
    wait_until(lambda: titles(queue(receiver)) == ["b.mp3", "c.mp3", "From Python"], what="castctl to see the removal")

    # Bad positions: one line, exit 1, nothing changed.
    bad = castctl(receiver, "queue", "remove", "9", check=False)
    assert bad.returncode == 1 and "There is no item 9: the queue has 3 items." in bad.stderr
    assert titles(queue(receiver)) == ["b.mp3", "c.mp3", "From Python"]
    jump = castctl(receiver, "queue", "jump", "3")
    assert "* 3  From Python" in jump.stdout
    raw.wait_for(lambda s: (s.get("media") or {}).get("metadata", {}).get("title") == "From Python")


def test_repeat_modes_reach_the_receiver(receiver, pycast):
    cast, raw = pycast
    castctl(receiver, "cast", "https://example.com/1.mp3", "https://example.com/2.mp3", "--repeat", "all")
    raw.wait_for(lambda s: s.get("repeatMode") == "REPEAT_ALL")
    for word, wire in (("one", "REPEAT_SINGLE"), ("shuffle", "REPEAT_ALL_AND_SHUFFLE"), ("off", "REPEAT_OFF"), ("all", "REPEAT_ALL")):
        q = castctl_json(receiver, "queue", "repeat", word)
        assert q["repeatMode"] == word
        raw.wait_for(lambda s, wire=wire: s.get("repeatMode") == wire)


def test_a_playlist_of_a_thousand_items_stays_responsive(receiver, pycast, tmp_path):
    cast, raw = pycast
    lines = ["#EXTM3U"]
    for n in range(1, 1001):
        lines += [f"#EXTINF:180,Song {n}", f"https://example.com/music/{n}.mp3"]
    (tmp_path / "big.m3u8").write_text("\n".join(lines) + "\n")
    t0 = time.monotonic()
    castctl(receiver, "cast", str(tmp_path / "big.m3u8"))
    loaded = time.monotonic() - t0
    # pychromecast asks for the ids: all 1,000, while each status carries at most two items.
    session = raw.last["mediaSessionId"]
    raw.send_message({"type": "QUEUE_GET_ITEM_IDS", "mediaSessionId": session})
    ids_msg = raw.wait_for_queue(lambda m: m["type"] == "QUEUE_ITEM_IDS")
    assert len(ids_msg["itemIds"]) == 1000
    assert all(len(d["status"][0].get("items") or []) <= 2 for d in raw.statuses if d.get("status"))
    t1 = time.monotonic()
    jumped = castctl(receiver, "queue", "jump", "1000")
    assert "* 1000  Song 1000" in jumped.stdout.splitlines()[-2]
    listed = time.monotonic() - t1
    raw.wait_for(lambda s: s.get("currentItemId") == ids_msg["itemIds"][-1])
    print(f"\n1,000-item playlist: cast {loaded:.2f} s, jump + full listing {listed:.2f} s")


def test_move_refuses_files_another_castctl_serves(receiver, serving_album):
    """The files are served by the castctl that cast them, to this receiver only: `castctl move`
    says to cast them to the other device, and the queue plays on here."""
    other = _c.start_receiver()
    try:
        p = castctl(receiver, "move", "--to", other.device, check=False)
        assert p.returncode == 1
        assert "is served from this computer" in p.stderr and f"--device {other.device}" in p.stderr, p.stderr
        assert castctl_json(receiver, "status")["media"]["playerState"] == "PLAYING"
        assert (castctl_json(other, "status").get("media") or {}).get("playerState") in (None, "IDLE")
    finally:
        _c.stop_receiver(other)
