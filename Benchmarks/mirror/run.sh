#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Glass-to-glass delay of screen mirroring (issue 33): barcode.py draws a frame counter on an
# Xvfb screen and logs when it drew each; a receiver reads the counter back from its decoded
# frames (barcode_read.py); delay = decode time − draw time. Median and p95 over
# BENCH_MIRROR_SECONDS (default 20; 60 on request) after BENCH_MIRROR_WARMUP (5) seconds, at
# each size of BENCH_MIRROR_SIZES (1280x720 1920x1080), 30 frames a second, and the CPU the
# capture/encode process used per minute (from /proc/PID/stat), for:
#   http      castctl mirror --http against castctl receiver; the reader is ffmpeg reading the
#             stream URL as a client (what the device's demuxer and decoder do, without the
#             browser player's start-up buffer — see docs/mirroring-benchmark.md)
#   cast      castctl mirror (Cast Streaming: VP8 over RTP/UDP) against castctl receiver
#             --mirror-output, whose decoder keeps every picture (CASTDECK_MIRROR_GRAY=1);
#             cast_readings.py reads the counters with the decoder's times
#   cast-h264 the same with --codec h264 (libx264 ultrafast zerolatency without a GPU)
#   peer      the mkchromecast way (peer_server.py: ffmpeg → HTTP, fragments at key frames
#             only), read by the same reader as http: the peer measured in the same run
#   Benchmarks/mirror/run.sh      (CASTCTL=path to use another castctl build)
#   sound     the desktop's sound alone, Cast Streaming against the mkchromecast way (sound.sh)
#   make mirror-soak              (30 minutes at 720p30 for each of BENCH_MIRROR_PATHS, by default
#                                  the Cast Streaming and the HTTP path: the delay must not drift;
#                                  the first and the last minute's medians are printed)
set -euo pipefail
cd "$(dirname "$0")/../.."
MEASURE=${BENCH_MIRROR_SECONDS:-20}
WARMUP=${BENCH_MIRROR_WARMUP:-5}
SIZES=${BENCH_MIRROR_SIZES:-"1280x720 1920x1080"}
PATHS=${BENCH_MIRROR_PATHS:-"cast cast-h264 http peer sound"}  # and chromium: the HTTP live path as Chromium's <video> shows it
for tool in ffmpeg Xvfb; do command -v $tool >/dev/null || ./scripts/setup.sh; done
source Benchmarks/lib.sh
CASTCTL=${CASTCTL:-$(swift build "${RELEASE[@]}" --product castctl >/dev/null && echo "$(swift build "${RELEASE[@]}" --show-bin-path)/castctl")}
here=Benchmarks/mirror
work=$(mktemp -d /tmp/castdeck-bench-mirror.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
wait_for() { for _ in $(seq $(($3 * 10))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "timeout waiting for $2 in $1" >&2; return 1; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # user + system CPU of a process, in clock ticks
hz=$(getconf CLK_TCK)

"$CASTCTL" receiver --port 0 >"$work/rcv.out" 2>/dev/null &
pids+=($!)
wait_for "$work/rcv.out" "^listening on " 20
DEV=127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/rcv.out")

# measure NAME PID|file:PIDFILE READER... — runs the reader (it prints barcode_read.py's JSON
# after WARMUP + MEASURE seconds); meanwhile the encoder's CPU is sampled over the measured
# window (PIDFILE: `pid N` appears there once the GET came). Prints the figures and appends
# "NAME median p95 cpu drift counted frames unreadable" to $work/figures.
measure() {
  local name=$1 pid=$2 reader c0 c1 t0 t1
  shift 2
  "$@" >"$work/reading.json" &
  reader=$!
  if [[ $pid == file:* ]]; then
    wait_for "${pid#file:}" "^pid " 20
    pid=$(sed -n 's/^pid //p' "${pid#file:}" | tail -1)
  fi
  sleep "$WARMUP"
  t0=$(date +%s.%N) c0=$(ticks "$pid")
  sleep "$(python3 -c "print(max($MEASURE - 1, 0.5))")"
  t1=$(date +%s.%N) c1=$(ticks "$pid")
  wait "$reader"
  python3 - "$name" "$(cat "$work/reading.json")" "$c0" "$c1" "$t0" "$t1" "$hz" >>"$work/figures" <<'PY'
import json, sys
name, j, (c0, c1, t0, t1, hz) = sys.argv[1], json.loads(sys.argv[2]), map(float, sys.argv[3:])
cpu = (c1 - c0) / hz / ((t1 - t0) / 60)
if not j.get("counted"):
    sys.exit(f"{name}: no frame read back ({j})")
minutes = f' {j["first_minute_median_s"]} {j["last_minute_median_s"]}' if "first_minute_median_s" in j else ""
print(f'{name} {j["median_s"]} {j["p95_s"]} {cpu:.1f} {j["drift_s"]} {j["counted"]} {j["frames"]} {j["unreadable"]}{minutes}')
PY
  tail -1 "$work/figures" | awk '{printf "  %-22s median %.3f s  p95 %.3f s  encoder CPU %5.1f s/min  drift %+.3f s  (%d counters read from %d frames, %d unreadable)\n", $1, $2, $3, $4, $5, $6, $7, $8
    if (NF >= 10) printf "  %-22s median of the first minute %.3f s, of the last minute %.3f s\n", "", $9, $10}'
}
# The readers: ffmpeg as a client of URL, or headless chromium playing URL in chromium_reader.html.
ffmpeg_read() { python3 "$here/barcode_read.py" --url "$1" --draw-log "$work/draw.log" --warmup "$WARMUP" --seconds "$MEASURE"; }
chromium_read() {
  local port browser
  : >"$work/chromium.readings"
  python3 "$here/chromium_reader.py" --out "$work/chromium.readings" >"$work/creader.out" &
  port=$!
  wait_for "$work/creader.out" "^port " 20
  chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$work/chromium" \
    --autoplay-policy=no-user-gesture-required \
    "http://127.0.0.1:$(sed -n 's/^port //p' "$work/creader.out")/page.html?src=$(python3 -c 'import urllib.parse,sys;print(urllib.parse.quote(sys.argv[1],safe=""))' "$1")" \
    >/dev/null 2>&1 &
  browser=$!
  # The window is counted from the first frame the page saw.
  wait_for "$work/chromium.readings" " " 60
  sleep "$(python3 -c "print($WARMUP + $MEASURE + 1)")"
  kill "$browser" "$port"
  wait "$browser" "$port" 2>/dev/null || true
  python3 "$here/barcode_read.py" --readings "$work/chromium.readings" --draw-log "$work/draw.log" --warmup "$WARMUP" --seconds "$MEASURE"
}
# start_mirror QUALITY — castctl mirror --http in the background; sets $mirror and $url.
start_mirror() {
  "$CASTCTL" mirror --http --device "$DEV" --quality "$1" >"$work/mirror.out" 2>"$work/mirror.err" &
  mirror=$!
  pids+=($mirror)
  wait_for "$work/mirror.out" "^Mirroring" 60 || { cat "$work/mirror.err" >&2; exit 1; }
  url=$(grep -o 'http://[^ ;]*' "$work/mirror.out" | head -1)
}
stop_mirror() { kill -INT "$mirror"; wait "$mirror" || true; }
# The Cast Streaming path's own receiver, which keeps every decoded picture for cast_read.
CASTDECK_MIRROR_GRAY=1 "$CASTCTL" receiver --port 0 --mirror-output "$work/cast" >"$work/crcv.out" 2>/dev/null &
pids+=($!)
wait_for "$work/crcv.out" "^listening on " 20
CAST_DEV=127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/crcv.out")
# start_cast QUALITY CODEC — castctl mirror (Cast Streaming) in the background; sets $mirror.
start_cast() {
  "$CASTCTL" mirror --device "$CAST_DEV" --quality "$1" --codec "$2" >"$work/mirror.out" 2>"$work/mirror.err" &
  mirror=$!
  pids+=($mirror)
  wait_for "$work/mirror.out" "^Mirroring" 60 || { cat "$work/mirror.err" >&2; exit 1; }
  sed -n 's/^Mirroring .* kb\/s, \(.*\)\.$/  encoder: \1/p' "$work/mirror.out"
}
cast_read() {
  sleep "$(python3 -c "print($WARMUP + $MEASURE + 1)")"
  python3 "$here/cast_readings.py" "$work/cast" >"$work/cast.readings"
  python3 "$here/barcode_read.py" --readings "$work/cast.readings" --draw-log "$work/draw.log" --warmup "$WARMUP" --seconds "$MEASURE"
}
figure() { awk -v n="$1" -v c="$2" '$1 == n {print $c}' "$work/figures"; }

for size in $SIZES; do
  w=${size%x*}
  h=${size#*x}
  label="${h}p30"
  echo "-- $label: $MEASURE s measured after $WARMUP s"
  : >"$work/figures"
  Xvfb -displayfd 3 -screen 0 "${size}x24" -nolisten tcp -noreset 3>"$work/display" 2>/dev/null &
  xvfb=$!
  pids+=($xvfb)
  wait_for "$work/display" "[0-9]" 20
  export DISPLAY=":$(head -1 "$work/display")"
  python3 "$here/barcode.py" --size "$size" --fps 30 --log "$work/draw.log" &
  drawer=$!
  pids+=($drawer)
  wait_for "$work/draw.log" "^[0-9]" 20

  quality=balanced
  [[ $h -gt 720 ]] && quality=sharp
  for path in $PATHS; do
    case $path in
      cast | cast-h264)
        codec=vp8
        [[ $path == cast-h264 ]] && codec=h264
        start_cast "$quality" "$codec"
        measure "cast-streaming-$codec-$label" "$(pgrep -P "$mirror" -x ffmpeg)" cast_read
        stop_mirror ;;
      http)
        start_mirror "$quality"
        measure "http-live-$label" "$(pgrep -P "$mirror" -x ffmpeg)" ffmpeg_read "$url"
        stop_mirror ;;
      chromium)
        start_mirror "$quality"
        measure "http-live-chromium-$label" "$(pgrep -P "$mirror" -x ffmpeg)" chromium_read "$url"
        stop_mirror ;;
      peer)
        python3 "$here/peer_server.py" --size "$size" --fps 30 >"$work/peer.out" 2>"$work/peer.err" &
        peer=$!
        pids+=($peer)
        wait_for "$work/peer.out" "^port " 20
        measure "mkchromecast-$label" "file:$work/peer.out" ffmpeg_read "http://127.0.0.1:$(sed -n 's/^port //p' "$work/peer.out")/stream"
        kill "$peer"
        wait "$peer" 2>/dev/null || true ;;
      sound) ;;  # no screen: after the sizes
      *) echo "unknown path $path (cast, cast-h264, http, chromium, peer, sound)" >&2; exit 2 ;;
    esac
  done
  kill "$drawer" "$xvfb" 2>/dev/null || true
  wait "$drawer" "$xvfb" 2>/dev/null || true
  if [[ " $PATHS " == *" http "* && " $PATHS " == *" peer "* ]]; then
    result mirror "glass-to-glass median $label, HTTP live vs mkchromecast-style" "$(figure "http-live-$label" 2)" "$(figure "mkchromecast-$label" 2)" "mkchromecast-style" s lower
    result mirror "glass-to-glass p95 $label, HTTP live vs mkchromecast-style" "$(figure "http-live-$label" 3)" "$(figure "mkchromecast-$label" 3)" "mkchromecast-style" s lower
    result mirror "encoder CPU per minute $label, HTTP live vs mkchromecast-style" "$(figure "http-live-$label" 4)" "$(figure "mkchromecast-$label" 4)" "mkchromecast-style" "CPU s/min" lower
  fi
  for codec in vp8 h264; do
    [[ " $PATHS " == *" peer "* ]] && grep -q "^cast-streaming-$codec-$label " "$work/figures" || continue
    name="Cast Streaming ${codec/vp8/VP8}"
    name=${name/h264/H.264}
    result mirror "glass-to-glass median $label, $name vs mkchromecast-style" "$(figure "cast-streaming-$codec-$label" 2)" "$(figure "mkchromecast-$label" 2)" "mkchromecast-style" s lower
    result mirror "glass-to-glass p95 $label, $name vs mkchromecast-style" "$(figure "cast-streaming-$codec-$label" 3)" "$(figure "mkchromecast-$label" 3)" "mkchromecast-style" s lower
    result mirror "encoder CPU per minute $label, $name vs mkchromecast-style" "$(figure "cast-streaming-$codec-$label" 4)" "$(figure "mkchromecast-$label" 4)" "mkchromecast-style" "CPU s/min" lower
  done
done
if [[ " $PATHS " == *" sound "* ]]; then CASTCTL=$CASTCTL bash "$here/sound.sh"; fi
