#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Runs every CastDeck benchmark in release mode; each prints its own figures and
# compares with a peer measured in the same run. Read ratios and medians: these
# machines are noisy.   Benchmarks/run.sh [AREA...]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
areas=("$@")
((${#areas[@]})) || areas=(protocol receiver discovery client imagecache gui localmedia transcode play move mirror)
source Benchmarks/lib.sh
bin() { swift build "${RELEASE[@]}" --product "$1" >/dev/null && echo "$(swift build "${RELEASE[@]}" --show-bin-path)/$1"; }
# Everything is logged; every benchmark prints its comparisons as `bench-result:` lines, which
# Benchmarks/summary.py turns into the table at the end and bench-results.json.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=()
for area in "${areas[@]}"; do
 (
  case $area in
    protocol)
      echo "== protocol: decode the realistic MEDIA_STATUS frame, against pychromecast's decoding path"
      counter=$(mktemp --suffix=.so)
      cc -O2 -shared -fPIC -o "$counter" Benchmarks/malloc-count.c
      LD_PRELOAD="$counter" "$(bin castdeck-bench-protocol)"
      rm -f "$counter" ;;
    receiver)
      echo "== receiver: simulator round trips"
      "$(bin castdeck-bench-receiver)" ;;
    discovery)
      echo "== discovery: start to first device, castctl discover against pychromecast (mDNS sandbox)"
      ./Benchmarks/discovery/run.sh ;;
    client)
      echo "== client: castctl status and SET_PLAYBACK_RATE latency vs pychromecast"
      ./Benchmarks/client/run.sh ;;
    imagecache)
      echo "== imagecache: hit latency, opening 10,000 entries, miss-path overhead over the raw download"
      "$(bin castdeck-bench-imagecache)" ;;
    gui)
      echo "== gui: first frame and peak RSS vs a C GTK 4 window; CPU while paused"
      ./Benchmarks/gui/run.sh ;;
    localmedia)
      echo "== localmedia: 1 GiB file, 1 and 4 range readers vs nginx-light and catt; castctl cast FILE → PLAYING"
      ./Benchmarks/localmedia/run.sh ;;
    transcode)
      echo "== transcode: 1080p remux / audio / full conversion — first segment, seek to 80 %, CPU per media minute vs gnomecast's whole file"
      ./Benchmarks/transcode/run.sh ;;
    play)
      echo "== play: cast → first frame on the device for five kinds of 10-minute file, and seek to 80 %, vs gnomecast's way and catt"
      ./Benchmarks/play/run.sh ;;
    move)
      echo "== move: castctl move between two devices — the gap on the source and the target, vs a naive pychromecast transfer"
      ./Benchmarks/move/run.sh ;;
    mirror)
      echo "== mirror: glass-to-glass delay and encoder CPU at 720p30 and 1080p30, HTTP live path vs an mkchromecast-style pipeline"
      ./Benchmarks/mirror/run.sh ;;
    *) echo "unknown benchmark area: $area" >&2; exit 2 ;;
  esac
 ) 2>&1 | tee -a "$log" || failed+=("$area")
done
python3 Benchmarks/summary.py "$log" bench-results.json
if ((${#failed[@]})); then
  echo "benchmark areas that failed: ${failed[*]}" >&2
  exit 1
fi
