#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Any file plays (issue 13): HLS made on demand against gnomecast's whole-file approach, on
# the same generated 1080p sources in the same run, planned for a first-generation Chromecast:
#   remux       H.264/AAC in Matroska          (video and audio copied)
#   audio       H.264/AC-3 5.1 in Matroska     (video copied, audio converted)
#   full        HEVC/AC-3 5.1 in Matroska      (both converted)
# Figures per case:
#   first       `castctl cast FILE` to its line, which comes once the first segment of every
#               rendition exists (probe and keyframe scan included); gnomecast: the whole
#               conversion, since it serves the file only when it is done
#   seek        a cast whose first converter is slowed to real time (CASTDECK_TRANSCODE_READRATE=1)
#               and paused one segment ahead: the time to fetch the video and audio segments
#               at 80 %, which a restarted converter makes; gnomecast: 0 (the file is complete)
#   cpu/min     CPU seconds (user+system of the converters) per minute of media, for the
#               whole duration; gnomecast: its ffmpeg's
# gnomecast's command is `ffmpeg -i IN -map 0:v:0 -map 0:a:0 -c:v h264 -c:a mp3 -b:a 256k OUT.mp4`,
# with `copy` for the streams it would not convert (H.264 video; AAC audio).
# The copied sources are LONG (600) s, the converted one DURATION (40) s: x265 makes a long
# 1080p source too slowly here, and the CPU figure is per media minute anyway.
#   Benchmarks/transcode/run.sh     (CASTCTL=path to use another castctl build; DURATION, LONG: seconds)
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-40}
LONG=${LONG:-600}
for tool in ffmpeg ffprobe curl setpriv; do command -v $tool >/dev/null || { echo "$tool is needed" >&2; exit 1; }; done
source Benchmarks/lib.sh
CASTCTL=${CASTCTL:-$(swift build "${RELEASE[@]}" --product castctl >/dev/null && echo "$(swift build "${RELEASE[@]}" --show-bin-path)/castctl")}
work=$(mktemp -d /tmp/castdeck-bench-transcode.XXXXXX)
export XDG_CACHE_HOME="$work/cache"
scratch="$XDG_CACHE_HOME/castdeck/transcode"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
wait_for() { for _ in $(seq $(($3 * 10))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "timeout waiting for $2 in $1" >&2; return 1; }
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$(now)"; }

echo "making 1080p sources: remux and audio ${LONG} s, full ${DURATION} s…"
ff() { ffmpeg -v error -nostdin -y "$@"; }
src=(-f lavfi -i "testsrc2=size=1920x1080:rate=24:duration=$DURATION" -f lavfi -i "sine=frequency=300:duration=$DURATION")
ff "${src[@]}" -c:v libx264 -preset veryfast -g 48 -pix_fmt yuv420p -c:a aac -b:a 128k "$work/short.mkv"
# Copying is cheap to make long, and the whole-file wait grows with the length: LONG seconds.
ff -stream_loop $((LONG / DURATION - 1)) -i "$work/short.mkv" -map 0 -c copy "$work/remux.mkv"
ff -i "$work/remux.mkv" -map 0 -c:v copy -c:a ac3 -ac 6 "$work/audio.mkv"
rm "$work/short.mkv"
ff "${src[@]}" -c:v libx265 -preset ultrafast -pix_fmt yuv420p -x265-params log-level=error:keyint=48 -c:a ac3 -ac 6 "$work/full.mkv"

"$CASTCTL" receiver --port 0 >"$work/rcv.out" 2>/dev/null &
pids+=($!)
wait_for "$work/rcv.out" "^listening on " 20
DEV=127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/rcv.out")

# cast FILE [ENV…]: starts castctl cast in the background (pid in CAST_PID), waits for its line.
cast() {
  local f=$1; shift
  rm -f "$work/cast.out"
  env "$@" "$CASTCTL" cast --device "$DEV" --model Chromecast "$f" >"$work/cast.out" 2>"$work/cast.err" &
  CAST_PID=$!
  pids+=($CAST_PID)
  wait_for "$work/cast.out" "^Casting" 300
  URL=$(grep -o 'http://[^ ]*' "$work/cast.out" | head -1)
}
end_cast() {
  "$CASTCTL" stop --device "$DEV" >/dev/null 2>&1 || true
  wait "$CAST_PID" 2>/dev/null || true
}
segment_at() {  # segment_at PLAYLIST-URL SECONDS → the segment's name
  curl -sf "$1" | python3 -c '
import sys
t, at = 0.0, float(sys.argv[1])
lines = sys.stdin.read().split("\n")
for i, l in enumerate(lines):
    if l.startswith("#EXTINF:"):
        t += float(l[8:].rstrip(","))
        if t > at: print(lines[i + 1]); break' "$2"
}

declare -A first seek cpu gfirst gcpu
for c in remux audio full; do
  f="$work/$c.mkv"
  len=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$f")
  # First playable segment.
  t0=$(now)
  cast "$f"
  first[$c]=$(since "$t0")
  end_cast

  # Resume after a seek to 80 %.
  cast "$f" CASTDECK_TRANSCODE_AHEAD=1 CASTDECK_TRANSCODE_READRATE=1
  base=${URL%master.m3u8}
  at=$(python3 -c "print($len * 0.8)")
  v=$(segment_at "${base}v.m3u8" "$at")
  a=${v/v_/a0_}
  t0=$(now)
  curl -sf -o /dev/null "$base$v" &
  vpid=$!
  curl -sf -o /dev/null "$base$a"
  wait "$vpid"
  seek[$c]=$(since "$t0")
  end_cast

  # CPU for the whole duration: no pause (of the converter), every segment made.
  cast "$f" CASTDECK_TRANSCODE_AHEAD=100000
  # Paused, the simulated playback does not reach its end (which would end the cast) first.
  "$CASTCTL" pause --device "$DEV" >/dev/null
  total=$(curl -sf "${URL%master.m3u8}v.m3u8" | grep -c '^#EXTINF')
  # The converters' own CPU time, read from /proc while they run (the last reading of each).
  used=$(python3 - "$CAST_PID" "$scratch" "$total" <<'PY'
import os, sys, time
cast, scratch, total = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
tick = os.sysconf("SC_CLK_TCK")
seen = {}
def converters():
    out = []
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) == os.getpid(): continue
        try:
            if scratch.encode() in open(f"/proc/{p}/cmdline", "rb").read(): out.append(int(p))
        except OSError: pass
    return out
def made():
    n = 0
    for d in (os.listdir(scratch) if os.path.isdir(scratch) else []):
        n += sum(1 for f in os.listdir(os.path.join(scratch, d)) if f.startswith("a0_"))
    return n
for _ in range(36000):
    if not os.path.exists(f"/proc/{cast}"): sys.exit("castctl cast ended before the conversion did")
    live = converters()
    for p in live:
        try:
            f = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
            seen[p] = (int(f[11]) + int(f[12])) / tick
        except OSError: pass
    if not live and made() >= total: break
    time.sleep(0.05)
print(sum(seen.values()))
PY
)
  cpu[$c]=$(python3 -c "print(f'{$used / ($len / 60):.1f}')")
  end_cast

  # gnomecast: the whole file first.
  case $c in
    remux) codecs=(-c:v copy -c:a copy) ;;
    audio) codecs=(-c:v copy -c:a mp3 -b:a 256k) ;;
    full) codecs=(-c:v h264 -c:a mp3 -b:a 256k) ;;
  esac
  /usr/bin/time -f "%e %U %S" -o "$work/g.time" ffmpeg -v error -nostdin -y -i "$f" -map 0:v:0 -map 0:a:0 "${codecs[@]}" "$work/g.mp4"
  read -r e u s <"$work/g.time"
  gfirst[$c]=$e
  gcpu[$c]=$(python3 -c "print(f'{($u + $s) / ($len / 60):.1f}')")
  printf '%-6s %4.0f s  CastDeck: first %6ss  seek %6ss  cpu %6s s/min   gnomecast: first %6ss  seek 0  cpu %6s s/min   first-segment ratio %sx\n' \
    "$c" "$len" "${first[$c]}" "${seek[$c]}" "${cpu[$c]}" "${gfirst[$c]}" "${gcpu[$c]}" \
    "$(python3 -c "print(f'{${gfirst[$c]} / max(${first[$c]}, 0.01):.1f}')")"
  result transcode "$c ${len%.*} s 1080p: wait until the device can start" "${first[$c]}" "${gfirst[$c]}" "gnomecast (whole file first)" s lower
done
echo "(first: time until the device can start; ratio = gnomecast's wait / CastDeck's wait. x264 preset: CastDeck veryfast, gnomecast's -c:v h264 = libx264 medium.)"
