#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System test of the HTTP live path of screen mirroring (issue 33): Xvfb shows a moving
# picture (the benchmark's barcode program), `castctl mirror --http` casts it to
# `castctl receiver --fetch-media`, and headless chromium — in real time, a page from
# another origin with a plain <video> on the stream URL, as the Default Media Receiver
# plays progressive media — reports its play position advancing and a canvas snapshot
# that is not black. Also: a client joining late starts on a key frame, only the device's
# address may fetch, and Ctrl-C ends the stream, the encoder, the share and the media.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/System/mirror/lib.sh
for tool in ffmpeg ffprobe curl chromium Xvfb; do command -v $tool >/dev/null || ./scripts/setup.sh; done
if [[ -z ${CASTCTL:-} ]]; then
  swift build --product castctl >/dev/null
  CASTCTL="$(swift build --show-bin-path)/castctl"
fi
here=Tests/System/mirror
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; for f in "$work"/*.err "$work/receiver.log"; do [[ -s $f ]] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }; done; exit 1; }

# --- a screen with a moving picture
Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp -noreset 3>"$work/display" 2>"$work/xvfb.log" &
pids+=($!)
wait_for "$work/display" "[0-9]" 20 || fail "Xvfb did not start"
export DISPLAY=":$(head -1 "$work/display")"
python3 Benchmarks/mirror/barcode.py --size 1280x720 --fps 30 --log "$work/draw.log" 2>"$work/barcode.err" &
pids+=($!)
wait_for "$work/draw.log" "^[0-9]" 20 || fail "the moving picture did not start"

# --- the simulated device, fetching media as a real one does
"$CASTCTL" receiver --port 0 --name "Test TV" --fetch-media -v >"$work/receiver.out" 2>"$work/receiver.log" &
pids+=($!)
wait_for "$work/receiver.out" "^listening on " 20 || fail "the receiver did not start"
DEV=127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/receiver.out")

# --- castctl mirror --http: one line with the URL, then LIVE video/mp4 PLAYING on the device
"$CASTCTL" mirror --http --device "$DEV" >"$work/mirror.out" 2>"$work/mirror.err" &
mirror_pid=$!
pids+=($mirror_pid)
wait_for "$work/mirror.out" "^Mirroring" 60 || fail "castctl mirror --http printed no line"
url=$(grep -o 'http://[^ ;]*' "$work/mirror.out" | head -1)
[[ $url == http://127.0.0.1:*/screen.mp4 ]] || fail "stream URL “$url”"
"$CASTCTL" status --device "$DEV" --json >"$work/status.json"
python3 - "$work/status.json" <<'PY' || fail "status after mirror --http: $(cat "$work/status.json")"
import json, sys
s = json.load(open(sys.argv[1]))["media"]
assert s["playerState"] == "PLAYING", s["playerState"]
assert s["media"]["streamType"] == "LIVE", s["media"]
assert s["media"]["contentType"] == "video/mp4", s["media"]
PY
echo "ok: castctl mirror --http → LIVE video/mp4 PLAYING on the fetching receiver"

# --- chromium in real time: the position advances and the picture is not black
python3 "$here/http_report_server.py" >"$work/reports" 2>"$work/reports.err" &
pids+=($!)
wait_for "$work/reports" "^port " 20 || fail "the page server did not start"
webport=$(sed -n 's/^port //p' "$work/reports")
page="http://127.0.0.1:$webport/page.html?src=$(python3 -c 'import urllib.parse,sys;print(urllib.parse.quote(sys.argv[1],safe=""))' "$url")"
chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$work/chromium" \
  --autoplay-policy=no-user-gesture-required "$page" >/dev/null 2>"$work/chromium.log" &
chromium_pid=$!
pids+=($chromium_pid)
played=""
for _ in $(seq 600); do  # up to 60 s on a loaded machine
  played=$(python3 - "$work/reports" <<'PY'
import sys
reports = [dict(kv.split("=", 1) for kv in line.split()) for line in open(sys.argv[1]) if line.startswith("t=")]
playing = [r for r in reports if r["error"] == "none" and float(r["t"]) > 0 and int(r["lit"]) > 200]
# Two reports that show frames, with the position moved on by at least a second between them.
if len(playing) >= 2 and float(playing[-1]["t"]) - float(playing[0]["t"]) >= 1:
    print(f'position {playing[0]["t"]} → {playing[-1]["t"]} s, {playing[-1]["lit"]} of 2304 snapshot pixels lit')
elif any(r["error"] != "none" for r in reports):
    print("error " + next(r["error"] for r in reports if r["error"] != "none"))
PY
)
  [[ -n $played ]] && break
  sleep 0.1
done
[[ $played == position* ]] || fail "chromium did not play the live stream (${played:-no frames}): $(tail -3 "$work/reports")"
kill "$chromium_pid" 2>/dev/null || true
echo "ok: headless chromium plays the stream in real time: $played"

# --- a client that joins late starts at a key frame; another address may not fetch
python3 - "$url" <<'PY' || fail "a late client did not start on a key frame"
import subprocess, sys
out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#3", "-show_entries",
                      "frame=key_frame", "-of", "csv=p=0", sys.argv[1]], capture_output=True, text=True, timeout=30).stdout.split()
assert out and out[0] == "1", out
PY
code() { curl -s -o /dev/null -m 5 -w '%{http_code}' "$@" || true; }
[[ $(code --interface 127.0.0.2 "$url") == 403 ]] || fail "a second loopback address (127.0.0.2) was not refused with 403"
echo "ok: a late client's first frame is a key frame; 127.0.0.2 gets 403"

# --- Ctrl-C: exit 0, the encoder ends, the URL stops answering
encoder=$(pgrep -P "$mirror_pid" -x ffmpeg || true)
[[ -n $encoder ]] || fail "no ffmpeg under castctl mirror"
kill -INT "$mirror_pid"
wait "$mirror_pid" || fail "castctl mirror --http did not exit 0 on Ctrl-C"
for _ in $(seq 100); do kill -0 "$encoder" 2>/dev/null || break; sleep 0.1; done
kill -0 "$encoder" 2>/dev/null && fail "the encoder outlived castctl mirror"
[[ $(code "$url") != 200 ]] || fail "the stream is still served after Ctrl-C"
grep -q "^Mirroring stopped.$" "$work/mirror.out" || fail "no closing line: $(cat "$work/mirror.out")"
"$CASTCTL" status --device "$DEV" --json | python3 -c 'import json,sys; s=json.load(sys.stdin).get("media"); assert s is None or s["playerState"] == "IDLE", s' \
  || fail "the device still plays the stream after Ctrl-C"
echo "ok: Ctrl-C exits 0, ends the encoder and the share, and stops the media on the device"
echo "mirror --http system tests: all passed"
