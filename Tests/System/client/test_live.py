# SPDX-License-Identifier: GPL-3.0-or-later
"""Live streams through castctl against `castctl receiver --clock manual` (replay window
120 s, so positions are exact): `cast --live`, HLS links judged by their playlist, and what
`status` prints; pychromecast, a second sender, reads what the receiver was sent."""

import http.server
import threading

import pytest

from conftest import castctl, castctl_json

MANUAL = [("--clock", "manual")]


@pytest.fixture
def playlists(tmp_path):
    """An HTTP server with a live HLS playlist (no #EXT-X-ENDLIST) behind a master playlist, and a VOD one."""
    segments = "".join(f"#EXTINF:6.0,\nseg{i}.ts\n" for i in range(3))
    (tmp_path / "live.m3u8").write_text(f"#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:40\n{segments}")
    (tmp_path / "vod.m3u8").write_text(f"#EXTM3U\n#EXT-X-TARGETDURATION:6\n{segments}#EXT-X-ENDLIST\n")
    (tmp_path / "master.m3u8").write_text("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nlive.m3u8\n")

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(tmp_path), **kw)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@pytest.mark.parametrize("receiver", MANUAL, indirect=True)
def test_cast_live_status_and_seek_in_the_window(receiver, pycast):
    cast, raw = pycast
    report = castctl_json(receiver, "cast", "https://example.com/radio/stream.mp3", "--live", "--title", "Radio One")
    assert report["media"]["media"]["streamType"] == "LIVE"
    assert report["live"]["isLive"] is True and report["live"]["isMovingWindow"] is True
    st = raw.wait_for(lambda s: (s.get("media") or {}).get("streamType") == "LIVE")
    assert st["liveSeekableRange"]["end"] == 120 and st["currentTime"] == 120

    # At the live edge: LIVE and the window, no time behind; never `--:--`.
    out = castctl(receiver, "status").stdout
    assert "LIVE  (seekable 2:00)" in out and "--:--" not in out, out
    castctl(receiver, "seek", "40")
    raw.wait_for(lambda s: s.get("currentTime") == 40)
    out = castctl(receiver, "status").stdout
    assert "LIVE -1:20  (seekable 2:00)" in out, out
    live = castctl_json(receiver, "status")["live"]
    assert round(live["behindLive"]) == 80 and round(live["seekableStart"]) == 0
    # A seek before the window's start lands on the start.
    castctl(receiver, "seek", "-100")
    raw.wait_for(lambda s: s.get("currentTime") == 0)


def test_live_is_refused_for_files_and_queues(receiver, tmp_path):
    f = tmp_path / "a.mp4"
    f.write_bytes(b"\0" * 64)
    bad = castctl(receiver, "cast", str(f), "--live", check=False)
    assert bad.returncode == 2 and "--live" in bad.stderr
    bad = castctl(receiver, "cast", "https://example.com/a", "https://example.com/b", "--live", check=False)
    assert bad.returncode == 2


@pytest.mark.parametrize("receiver", MANUAL, indirect=True)
def test_hls_without_endlist_is_cast_live(receiver, pycast, playlists):
    cast, raw = pycast
    castctl(receiver, "cast", playlists + "/master.m3u8")
    st = raw.wait_for(lambda s: (s.get("media") or {}).get("contentId", "").endswith("master.m3u8"))
    assert st["media"]["streamType"] == "LIVE" and "liveSeekableRange" in st
    assert "LIVE" in castctl(receiver, "status").stdout
    castctl(receiver, "cast", playlists + "/vod.m3u8")
    st = raw.wait_for(lambda s: (s.get("media") or {}).get("contentId", "").endswith("vod.m3u8"))
    assert st["media"]["streamType"] == "BUFFERED" and "liveSeekableRange" not in st
