#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# From "cast this file" to the first frame on the device (issue 36), for five kinds of
# 10-minute file, against gnomecast's way and catt in the same run: Benchmarks/play/bench.py
# says what is measured and how. The files are made once and kept in
# ~/.cache/castdeck-bench/play (a few minutes the first time; 1.3 GB).
#   Benchmarks/play/run.sh     (CASTCTL=another castctl build; ROUNDS=N, default 5;
#                               PLAY_ONLY=full,remux for some of the cases)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5}
for tool in ffmpeg ffprobe; do command -v $tool >/dev/null || { echo "$tool is needed" >&2; exit 1; }; done
source Benchmarks/lib.sh
CASTCTL=${CASTCTL:-$(swift build "${RELEASE[@]}" --product castctl >/dev/null && echo "$(swift build "${RELEASE[@]}" --show-bin-path)/castctl")}
# catt, pinned, in its own venv (as the localmedia benchmark makes it).
venv=.venv-catt
if [[ ! -x $venv/bin/python ]] || ! $venv/bin/python -c 'import catt' 2>/dev/null; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check catt==0.13.3 || echo "(catt could not be installed: left out)"
fi
catt=""
[[ -x $venv/bin/catt ]] && catt=$PWD/$venv/bin/catt

src=${PLAY_SOURCES:-$HOME/.cache/castdeck-bench/play}
mkdir -p "$src"
ff() { ffmpeg -v error -nostdin -y "$@"; }
if [[ ! -f $src/done-v1 ]]; then
  echo "making the 10-minute sources in $src (once)…"
  pic=(-f lavfi -i "testsrc2=size=1920x1080:rate=24:duration=40" -f lavfi -i "sine=frequency=300:duration=40")
  ff "${pic[@]}" -c:v libx264 -preset veryfast -g 48 -pix_fmt yuv420p -c:a aac -b:a 128k "$src/h264.mkv"
  ff -stream_loop 14 -i "$src/h264.mkv" -map 0 -c copy "$src/remux.mkv"
  ff -i "$src/remux.mkv" -map 0 -c copy -movflags +faststart "$src/direct.mp4"
  ff -i "$src/remux.mkv" -map 0 -c:v copy -c:a ac3 -ac 6 "$src/audio.mkv"
  ff "${pic[@]}" -c:v libx265 -preset ultrafast -pix_fmt yuv420p10le -x265-params log-level=error:keyint=48 -c:a ac3 -ac 6 "$src/hevc.mkv"
  ff -stream_loop 14 -i "$src/hevc.mkv" -map 0 -c copy "$src/full.mkv"
  ff -f lavfi -i "testsrc2=size=600x600:rate=1:duration=1" -frames:v 1 "$src/cover.jpg"
  ff -f lavfi -i "sine=frequency=440:duration=600" -i "$src/cover.jpg" -map 0 -map 1 -c:a libmp3lame -b:a 192k -c:v copy \
    -disposition:v attached_pic -id3v2_version 3 -metadata title="Bench song" "$src/music.mp3"
  rm -f "$src/h264.mkv" "$src/hevc.mkv" "$src/cover.jpg"
  touch "$src/done-v1"
fi
work=$(mktemp -d /tmp/castdeck-bench-play.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 -u Benchmarks/play/bench.py "$CASTCTL" "$src" "$work" "$ROUNDS" "$PWD/.venv/bin/python" "$catt"
echo "(cold: castctl's probe cache empty; warm: the file cast before. gnomecast's clock starts with the device connected.)"
