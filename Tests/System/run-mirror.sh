#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System tests of screen mirroring over Cast Streaming (issue 33, docs/mirroring.md):
# `castctl mirror` captures an Xvfb display where mirror/counter.py draws a frame counter,
# and `castctl receiver --mirror-output` answers the OFFER, receives, decrypts, assembles and
# decodes (ffmpeg); mirror/frames.py reads back what it decoded. Cases: the whole screen
# (pictures not black, the counter advances); one window resized while mirrored (a new OFFER,
# pictures of the new size); 8 % of UDP packets dropped by nft (repaired by retransmission:
# the counter still advances frame by frame, packets were sent again); the device killed
# (castctl ends with one sentence and status 1); a device without the mirroring app (one
# sentence, status 1); no display; each codec asked for (--codec vp8, --codec h264: the
# counter advances in the pictures the simulator decoded, key frames arrive). Runs in a
# private network namespace (unshare), so nft touches nothing
# outside; needs Xvfb, xdotool, ffmpeg, nft and Python's tkinter.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/System/mirror/lib.sh
if [[ ${1:-} != --inside ]]; then mirror_in_namespace "$0" Xvfb xdotool ffmpeg nft unshare ip; fi
ip link set lo up
work=$(mktemp -d)
pids=()
cleanup() {
  nft delete table inet mirrortest 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; for f in "$work"/*.err "$work"/*.out; do [[ -s $f ]] && { echo "--- $f" >&2; tail -n 8 "$f" | cut -c1-300 >&2; }; done; exit 1; }

# --- an X display with the counter filling it
display=:$((200 + RANDOM % 500))
Xvfb "$display" -screen 0 640x360x24 -nolisten tcp -noreset >"$work/xvfb.err" 2>&1 &
pids+=($!)
for _ in $(seq 50); do DISPLAY=$display xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
DISPLAY=$display python3 Tests/System/mirror/counter.py 640 360 >"$work/counter.out" 2>"$work/counter.err" &
pids+=($!)
wait_for "$work/counter.out" '^[0-9]' 10 || fail "counter.py did not start"
window=$(head -n1 "$work/counter.out")

start_receiver() {  # start_receiver NAME [ARGS...]: sets port and receiver_pid
  local name=$1; shift
  "$CASTCTL" receiver --port 0 --setup-port 0 "$@" >"$work/$name.out" 2>"$work/$name.err" &
  receiver_pid=$!
  pids+=($receiver_pid)
  wait_for "$work/$name.out" 'listening on' 20 || fail "$name: the simulator did not start"
  port=$(sed -n 's/^listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$work/$name.out")
}

# Counters read from the decoded pictures advance (never go back) and span at least $2.
check_counters() {  # check_counters WHAT JSON MIN_SPAN
  python3 - "$1" "$2" "$3" <<'PY' || exit 1
import json, sys
what, report, span = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
c = report["counters"]
if len(c) < 3: sys.exit(f"FAIL: {what}: only {len(c)} pictures kept ({report})")
if any(b < a for a, b in zip(c, c[1:])): sys.exit(f"FAIL: {what}: the counter went back: {c}")
if c[-1] - c[0] < span: sys.exit(f"FAIL: {what}: the counter advanced only {c[-1] - c[0]}: {c}")
if report["min_luma"] is None or report["min_luma"] < 20: sys.exit(f"FAIL: {what}: a black picture ({report})")
PY
}

# --- 1. the whole screen
start_receiver screen --mirror-output "$work/screen"
"$CASTCTL" mirror --device "127.0.0.1:$port" --display "$display" --duration 6 >"$work/m1.out" 2>"$work/m1.err" &
mirror=$!
# CPU: castctl and its ffmpeg together after 5 s of the 6 (cumulative seconds, from ps), printed.
sleep 5
cpu=$(for p in $mirror $(pgrep -P "$mirror"); do cat "/proc/$p/stat"; done | awk -v hz="$(getconf CLK_TCK)" '{s += $14 + $15} END {printf "%.1f", s / hz}')
wait "$mirror" || fail "screen: castctl mirror failed"
grep -q "^Mirroring the screen of display $display to 127.0.0.1:$port at 640x360" "$work/m1.out" || fail "screen: no start line"
grep -q "^Mirroring stopped" "$work/m1.out" || fail "screen: no end line"
# auto: H.264 (libx264 here, a hardware encoder where one works).
grep -Eq "kb/s, (H\.264|VP8) \([a-z0-9_]+\)\.$" "$work/m1.out" || fail "screen: the start line names no encoder"
report=$(python3 Tests/System/mirror/frames.py "$work/screen" 1)
[[ $(field '["decoded"]' <<<"$report") -ge 30 ]] || fail "screen: too few pictures decoded: $report"
check_counters screen "$report" 20
echo "ok - the whole screen: $(field '["decoded"]' <<<"$report") pictures decoded, counters $(field '["counters"][0]' <<<"$report")…$(field '["counters"][-1]' <<<"$report"); castctl and its ffmpeg used $cpu s of CPU in the first 5 s (640x360, 30 fps, $(grep -o '[A-Z0-9.]* ([a-z0-9_]*)' "$work/m1.out"))"

# --- 2. one window, resized while mirrored: a new OFFER, pictures of the new size
"$CASTCTL" mirror --device "127.0.0.1:$port" --display "$display" --window "$window" --duration 9 >"$work/m2.out" 2>"$work/m2.err" &
mirror=$!
wait_for "$work/m2.out" "^Mirroring window" 15 || fail "window: did not start"
sleep 3
DISPLAY=$display xdotool windowsize "$window" 480 270
wait "$mirror" || fail "window: castctl mirror failed"
grep -q "at 640x360" "$work/m2.out" || fail "window: not first at 640x360"
grep -q "at 480x270" "$work/m2.out" || fail "window: no new OFFER at 480x270 after the resize"
report=$(python3 Tests/System/mirror/frames.py "$work/screen" 3)
[[ $(field '["decoded"]' <<<"$report") -ge 10 ]] || fail "window: too few pictures after the renegotiation: $report"
check_counters "window after the resize" "$report" 5
echo "ok - a resized window is offered again: session 3 decoded $(field '["decoded"]' <<<"$report") pictures"
kill "$receiver_pid"

# --- 3. loss: 8 % of UDP packets dropped, repaired by retransmission
DISPLAY=$display xdotool windowsize "$window" 640 360
start_receiver loss --mirror-output "$work/loss"
nft -f - <<NFT
table inet mirrortest {
  chain in { type filter hook input priority 0; meta l4proto udp numgen random mod 100 < 8 drop; }
}
NFT
"$CASTCTL" mirror --device "127.0.0.1:$port" --display "$display" --duration 6 >"$work/m3.out" 2>"$work/m3.err" || fail "loss: castctl mirror failed"
nft delete table inet mirrortest
resent=$(sed -n 's/^Mirroring stopped (\([0-9]*\) packets sent again).*/\1/p' "$work/m3.out")
[[ ${resent:-0} -gt 0 ]] || fail "loss: no packet was sent again"
report=$(python3 Tests/System/mirror/frames.py "$work/loss" 1)
[[ $(field '["decoded"]' <<<"$report") -ge 20 ]] || fail "loss: too few pictures decoded: $report"
check_counters loss "$report" 15
echo "ok - 8 % loss: $resent packets sent again, $(field '["decoded"]' <<<"$report") pictures decoded in order"

# --- 4. the device goes away
"$CASTCTL" mirror --device "127.0.0.1:$port" --display "$display" >"$work/m4.out" 2>"$work/m4.err" &
mirror=$!
wait_for "$work/m4.out" "^Mirroring the screen" 15 || fail "lost device: did not start"
{ kill -9 "$receiver_pid"; wait "$receiver_pid"; } 2>/dev/null || true
status=0
for _ in $(seq 200); do kill -0 "$mirror" 2>/dev/null || break; sleep 0.1; done
kill -0 "$mirror" 2>/dev/null && fail "lost device: castctl mirror still runs 20 s after the device died"
wait "$mirror" || status=$?
[[ $status == 1 ]] || fail "lost device: exit status $status, not 1"
[[ $(wc -l <"$work/m4.err") == 1 ]] && grep -q "Lost the connection to 127.0.0.1:$port" "$work/m4.err" ||
  fail "lost device: not the one sentence on stderr: $(cat "$work/m4.err")"
echo "ok - a lost device ends mirroring: $(cat "$work/m4.err")"

# --- 5. a device without the mirroring app
start_receiver plain
status=0
"$CASTCTL" mirror --device "127.0.0.1:$port" --display "$display" --duration 2 >"$work/m5.out" 2>"$work/m5.err" || status=$?
[[ $status == 1 && $(wc -l <"$work/m5.err") == 1 ]] || fail "no mirroring app: status $status, stderr $(cat "$work/m5.err")"
echo "ok - a device without the mirroring app: $(cat "$work/m5.err")"

# --- 6. no X display
status=0
"$CASTCTL" mirror --device "127.0.0.1:$port" --display :9 >"$work/m6.out" 2>"$work/m6.err" || status=$?
[[ $status == 1 ]] && grep -q "No X server answers on display :9" "$work/m6.err" || fail "no display: status $status, $(cat "$work/m6.err")"
echo "ok - no X display: $(cat "$work/m6.err")"

# --- 7. each codec asked for: VP8 (IVF) and H.264 (Annex B access units); libvpx and libx264
# here, a hardware encoder where one works
for codec in vp8 h264; do
  name=${codec/vp8/VP8}
  name=${name/h264/H\.264}
  start_receiver "$codec" --mirror-output "$work/$codec"
  "$CASTCTL" mirror --device "127.0.0.1:$port" --display "$display" --codec "$codec" --duration 6 >"$work/m7$codec.out" 2>"$work/m7$codec.err" &
  mirror=$!
  sleep 5
  cpu=$(for p in $mirror $(pgrep -P "$mirror"); do cat "/proc/$p/stat"; done | awk -v hz="$(getconf CLK_TCK)" '{s += $14 + $15} END {printf "%.1f", s / hz}')
  wait "$mirror" || fail "$codec: castctl mirror failed"
  grep -Eq "^Mirroring the screen of display $display to 127.0.0.1:$port at 640x360, 30 fps, [0-9]+ kb/s, $name \([a-z0-9_]+\)\.$" "$work/m7$codec.out" ||
    fail "$codec: no start line naming $name"
  report=$(python3 Tests/System/mirror/frames.py "$work/$codec" 1)
  [[ $(field '["decoded"]' <<<"$report") -ge 30 ]] || fail "$codec: too few pictures decoded: $report"
  check_counters "$codec" "$report" 20
  keys=$(grep -c '"stream":"video","frame":[0-9]*,"key":true' "$work/$codec/frames.jsonl" || true)
  [[ $keys -ge 1 ]] || fail "$codec: no key frame received"
  echo "ok - --codec $codec: $(grep -o '[A-Z0-9.]* ([a-z0-9_]*)' "$work/m7$codec.out"), $(field '["decoded"]' <<<"$report") pictures decoded, counters $(field '["counters"][0]' <<<"$report")…$(field '["counters"][-1]' <<<"$report"), $keys key frames; castctl and its ffmpeg used $cpu s of CPU in the first 5 s"
  kill "$receiver_pid"
done
echo "mirror: all passed"
