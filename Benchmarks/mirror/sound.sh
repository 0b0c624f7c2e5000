#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Delay of the desktop's sound (issue 33): sound_bursts.py plays 1 kHz bursts into a private
# PulseAudio's null sink (Tests/System/mirror/pulse.sh) and logs when it wrote each; the
# receiver end (sound_read.py) finds them in the decoded sound; delay = arrival of the decoded
# onset − write time; median and p95 over BENCH_SOUND_BURSTS (30) bursts, the first of them
# BENCH_SOUND_SETTLE (8) seconds after capture began, for:
#   cast   castctl mirror --audio-only (Opus over Cast Streaming) against castctl receiver
#          --mirror-output, which decodes with ffmpeg as the frames arrive
#   peer   the mkchromecast way (its ffmpeg backend: the monitor → MP3 over HTTP, served
#          from the encoder's first byte per GET), read by an ffmpeg client decoding to a pipe
# Run by Benchmarks/mirror/run.sh (the `sound` path) or alone (CASTCTL=path to use another build).
set -euo pipefail
cd "$(dirname "$0")/../.."
BURSTS=${BENCH_SOUND_BURSTS:-30}
# Seconds between the start of capture and the first sound. PulseAudio's monitor of a null
# sink hands sound that starts in the first seconds of a capture over late for as long as the
# capture lasts (about 0.33 s when it starts at once, 0.17 s after 1.5 s, 0.03 s after 3 s;
# plain ffmpeg capturing the monitor shows it too, and it keeps shrinking for some seconds
# more), so both paths wait alike; BENCH_SOUND_SETTLE=0 measures that case.
SETTLE=${BENCH_SOUND_SETTLE:-8}
for tool in pulseaudio pacat ffmpeg; do command -v $tool >/dev/null || ./scripts/setup.sh; done
source Benchmarks/lib.sh
CASTCTL=${CASTCTL:-$(swift build "${RELEASE[@]}" --product castctl >/dev/null && echo "$(swift build "${RELEASE[@]}" --show-bin-path)/castctl")}
here=Benchmarks/mirror
work=$(mktemp -d /tmp/castdeck-bench-sound.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
wait_for() { for _ in $(seq $(($3 * 10))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "timeout waiting for $2 in $1" >&2; return 1; }
source Tests/System/mirror/pulse.sh
start_pulse "$work/pulse"
pids+=("$pulse_pid")
# The bursts' length in seconds: BURSTS × (60 ms + at most 0.9 s) + the lead and the tail.
span=$(python3 -c "print(int($BURSTS * 0.96 + 4))")
play() {  # play LOG: the bursts into the default sink, in the background; sets $player
  python3 "$here/sound_bursts.py" --log "$1" --count "$BURSTS" --lead 2 |
    pacat --raw --format=s16le --rate=48000 --channels=2 --latency-msec=10 &
  player=$!
  pids+=($player)
}
show() {  # show NAME JSON — prints the figures, appends "NAME median p95 counted" to $work/figures
  python3 - "$1" "$2" >>"$work/figures" <<'PY'
import json, sys
name, j = sys.argv[1], json.loads(sys.argv[2])
if not j.get("counted"):
    sys.exit(f"{name}: no burst found ({j})")
print(f'{name} {j["median_s"]} {j["p95_s"]} {j["counted"]} {j["bursts"]}')
PY
  tail -1 "$work/figures" | awk '{printf "  %-22s median %.3f s  p95 %.3f s  (%d of %d bursts)\n", $1, $2, $3, $4, $5}'
}
: >"$work/figures"
echo "-- the desktop's sound: $BURSTS bursts"

# Cast Streaming, sound alone.
"$CASTCTL" receiver --port 0 --mirror-output "$work/cast" >"$work/rcv.out" 2>/dev/null &
pids+=($!)
wait_for "$work/rcv.out" "^listening on " 20
"$CASTCTL" mirror --device "127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/rcv.out")" --audio-only >"$work/mirror.out" 2>"$work/mirror.err" &
mirror=$!
pids+=($mirror)
wait_for "$work/mirror.out" "^Sending" 30 || { cat "$work/mirror.err" >&2; exit 1; }
sleep "$SETTLE"
play "$work/cast.log"
wait "$player" || true
kill -INT "$mirror"
wait "$mirror" || true
sleep 1
show cast-streaming-sound "$(python3 "$here/sound_read.py" --log "$work/cast.log" --mirror "$work/cast" --session 1)"

# The mkchromecast way: ffmpeg (pulse → MP3) over HTTP, an ffmpeg client decoding to a pipe.
python3 "$here/sound_peer_server.py" >"$work/peer.out" 2>"$work/peer.err" &
pids+=($!)
wait_for "$work/peer.out" "^port " 20
ffmpeg -hide_banner -nostdin -loglevel error -i "http://127.0.0.1:$(sed -n 's/^port //p' "$work/peer.out")/stream.mp3" \
  -f s16le -ac 2 -ar 48000 pipe:1 2>"$work/client.err" |
  python3 "$here/sound_read.py" --log "$work/peer.log" --pipe --seconds "$(python3 -c "print($span + $SETTLE + 2)")" >"$work/peer.json" &
reader=$!
sleep "$SETTLE"
play "$work/peer.log"
wait "$reader" || true
show mkchromecast-sound "$(cat "$work/peer.json")"

figure() { awk -v n="$1" -v c="$2" '$1 == n {print $c}' "$work/figures"; }
result mirror "sound delay median, Cast Streaming vs mkchromecast-style" "$(figure cast-streaming-sound 2)" "$(figure mkchromecast-sound 2)" "mkchromecast-style" s lower
result mirror "sound delay p95, Cast Streaming vs mkchromecast-style" "$(figure cast-streaming-sound 3)" "$(figure mkchromecast-sound 3)" "mkchromecast-style" s lower
