#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System tests of casting files from this computer (issue 12), with real foreign clients:
# curl and Python's http.client against the media server (Range, HEAD, OPTIONS, 416,
# keep-alive, concurrent readers, traversal, 403 from a second loopback address),
# headless chromium as the receiver stand-in (a page from another origin with
# <video crossorigin> + <track>, cues counted), and `castctl cast FILE` end to end against
# `castctl receiver --fetch-media`. Test media is made here by ffmpeg; nothing is committed.
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in ffmpeg ffprobe curl chromium; do command -v $tool >/dev/null || ./scripts/setup.sh; done
if [[ -z ${CASTCTL:-} ]]; then
  swift build --product castctl >/dev/null
  CASTCTL="$(swift build --show-bin-path)/castctl"
fi
here=Tests/System/localmedia
work=$(mktemp -d)
# Where playback stopped is this run's own (castctl goes on where a cast of a file stopped).
export XDG_STATE_HOME="$work/state"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; for f in "$work"/*.err "$work/receiver.log"; do [[ -s $f ]] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }; done; exit 1; }
wait_for() {  # wait_for FILE PATTERN SECONDS
  for _ in $(seq $(($3 * 10))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

# --- test media (small, made here)
ff() { ffmpeg -v error -nostdin -y "$@"; }
ff -f lavfi -i testsrc=size=320x240:rate=10:duration=60 -f lavfi -i sine=frequency=440:duration=60 \
  -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -b:a 48k -shortest -movflags +faststart \
  -metadata title="Test Film" "$work/film.mp4"
ff -f lavfi -i testsrc=size=160x120:rate=10:duration=2 -f lavfi -i sine=duration=2 -c:v libx264 -preset ultrafast \
  -pix_fmt yuv420p -c:a aac -shortest "$work/short.mp4"
printf 'not media at all\n' >"$work/notes.mkv"
ff -f lavfi -i color=c=red:size=64x64 -frames:v 1 "$work/cover.jpg"
# English subtitles in Windows-1252 with CRLF; French forced ones as ASS.
printf '1\r\n00:00:01,000 --> 00:00:30,000\r\nD\xe9j\xe0 vu \x96 caf\xe9\r\n\r\n2\r\n00:00:31,000 --> 00:00:50,000\r\n<i>Second</i>\r\n' >"$work/film.en.srt"
printf '[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:05.00,Default,,0,0,0,,{\\an8}Bonjour\n' >"$work/film.fr.forced.ass"
cp "$here/page.html" "$work/page.html"

# --- the simulated device, fetching media as a real one does
"$CASTCTL" receiver --port 0 --name "Test TV" --fetch-media -v >"$work/receiver.out" 2>"$work/receiver.log" &
pids+=($!)
wait_for "$work/receiver.out" "^listening on " 20 || fail "the receiver did not start"
DEV=127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/receiver.out")

# --- usage and failures: exit 1 with one line
expect_fail() {  # expect_fail PATTERN ARGS...
  local pat=$1; shift
  local got=0
  timeout 60 "$CASTCTL" "$@" >"$work/out" 2>"$work/fail.err" </dev/null || got=$?
  [[ $got == 1 ]] || fail "castctl $* exited $got, expected 1"
  [[ $(grep -vc "warning:" "$work/fail.err") == 1 ]] || fail "castctl $*: expected one line on stderr"
  grep -q "$pat" "$work/fail.err" || fail "castctl $*: stderr lacks “$pat”"
}
expect_fail "not a media file" cast --device "$DEV" "$work/notes.mkv"
expect_fail "no such file" cast --device "$DEV" "$work/missing.mp4"
expect_fail "subtitle file" cast --device "$DEV" "$work/film.mp4" --subtitle "$work/notes.mkv"
echo "ok: not media, missing file and bad --subtitle end with one line and exit 1"

# --- castctl cast FILE: serve, load, one line
"$CASTCTL" cast --device "$DEV" "$work/film.mp4" >"$work/cast.out" 2>"$work/cast.err" &
cast_pid=$!
pids+=($cast_pid)
wait_for "$work/cast.out" "^Casting film.mp4" 60 || fail "castctl cast printed no line"
[[ $(wc -l <"$work/cast.out") == 1 ]] || fail "castctl cast printed more than one line"
url=$(grep -o 'http://[^ ]*' "$work/cast.out" | head -1)
[[ $url == http://127.0.0.1:* ]] || fail "media URL $url is not on the Cast connection's address 127.0.0.1"
[[ $url == http://127.0.0.1:80[01][0-9]/* ]] || echo "note: 8010-8019 were all taken here; the server fell back to $url"
grep -q "subtitles: English, French (forced)" "$work/cast.out" || fail "sidecar subtitles not named: $(cat "$work/cast.out")"
"$CASTCTL" status --device "$DEV" --json >"$work/status.json"
python3 - "$work/status.json" >"$work/tracks" <<'PY' || fail "status after cast: $(cat "$work/status.json")"
import json, sys
s = json.load(open(sys.argv[1]))["media"]
m = s["media"]
assert s["playerState"] == "PLAYING", s["playerState"]
assert m["contentType"] == "video/mp4", m["contentType"]
assert abs(m["duration"] - 60) < 1, m["duration"]
assert m["metadata"]["title"] == "Test Film" and m["metadata"]["metadataType"] == 1, m["metadata"]
assert m["metadata"]["images"][0]["url"].endswith("/cover.jpg"), m["metadata"]
t = m["tracks"]
assert [(x["language"], x["name"], x["trackContentType"]) for x in t] == [("en", "English", "text/vtt"), ("fr", "French (forced)", "text/vtt")], t
print(t[0]["trackContentId"]); print(t[1]["trackContentId"]); print(m["metadata"]["images"][0]["url"])
PY
track=$(sed -n 1p "$work/tracks")
echo "ok: castctl cast FILE → PLAYING on the fetching receiver, duration, title, cover and two text tracks"

# --- curl
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
curl -sf "$url" | cmp -s - "$work/film.mp4" || fail "GET does not return the file"
[[ $(code -r 0-99 "$url") == 206 ]] || fail "curl -r 0-99"
[[ $(curl -s -r -100 "$url" | wc -c) == 100 ]] || fail "curl suffix range"
[[ $(code -r 999999999- "$url") == 416 ]] || fail "416 for a range past the end"
curl -sI "$url" | tr -d '\r' >"$work/head"
grep -qi "^content-length: $(stat -c %s "$work/film.mp4")$" "$work/head" || fail "HEAD Content-Length"
grep -qi "^access-control-allow-origin: \*$" "$work/head" || fail "HEAD without CORS"
grep -qi "^content-type: video/mp4$" "$work/head" || fail "Content-Type"
[[ $(code --path-as-is "${url%/*}/../../../etc/passwd") == 404 ]] || fail "traversal not 404"
[[ $(code --interface 127.0.0.2 "$url") == 403 ]] || fail "a second loopback address (127.0.0.2) was not refused with 403"
curl -s -H "Origin: https://www.gstatic.com" -D "$work/track.h" "$track" >"$work/track.vtt"
head -c 6 "$work/track.vtt" | grep -q WEBVTT || fail "track is not WebVTT"
grep -q "Déjà vu – café" "$work/track.vtt" || fail "Windows-1252 subtitles not converted to UTF-8: $(cat "$work/track.vtt")"
tr -d '\r' <"$work/track.h" | grep -qi "^access-control-allow-origin: \*" || fail "track without CORS"
echo "ok: curl — whole file, ranges, 416, HEAD, CORS, traversal 404, 403 from 127.0.0.2, converted track"

# --- Python's HTTP/1.1 client
python3 "$here/http_client.py" "$url" "$work/film.mp4" >"$work/py.out" || { cat "$work/py.out" >&2; fail "Python client conformance"; }
echo "ok: Python http.client — $(grep -c '^ok' "$work/py.out") checks"

# --- chromium: a page from another origin plays the media and loads the track
(cd "$work" && exec python3 -m http.server 0 --bind 127.0.0.1 >"$work/web.out" 2>&1) &
pids+=($!)
wait_for "$work/web.out" "port" 20 || fail "page server did not start"
webport=$(grep -o 'port [0-9]*' "$work/web.out" | head -1 | cut -d' ' -f2)
page="http://127.0.0.1:$webport/page.html?media=$(python3 -c 'import urllib.parse,sys;print(urllib.parse.quote(sys.argv[1],safe=""))' "$url")&track=$(python3 -c 'import urllib.parse,sys;print(urllib.parse.quote(sys.argv[1],safe=""))' "$track")"
timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$work/chromium" \
  --autoplay-policy=no-user-gesture-required --virtual-time-budget=20000 --dump-dom "$page" >"$work/dom.html" 2>"$work/chromium.err" || true
result=$(grep -o 'cues=[0-9-]* metadata=[a-z]* duration=[0-9]* error=[a-z:0-9]*' "$work/dom.html" | head -1 || true)
[[ $result == "cues=2 metadata=true duration=60 error=null" ]] || fail "chromium: “$result” (expected cues=2 metadata=true duration=60 error=null)"
echo "ok: chromium (another origin, <video crossorigin> + <track>): $result"

# --- remote URLs: the CORS check warns, the fetching receiver fails or reads the duration
plain="http://127.0.0.1:$webport"
"$CASTCTL" cast --device "$DEV" "$plain/film.mp4" >/dev/null 2>"$work/remote.err" || fail "remote cast without tracks: $(cat "$work/remote.err")"
"$CASTCTL" status --device "$DEV" --json | python3 -c 'import json,sys; d=json.load(sys.stdin)["media"]["media"]["duration"]; assert abs(d-60)<1, d' \
  || fail "the receiver did not read the duration of a LOAD without one"
expect_fail "error code 104" cast --device "$DEV" "$plain/film.mp4" --subtitle "$plain/track.vtt,en,English"
grep -q "Subtitles from 127.0.0.1 will not show: that server" "$work/fail.err" || fail "no CORS warning: $(cat "$work/fail.err")"
expect_fail "error code 103" cast --device "$DEV" "http://127.0.0.1:9/nothing.mp4"
echo "ok: remote URLs — CORS warning, LOAD_FAILED 104 and 103 from --fetch-media, duration read from the media"

# --- HLS from a server whose CORS preflight refuses the Range header: the warning names it
python3 "$here/cors_server.py" >"$work/cors.out" 2>&1 &
pids+=($!)
wait_for "$work/cors.out" "^port " 20 || fail "the CORS test server did not start"
cport=$(sed -n 's/^port //p' "$work/cors.out")
timeout 60 "$CASTCTL" cast --device "$DEV" "http://127.0.0.1:$cport/no-range/live.m3u8" >/dev/null 2>"$work/norange.err" </dev/null || true
grep -q "will not play: that server does not let a Cast device send the Range header" "$work/norange.err" \
  || fail "no Range warning for a preflight without range: $(cat "$work/norange.err")"
timeout 60 "$CASTCTL" cast --device "$DEV" "http://127.0.0.1:$cport/range/live.m3u8" >/dev/null 2>"$work/range.err" </dev/null || true
if grep -q "Range header\|will not play: that server" "$work/range.err"; then fail "a warning for a server that allows Range: $(cat "$work/range.err")"; fi
echo "ok: HLS whose server's CORS preflight refuses the Range header is warned about, one that allows it is not"

# The first cast was replaced by the remote LOADs: its castctl must have ended with 0.
wait "$cast_pid" || fail "castctl cast did not exit 0 when its media was replaced"
[[ $(code "$url") != 200 ]] || fail "the file is still served after its cast ended"
echo "ok: castctl cast exits 0 when its media session ends and stops serving"

# --- the end of the media (IDLE/FINISHED), Ctrl-C, --media-port
timeout 60 "$CASTCTL" cast --device "$DEV" "$work/short.mp4" >"$work/short.out" 2>"$work/short.err" || fail "castctl cast short.mp4 did not exit 0 at the end"
freeport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
{ cat "$work/film.mp4"; head -c 50000000 /dev/zero; } >"$work/shrink.mp4"
"$CASTCTL" cast --device "$DEV" --media-port "$freeport" "$work/shrink.mp4" >"$work/int.out" 2>"$work/int.err" &
int_pid=$!
pids+=($int_pid)
wait_for "$work/int.out" "^Casting" 60 || fail "no line with --media-port"
grep -q "http://127.0.0.1:$freeport/" "$work/int.out" || fail "--media-port not used: $(cat "$work/int.out")"
# A file cut short while it is sent ends that response (short body), it does not hang.
python3 - "$(grep -o 'http://[^ ]*' "$work/int.out")" "$work/shrink.mp4" <<'PY' || fail "a file that shrinks mid-transfer did not end its response"
import http.client, os, sys, urllib.parse
u = urllib.parse.urlsplit(sys.argv[1])
c = http.client.HTTPConnection(u.hostname, u.port, timeout=20)
c.request("GET", u.path)
r = c.getresponse()
length = int(r.getheader("Content-Length"))
first = r.read(1 << 20)
os.truncate(sys.argv[2], 2 << 20)
try:
    got = len(first) + len(r.read())
except http.client.IncompleteRead as e:
    got = len(first) + len(e.partial)
assert got < length, (got, length)
PY
kill -INT "$int_pid"
wait "$int_pid" || fail "castctl cast did not exit 0 on Ctrl-C"
echo "ok: exit 0 at the end of the media and on Ctrl-C; --media-port; a shrinking file ends its response"
echo "localmedia system tests: all passed"
