#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System tests of the desktop's sound over Cast Streaming (issue 33, docs/mirroring.md): a
# private PulseAudio (mirror/pulse.sh) whose default output is a null sink; ffmpeg plays a
# tone into it; `castctl mirror --audio-only` sends the default output's monitor as Opus to
# `castctl receiver --mirror-output`, which decodes it (ffmpeg) to PCM; mirror/sound.py finds
# the tone's frequency there. Cases: sound alone at 1 kHz (the tone arrives, not silence);
# picture and sound together at 440 Hz on Xvfb (the frame counter advances and the tone is
# there: a different frequency proves nothing is fixed); the device killed while sound plays
# (one sentence, status 1); a PulseAudio source that does not exist (one sentence, status 1);
# a device that takes only the picture (the picture alone, after one line; sound alone to it
# is one sentence, status 1).
# Runs in a private network namespace (unshare); needs pulseaudio, pactl, ffmpeg, Xvfb,
# xdotool and Python's tkinter.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/System/mirror/lib.sh
if [[ ${1:-} != --inside ]]; then mirror_in_namespace "$0" pulseaudio pactl Xvfb xdotool ffmpeg unshare ip; fi
ip link set lo up
work=$(mktemp -d)
pids=()
tone_pid=
cleanup() {
  for p in $tone_pid "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; for f in "$work"/*.err "$work"/*.out "$work"/pulse/pulseaudio.log; do [[ -s $f ]] && { echo "--- $f" >&2; tail -n 8 "$f" | cut -c1-300 >&2; }; done; exit 1; }
# shellcheck source=Tests/System/mirror/pulse.sh
source Tests/System/mirror/pulse.sh
start_pulse "$work/pulse" || fail "no PulseAudio"
pids+=("$pulse_pid")

play_tone() {  # play_tone HZ: a sine into the default output until the next play_tone
  [[ -n $tone_pid ]] && { kill "$tone_pid" 2>/dev/null || true; wait "$tone_pid" 2>/dev/null || true; }
  ffmpeg -hide_banner -nostdin -loglevel error -re -f lavfi -i "sine=frequency=$1:sample_rate=48000" -f pulse default >"$work/tone.out" 2>"$work/tone.err" &
  tone_pid=$!
}

start_receiver() {  # start_receiver NAME [ARGS...]: sets port and receiver_pid
  local name=$1; shift
  "$CASTCTL" receiver --port 0 --setup-port 0 "$@" >"$work/$name.out" 2>"$work/$name.err" &
  receiver_pid=$!
  pids+=($receiver_pid)
  wait_for "$work/$name.out" 'listening on' 20 || fail "$name: the simulator did not start"
  port=$(sed -n 's/^listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$work/$name.out")
}

# The tone at HZ (±15 Hz), not silence, over at least SECONDS.
check_tone() {  # check_tone WHAT JSON HZ SECONDS
  python3 - "$@" <<'PY' || exit 1
import json, sys
what, r, hz, seconds = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
if r["seconds"] < seconds: sys.exit(f"FAIL: {what}: only {r['seconds']} s of sound decoded ({r})")
if r["rms"] < 500: sys.exit(f"FAIL: {what}: the sound is silence ({r})")
if r["peak_hz"] is None or abs(r["peak_hz"] - hz) > 15: sys.exit(f"FAIL: {what}: the sound peaks at {r['peak_hz']} Hz, not {hz} ({r})")
PY
}

# --- 1. sound alone, a 1 kHz tone
play_tone 1000
start_receiver sound --mirror-output "$work/sound"
"$CASTCTL" mirror --device "127.0.0.1:$port" --audio-only --duration 5 >"$work/a1.out" 2>"$work/a1.err" || fail "sound alone: castctl mirror failed"
grep -q "^Sending the desktop's sound to 127.0.0.1:$port (Opus, 128 kb/s)" "$work/a1.out" || fail "sound alone: no start line"
grep -q "^Mirroring stopped" "$work/a1.out" || fail "sound alone: no end line"
sleep 1
report=$(python3 Tests/System/mirror/sound.py "$work/sound" 1)
check_tone "sound alone" "$report" 1000 2.5
echo "ok - sound alone: $(field '["received"]' <<<"$report") Opus frames, $(field '["seconds"]' <<<"$report") s decoded, peak at $(field '["peak_hz"]' <<<"$report") Hz, RMS $(field '["rms"]' <<<"$report")"

# --- 2. picture and sound together, a 440 Hz tone, on Xvfb with the frame counter
display=:$((200 + RANDOM % 500))
Xvfb "$display" -screen 0 640x360x24 -nolisten tcp -noreset >"$work/xvfb.err" 2>&1 &
pids+=($!)
for _ in $(seq 50); do DISPLAY=$display xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
DISPLAY=$display python3 Tests/System/mirror/counter.py 640 360 >"$work/counter.out" 2>"$work/counter.err" &
pids+=($!)
wait_for "$work/counter.out" '^[0-9]' 10 || fail "counter.py did not start"
play_tone 440
"$CASTCTL" mirror --device "127.0.0.1:$port" --display "$display" --audio --duration 6 >"$work/a2.out" 2>"$work/a2.err" ||
  fail "picture and sound: castctl mirror failed"
grep -q "^Mirroring the screen of display $display with its sound to 127.0.0.1:$port at 640x360" "$work/a2.out" || fail "picture and sound: no start line"
grep -q "^The sound goes along (Opus, 128 kb/s)" "$work/a2.out" || fail "picture and sound: no sound line"
sleep 1
pictures=$(python3 Tests/System/mirror/frames.py "$work/sound" 2)
python3 - "$pictures" <<'PY' || fail "picture and sound: the picture: $pictures"
import json, sys
r = json.loads(sys.argv[1]); c = r["counters"]
sys.exit(0 if r["decoded"] >= 30 and len(c) >= 3 and all(b >= a for a, b in zip(c, c[1:])) and c[-1] - c[0] >= 20 else 1)
PY
report=$(python3 Tests/System/mirror/sound.py "$work/sound" 2)
check_tone "picture and sound" "$report" 440 3
echo "ok - picture and sound: $(field '["decoded"]' <<<"$pictures") pictures (counters $(field '["counters"][0]' <<<"$pictures")…$(field '["counters"][-1]' <<<"$pictures")), $(field '["seconds"]' <<<"$report") s of sound peaking at $(field '["peak_hz"]' <<<"$report") Hz"

# --- 3. the device goes away while the sound plays
"$CASTCTL" mirror --device "127.0.0.1:$port" --audio-only >"$work/a3.out" 2>"$work/a3.err" &
mirror=$!
wait_for "$work/a3.out" "^Sending the desktop's sound" 15 || fail "lost device: did not start"
sleep 1
{ kill -9 "$receiver_pid"; wait "$receiver_pid"; } 2>/dev/null || true
status=0
for _ in $(seq 200); do kill -0 "$mirror" 2>/dev/null || break; sleep 0.1; done
kill -0 "$mirror" 2>/dev/null && fail "lost device: castctl mirror still runs 20 s after the device died"
wait "$mirror" || status=$?
[[ $status == 1 && $(wc -l <"$work/a3.err") == 1 ]] && grep -q "Lost the connection to 127.0.0.1:$port" "$work/a3.err" ||
  fail "lost device: status $status, stderr: $(cat "$work/a3.err")"
echo "ok - a lost device ends the sound: $(cat "$work/a3.err")"

# --- 4. a source PulseAudio does not have
start_receiver nosource --mirror-output "$work/nosource"
status=0
"$CASTCTL" mirror --device "127.0.0.1:$port" --audio-only --audio-source no_such_source --duration 20 >"$work/a4.out" 2>"$work/a4.err" || status=$?
[[ $status == 1 && $(wc -l <"$work/a4.err") == 1 ]] && grep -q "could not be captured" "$work/a4.err" ||
  fail "no such source: status $status, stderr: $(cat "$work/a4.err")"
echo "ok - a missing source: $(cat "$work/a4.err")"
# --- 5. a device that takes the picture but not the sound, and sound alone to it
start_receiver mute --mirror-output "$work/mute" --mirror-codecs vp8,h264
"$CASTCTL" mirror --device "127.0.0.1:$port" --display "$display" --audio --duration 4 >"$work/a5.out" 2>"$work/a5.err" ||
  fail "picture without sound: castctl mirror failed"
[[ $(wc -l <"$work/a5.err") == 1 ]] && grep -q "took the picture but not the sound; mirroring without sound" "$work/a5.err" ||
  fail "picture without sound: not the one line: $(cat "$work/a5.err")"
pictures=$(python3 Tests/System/mirror/frames.py "$work/mute" 1)
[[ $(field '["decoded"]' <<<"$pictures") -ge 20 ]] || fail "picture without sound: too few pictures: $pictures"
grep -q '"stream":"audio"' "$work/mute/frames.jsonl" && fail "picture without sound: audio frames arrived all the same"
status=0
"$CASTCTL" mirror --device "127.0.0.1:$port" --audio-only --duration 3 >"$work/a6.out" 2>"$work/a6.err" || status=$?
[[ $status == 1 && $(wc -l <"$work/a6.err") == 1 ]] || fail "sound to a device without sound: status $status, stderr: $(cat "$work/a6.err")"
echo "ok - a device without sound: the picture alone ($(cat "$work/a5.err")); sound alone: $(cat "$work/a6.err")"
echo "mirror-audio: all passed"
