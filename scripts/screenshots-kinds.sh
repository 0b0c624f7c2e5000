#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Screenshots of device kinds (issue 30) in English and Persian: a Nest Hub idle on its
# Backdrop, a speaker playing a song, a projector with its fixed volume, a TV playing YouTube
# (started by another phone, the LAUNCH hook). Each is a simulator of its kind and a castdeck
# of its own (Tests/System/gui/kinds_support.py).
# Usage: scripts/screenshots-kinds.sh [OUTDIR]   (default: artifacts/screenshots)
# SIZES="1280x800 360x640" (the default) picks the screen sizes; files are named
# kinds-<scene>-<size>-<lang>.png.
set -euo pipefail
source "$(dirname "$0")/screenshots-prelude.sh"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
source Tests/System/gui/xvfb.sh
export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=atspi
/usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 & pids+=($!)
sleep 0.5

for size in ${SIZES:-1280x800 360x640}; do
  start_xvfb "$size"
  for lang in ${LANGS:-en fa}; do
    SIZE=$size SHOT_LANG=$lang OUT="$out" CASTCTL="$bin/castctl" CASTDECK="$bin/castdeck" /usr/bin/python3 - <<'PY'
import os, sys
sys.path.insert(0, "Tests/System/gui")
from atspi_helpers import click, find, wait_for, find_all
from kinds_support import Scene
env = os.environ
out, size, lang = env["OUT"], env["SIZE"], env["SHOT_LANG"]
SONG = {"type": "LOAD", "requestId": 1, "autoplay": True, "currentTime": 83,
        "media": {"contentId": "https://media.example/clair-de-lune.mp3", "contentType": "audio/mpeg", "streamType": "BUFFERED",
                  "duration": 302, "metadata": {"metadataType": 3, "title": "Clair de Lune", "artist": "Claude Debussy",
                                                "albumName": "Suite bergamasque"}}}
VIDEO = {"type": "LOAD", "requestId": 1, "autoplay": True, "currentTime": 131,
         "media": {"contentId": "https://www.youtube.com/watch?v=abc", "contentType": "video/mp4", "streamType": "BUFFERED",
                   "duration": 754, "metadata": {"metadataType": 0, "title": "Mountain Trains of Switzerland"}}}

with Scene("nest-hub", "Kitchen Display", lang=lang, size=size) as s:
    s.shot(out, "kinds-hub-idle")
with Scene("speaker", "Bedroom Speaker", lang=lang, size=size) as s:
    s.hook({"type": "LAUNCH", "appId": "CC1AD845", "load": SONG})
    find(s.app, "Clair de Lune", "label", timeout=20)
    s.shot(out, "kinds-speaker-playing")
with Scene("projector", "Projector", lang=lang, size=size) as s:
    find(s.app, s.T("Fixed: set it on the TV or amplifier"), "label")
    s.shot(out, "kinds-projector-fixed-volume")
with Scene("tv", "Living Room TV", "--foreign-app", "youtube", lang=lang, size=size) as s:
    s.hook({"type": "LAUNCH", "appId": "233637DE", "load": VIDEO})
    find(s.app, "Mountain Trains of Switzerland", "label", timeout=20)
    click(find(s.app, s.T("Back to devices"), "push button"))
    find(s.app, "YouTube", "image")
    s.shot(out, "kinds-tv-youtube")
PY
  done
  kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
done
ls "$out"/kinds-*
