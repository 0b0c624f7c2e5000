#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System tests of "any file plays" (issue 13): files made here by ffmpeg (HEVC + AC-3 5.1 MKV
# with a French SRT and a German audio stream; 10-bit H.264 MKV; VP9/Opus WebM; FLAC with
# cover art; MPEG-4 Part 2 AVI). For each: `castctl cast --plan`; `castctl cast` against
# `castctl receiver --fetch-media` (which parses the HLS, fetches playlists, renditions and
# segments with CORS and checks CODECS against its --model); ffprobe as a foreign client
# reads the served result (codecs the device plays, duration within 1 s of the source); a
# read from 80 % of the duration succeeds and is made on demand; ending the cast (castctl
# stop, SIGTERM, SIGKILL) leaves no ffmpeg and no scratch files. Tiny pictures, 30 s each.
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in ffmpeg ffprobe curl setpriv; do command -v $tool >/dev/null || { echo "FAIL: $tool is needed" >&2; exit 1; }; done
if [[ -z ${CASTCTL:-} ]]; then
  swift build --product castctl >/dev/null
  CASTCTL="$(swift build --show-bin-path)/castctl"
fi
work=$(mktemp -d)
export XDG_CACHE_HOME="$work/cache"
# Every cast starts at the start: castctl would go on where a cast of the same file stopped
# (issue 36; Tests/System/run-resume.sh tests that).
export CASTDECK_REMEMBER_POSITIONS=0
scratch="$XDG_CACHE_HOME/castdeck/transcode"
# The converter pauses one segment ahead of the last one asked for, so that what lies
# further is visibly made on demand.
export CASTDECK_TRANSCODE_AHEAD=1
# …and, since a pause checked ten times a second is outrun by a remux of a tiny file, the
# source is read at most at real time.
export CASTDECK_TRANSCODE_READRATE=1
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; for f in "$work"/*.err "$work"/*.log; do [[ -s $f ]] && { echo "--- $f" >&2; tail -n 6 "$f" | cut -c1-300 >&2; }; done; exit 1; }
wait_for() {  # wait_for FILE PATTERN SECONDS
  for _ in $(seq $(($3 * 10))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}
converters() { pgrep -f -- "$scratch" || true; }  # ffmpeg runs name their scratch folder
no_converters() {  # no_converters WHAT: within 5 s
  for _ in $(seq 50); do [[ -z $(converters) ]] && return 0; sleep 0.1; done
  fail "$1: an ffmpeg outlived the cast: $(converters | xargs -r ps -o pid,args -p)"
}
scratch_empty() { [[ -z $(ls -A "$scratch" 2>/dev/null) ]] || fail "$1: scratch files left: $(ls -R "$scratch")"; }

# --- test media (small, made here)
ff() { ffmpeg -v error -nostdin -y "$@"; }
pic=(-f lavfi -i testsrc=size=320x180:rate=15:duration=30)
printf '1\n00:00:01,000 --> 00:00:05,000\nBonjour\n\n2\n00:00:20,000 --> 00:00:25,000\nAu revoir\n' >"$work/fr.srt"
ff "${pic[@]}" -f lavfi -i sine=frequency=440:duration=30 -f lavfi -i sine=frequency=660:duration=30 -i "$work/fr.srt" \
  -map 0 -map 1 -map 2 -map 3 -c:v libx265 -preset ultrafast -pix_fmt yuv420p -x265-params log-level=error:keyint=45 \
  -c:a ac3 -ac:a:0 6 -ac:a:1 2 -c:s srt -metadata:s:a:0 language=eng -metadata:s:a:1 language=ger \
  -metadata:s:a:1 title=Synchronfassung -metadata:s:s:0 language=fre "$work/hevc.mkv"
ff "${pic[@]}" -f lavfi -i sine=duration=30 -c:v libx264 -preset ultrafast -pix_fmt yuv420p10le -c:a aac "$work/ten.mkv"
ff "${pic[@]}" -f lavfi -i sine=duration=30 -c:v libvpx-vp9 -pix_fmt yuv420p -deadline realtime -cpu-used 8 -b:v 200k -c:a libopus "$work/vp9.webm"
ff -f lavfi -i color=c=blue:size=64x64 -frames:v 1 "$work/cover.png"
ff -f lavfi -i sine=duration=30 -i "$work/cover.png" -map 0 -map 1 -c:a flac -c:v png -disposition:v attached_pic "$work/song.flac"
rm "$work/cover.png"
ff "${pic[@]}" -f lavfi -i sine=duration=30 -c:v mpeg4 -q:v 5 -c:a libmp3lame -b:a 96k "$work/old.avi"
echo "ok: test media made (HEVC/AC-3 MKV, 10-bit H.264 MKV, VP9/Opus WebM, FLAC with cover, MPEG-4 Part 2 AVI)"

# --- the plans (no device needed)
plan() { "$CASTCTL" cast --plan "$@" >"$work/plan.out" 2>"$work/plan.err" || fail "castctl cast --plan $*"; }
expect_plan() {  # expect_plan FILE MODEL LINE-PATTERN...
  local f=$1 m=$2; shift 2
  plan "$work/$f" --model "$m"
  for pat in "$@"; do grep -q -- "$pat" "$work/plan.out" || fail "plan of $f on $m lacks “$pat”: $(cat "$work/plan.out")"; done
}
expect_plan hevc.mkv Chromecast "served as HLS" "convert: #0 video: HEVC.*→ H.264: the device has no HEVC" \
  "convert: #1 audio: AC-3, 6 channels (eng, default) → AAC stereo" "convert: #2 audio: AC-3, stereo (ger, “Synchronfassung”)" \
  "text track: #3 subtitle: SRT (fre)"
expect_plan hevc.mkv "Chromecast Ultra" "remux: #0 video: HEVC" "convert: #1 audio: AC-3"
expect_plan ten.mkv Chromecast "convert: #0 video: H.264 High 10.*10-bit H.264 is decoded by no Cast device" "remux: #1 audio: AAC"
expect_plan vp9.webm Chromecast "convert: #0 video: VP9.*no VP9 decoder" "convert: #1 audio: Opus"
expect_plan vp9.webm "Chromecast Ultra" "served as it is" "direct: #0 video: VP9"
expect_plan song.flac Chromecast "served as it is" "direct: #0 audio: FLAC" "artwork: #1 cover"
expect_plan old.avi Chromecast "convert: #0 video: MPEG-4 Part 2" "remux: #1 audio: MP3"
plan "$work/hevc.mkv" --burn-subtitles 1
grep -q "burn: #3 subtitle: SRT (fre): drawn into the picture" "$work/plan.out" || fail "--burn-subtitles 1: $(cat "$work/plan.out")"
grep -q "convert: #0 video: .*subtitles are drawn into the picture" "$work/plan.out" || fail "--burn-subtitles 1: $(cat "$work/plan.out")"
"$CASTCTL" cast --plan --json "$work/hevc.mkv" | python3 -c '
import json, sys
p = json.load(sys.stdin)
assert p["delivery"] == "hls" and [s["action"] for s in p["streams"]] == ["convert", "convert", "convert", "text track"], p' \
  || fail "--plan --json"
got=0; "$CASTCTL" cast --plan --burn-subtitles 3 "$work/hevc.mkv" >/dev/null 2>"$work/burn.err" || got=$?
[[ $got == 1 ]] && grep -q "subtitle streams 1 to 1 only" "$work/burn.err" || fail "--burn-subtitles 3 of a file with one: exit $got, $(cat "$work/burn.err")"
echo "ok: castctl cast --plan — per stream direct/remux/convert with reasons, by model; --json; a bad --burn-subtitles is one line, exit 1"

# --- two simulated devices that fetch what they are told to play
start_receiver() {  # start_receiver NAME MODEL → sets DEV
  "$CASTCTL" receiver --port 0 --name "$1" --model "$2" --fetch-media -v >"$work/$1.out" 2>"$work/$1.log" &
  pids+=($!)
  wait_for "$work/$1.out" "^listening on " 20 || fail "receiver $1 did not start"
  DEV=127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/$1.out")
}
start_receiver cc Chromecast
CC=$DEV
start_receiver ultra "Chromecast Ultra"
ULTRA=$DEV

duration_of() { ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$1"; }
near() { python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if abs(a - b) <= 1 else 1)' "$1" "$2"; }

# cast_and_check FILE DEV MODEL ALLOWED-CODECS KIND: cast, status, ffprobe, 80 %, stop, nothing left.
cast_and_check() {
  local f=$1 dev=$2 model=$3 allowed=$4 kind=$5
  local src_dur; src_dur=$(duration_of "$work/$f")
  rm -f "$work/cast.out"  # no line of an earlier cast may be taken for this one's
  "$CASTCTL" cast --device "$dev" --model "$model" "$work/$f" >"$work/cast.out" 2>"$work/cast.err" &
  local cast_pid=$!
  pids+=($cast_pid)
  wait_for "$work/cast.out" "^Casting $f" 90 || fail "$f: castctl cast printed no line"
  [[ $(wc -l <"$work/cast.out") == 1 ]] || fail "$f: castctl cast printed more than one line"
  local url; url=$(grep -o 'http://[^ ]*' "$work/cast.out" | head -1)
  "$CASTCTL" status --device "$dev" --json >"$work/status.json"
  python3 - "$work/status.json" "$kind" "$src_dur" <<'PY' || fail "$f: status after cast: $(cat "$work/status.json")"
import json, sys
s = json.load(open(sys.argv[1]))["media"]
m = s["media"]
assert s["playerState"] == "PLAYING", s["playerState"]
want = {"hls": "application/x-mpegurl", "flac": "audio/flac"}[sys.argv[2]]
assert m["contentType"] == want, m["contentType"]
assert abs(m["duration"] - float(sys.argv[3])) <= 1, (m["duration"], sys.argv[3])
PY
  # ffprobe, a foreign HLS client: codecs the device plays, the whole duration.
  ffprobe -v error -show_entries stream=codec_name,codec_type:format=duration -of json "$url" >"$work/probe.json" 2>"$work/ffprobe.err" \
    || fail "$f: ffprobe cannot read $url"
  python3 - "$work/probe.json" "$allowed" "$src_dur" <<'PY' || fail "$f: ffprobe of the served media: $(cat "$work/probe.json")"
import json, sys
p = json.load(open(sys.argv[1]))
allowed = set(sys.argv[2].split(","))
codecs = {s["codec_name"] for s in p["streams"] if s["codec_type"] in ("video", "audio") and s["codec_name"] not in ("png", "mjpeg")}
assert codecs and codecs <= allowed, (codecs, allowed)
assert abs(float(p["format"]["duration"]) - float(sys.argv[3])) <= 1, (p["format"]["duration"], sys.argv[3])
PY
  # A read from 80 %: for HLS, that segment is not made until it is asked for.
  local at; at=$(python3 -c "print(round($src_dur * 0.8, 2))")
  if [[ $kind == hls ]]; then
    # The segment holding that time, from the served playlist (copied video cuts at keyframes).
    local seg; seg=$(curl -sf "${url%master.m3u8}v.m3u8" | python3 -c '
import sys
t, at = 0.0, float(sys.argv[1])
lines = sys.stdin.read().split("\n")
for i, l in enumerate(lines):
    if l.startswith("#EXTINF:"):
        t += float(l[8:].rstrip(","))
        if t > at:
            print(lines[i + 1]); break' "$at")
    [[ -n $seg ]] || fail "$f: no segment holds $at s in the playlist"
    local n=${seg#v_}; n=$((10#${n%.ts}))
    ((n >= 3)) || fail "$f: the segment at 80 % ($seg) is too close to the start to tell on-demand production"
    if ls "$scratch"/*/ 2>/dev/null | grep -q "^$seg$"; then fail "$f: $seg was made before anyone asked for it"; fi
  fi
  timeout 60 ffmpeg -v error -nostdin -ss "$at" -i "$url" -t 2 -f null - 2>"$work/seek.err" || fail "$f: reading from 80 % ($at s) failed"
  if [[ $kind == hls ]]; then
    ls "$scratch"/*/ | grep -q "^$seg$" || fail "$f: $seg was not made on demand"
  fi
  echo "ok: $f on $model — $(grep -o 'as HLS[^(]*' "$work/cast.out" || echo 'as it is') ffprobe: $(python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(",".join(sorted({s["codec_name"] for s in p["streams"]})), round(float(p["format"]["duration"]),2), "s")' "$work/probe.json"); read from $at s"
}

stop_and_check() {  # stop_and_check FILE DEV
  local cast_pid=${pids[-1]}
  "$CASTCTL" stop --device "$2" >/dev/null 2>&1 || fail "$1: castctl stop"
  for _ in $(seq 100); do kill -0 "$cast_pid" 2>/dev/null || break; sleep 0.1; done
  wait "$cast_pid" || fail "$1: castctl cast did not exit 0 after castctl stop"
  no_converters "$1 after castctl stop"
  scratch_empty "$1 after castctl stop"
}

cast_and_check hevc.mkv "$CC" Chromecast h264,aac hls
# The text track and the two audio renditions, and switching between them.
python3 - "$work/status.json" <<'PY' || fail "hevc.mkv tracks: $(cat "$work/status.json")"
import json, sys
m = json.load(open(sys.argv[1]))["media"]
t = m["media"]["tracks"]
assert [(x["type"], x["language"], x["name"]) for x in t] == [
    ("TEXT", "fr", "French"), ("AUDIO", "en", "English"), ("AUDIO", "de", "German – Synchronfassung")], t
assert m["activeTrackIds"] == [101], m["activeTrackIds"]
PY
"$CASTCTL" tracks --device "$CC" --on 1 102 >/dev/null || fail "castctl tracks --on 1 102"
"$CASTCTL" status --device "$CC" --json | python3 -c 'import json,sys; a=json.load(sys.stdin)["media"]["activeTrackIds"]; assert sorted(a)==[1,102], a' \
  || fail "switching to the German rendition"
"$CASTCTL" tracks --device "$CC" --on 1 >/dev/null || fail "castctl tracks --on 1"
"$CASTCTL" status --device "$CC" --json | python3 -c 'import json,sys; a=json.load(sys.stdin)["media"]["activeTrackIds"]; assert sorted(a)==[1,102], a' \
  || fail "naming no audio track must keep the current rendition"
got=0; "$CASTCTL" tracks --device "$CC" --on 101 102 >/dev/null 2>&1 || got=$?
[[ $got != 0 ]] || fail "two audio renditions at once were accepted"
echo "ok: hevc.mkv — French text track, English/German renditions; EDIT_TRACKS_INFO switches audio, refuses two at once"
stop_and_check hevc.mkv "$CC"

cast_and_check hevc.mkv "$ULTRA" "Chromecast Ultra" hevc,aac hls
stop_and_check hevc.mkv "$ULTRA"
# Planned for an Ultra, loaded on a first-generation model: the device refuses the HEVC CODECS.
got=0; timeout 90 "$CASTCTL" cast --device "$CC" --model "Chromecast Ultra" "$work/hevc.mkv" >/dev/null 2>"$work/refused.err" || got=$?
[[ $got == 1 ]] && grep -q "104" "$work/refused.err" || fail "HEVC HLS on --model Chromecast: exit $got, $(cat "$work/refused.err")"
grep -q "HLS: CODECS hvc1.*has no HEVC decoder" "$work/cc.log" || fail "the receiver did not name the refused codec"
no_converters "a refused LOAD"
scratch_empty "a refused LOAD"
echo "ok: HEVC planned for an Ultra is refused by a simulated Chromecast (CODECS checked, LOAD_FAILED 104), nothing left"

# --- "Send surround sound as is" (--surround): AC-3 copied for a device on an AV receiver.
plan "$work/hevc.mkv" --model "Chromecast Ultra" --surround
grep -q "remux: #1 audio: AC-3, 6 channels.*copied as it is for the AV receiver" "$work/plan.out" || fail "--surround plan: $(cat "$work/plan.out")"
expect_plan hevc.mkv "Chromecast Ultra" "convert: #1 audio: AC-3.*“Send surround sound as is” is off"
"$CASTCTL" receiver --port 0 --name avr --model "Chromecast Ultra" --fetch-media --av-receiver -v >"$work/avr.out" 2>"$work/avr.log" &
pids+=($!)
wait_for "$work/avr.out" "^listening on " 20 || fail "receiver avr did not start"
AVR=127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/avr.out")
rm -f "$work/cast.out"
"$CASTCTL" cast --device "$AVR" --model "Chromecast Ultra" --surround "$work/hevc.mkv" >"$work/cast.out" 2>"$work/cast.err" &
pids+=($!)
wait_for "$work/cast.out" "^Casting hevc.mkv" 90 || fail "--surround to a device on an AV receiver printed no line"
url=$(grep -o 'http://[^ ]*' "$work/cast.out" | head -1)
ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "$url" 2>"$work/ffprobe.err" | sort -u | tr '\n' ' ' >"$work/codecs.txt"
grep -q "ac3" "$work/codecs.txt" && grep -q "hevc" "$work/codecs.txt" || fail "--surround: the served HLS has $(cat "$work/codecs.txt")"
stop_and_check hevc.mkv "$AVR"
got=0; timeout 90 "$CASTCTL" cast --device "$ULTRA" --model "Chromecast Ultra" --surround "$work/hevc.mkv" >/dev/null 2>"$work/refused.err" || got=$?
[[ $got == 1 ]] && grep -q "104" "$work/refused.err" || fail "--surround without an AV receiver: exit $got, $(cat "$work/refused.err")"
grep -q "HLS: CODECS ac-3.*none is connected" "$work/ultra.log" || fail "the receiver did not name the refused AC-3"
no_converters "a refused surround LOAD"
echo "ok: --surround — AC-3 5.1 copied ($(cat "$work/codecs.txt")), played by a device on an AV receiver, refused (104) by one without"

cast_and_check ten.mkv "$CC" Chromecast h264,aac hls
stop_and_check ten.mkv "$CC"
cast_and_check vp9.webm "$CC" Chromecast h264,aac hls
stop_and_check vp9.webm "$CC"
cast_and_check song.flac "$CC" Chromecast flac flac
stop_and_check song.flac "$CC"
cast_and_check old.avi "$CC" Chromecast h264,mp3 hls

# --- SIGTERM (Ctrl-C's path) ends castctl with 0 and takes the converter and its folder along.
cast_pid=${pids[-1]}
kill -TERM "$cast_pid"
wait "$cast_pid" || fail "castctl cast did not exit 0 on SIGTERM"
no_converters "SIGTERM"
scratch_empty "SIGTERM"
echo "ok: SIGTERM — castctl exits 0, no ffmpeg, no scratch files"

# --- SIGKILL: the kernel ends the converter (parent-death signal); the folder is swept at the next start.
rm -f "$work/cast.out"
"$CASTCTL" cast --device "$CC" "$work/old.avi" >"$work/cast.out" 2>"$work/cast.err" &
cast_pid=$!
pids+=($cast_pid)
wait_for "$work/cast.out" "^Casting" 90 || fail "castctl cast old.avi (again) printed no line"
[[ -n $(converters) ]] || fail "no converter ran (paused) while casting"
kill -KILL "$cast_pid"
wait "$cast_pid" 2>/dev/null || true
no_converters "SIGKILL of castctl"
[[ -n $(ls -A "$scratch") ]] || fail "expected the killed cast's folder to remain until the next start"
rm -f "$work/cast.out"
"$CASTCTL" cast --device "$CC" "$work/ten.mkv" >"$work/cast.out" 2>"$work/cast.err" &
pids+=($!)
wait_for "$work/cast.out" "^Casting" 90 || fail "castctl cast after SIGKILL printed no line"
[[ $(ls "$scratch" | wc -l) == 1 ]] || fail "the killed cast's folder was not swept: $(ls "$scratch")"
stop_and_check ten.mkv "$CC"
echo "ok: SIGKILL — the converter dies with castctl; its folder is swept at the next cast"
echo "transcode system tests: all passed"
