#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Screenshots of the mini player (issue 14) in English and Persian: a simulated receiver plays
# a film cast by castctl, castdeck joins it and opens the mini player (app.mini-player over
# D-Bus, as its button does); then the same during an ad (mini-player-ad-LANG.png, issue 31).
# Each PNG is cropped to the mini player window.
# Usage: scripts/screenshots-mini-player.sh [OUTDIR]   (default: artifacts/screenshots)
set -euo pipefail
source "$(dirname "$0")/screenshots-prelude.sh"

source Tests/System/gui/desktop-session.sh 800x500
# Persian: po/fa.po plus this branch's po/fa-mpris.po until they are merged.
mkdir -p "$work/locale/fa/LC_MESSAGES"
msgcat --use-first po/fa.po $(ls po/fa-*.po 2>/dev/null) | msgfmt -o "$work/locale/fa/LC_MESSAGES/castdeck.mo" -
mkdir -p "$work/www"
convert -size 320x320 gradient:'#3465a4-#f57900' "$work/www/art.png"
artport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$artport" --bind 127.0.0.1 --directory "$work/www" >/dev/null 2>&1 & pids+=($!)
"$bin/castctl" receiver --port 0 --name "Living Room TV" >"$work/receiver.out" 2>/dev/null & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$work/receiver.out" 2>/dev/null && break; sleep 0.1; done
device="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/receiver.out")"
# pychromecast (in .venv, from ./scripts/setup.sh) loads a film of known length.
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
DEVICE="$device" ART="http://127.0.0.1:$artport/art.png" .venv/bin/python - <<'PY'
import os, uuid, pychromecast
host, port = os.environ["DEVICE"].rsplit(":", 1)
cast = pychromecast.get_chromecast_from_host((host, int(port), uuid.uuid4(), "Chromecast", "Living Room TV"), timeout=10)
cast.wait(timeout=15)
mc = cast.media_controller
mc.play_media("http://127.0.0.1:9/big-buck-bunny.mp4", "video/mp4", title="Big Buck Bunny", thumb=os.environ["ART"],
              stream_type="BUFFERED", media_info={"duration": 60})
mc.block_until_active(timeout=15)
cast.disconnect(timeout=5)
PY

shoot() {  # SCENE: the PNGs' name (mini-player, mini-player-ad)
for lang in en fa; do
  XDG_CONFIG_HOME="$work/config-$1-$lang" XDG_CACHE_HOME="$work/cache" GSETTINGS_BACKEND=keyfile CASTDECK_NO_DISCOVERY=1 \
    CASTDECK_LOCALEDIR="$work/locale" LANGUAGE=$lang LC_ALL=C.UTF-8 "$bin/castdeck" --device "$device" >/dev/null 2>&1 & app=$!
  SCENE=$1 LANG_TAG=$lang OUT="$out" /usr/bin/python3 - <<'PY'
import os, subprocess, sys, time
sys.path.insert(0, "Tests/System/gui")
from atspi_helpers import app_named, find_all, wait_for
app = app_named("castdeck")
# Wait for the media (the player page shows the seek bar), then open the mini player.
wait_for("the player", lambda: find_all(app, role="slider"))
time.sleep(6)  # some progress to show (in an ad: Skip Ad, skippable after 5 s)
subprocess.run(["gdbus", "call", "--session", "--dest", "io.github.castdeck.CastDeck", "--object-path",
                "/io/github/castdeck/CastDeck", "--method", "org.gtk.Actions.Activate", "mini-player", "[]", "{}"],
               check=True, capture_output=True)
frame = wait_for("the mini player", lambda: [f for f in find_all(app, role="frame")
                                             if f.name in ("CastDeck mini player", "پخش‌کنندهٔ کوچک CastDeck")])[0]
time.sleep(1.5)
x, y, w, h = frame.queryComponent().getExtents(0)
name = f"{os.environ['OUT']}/{os.environ['SCENE']}-{os.environ['LANG_TAG']}.png"
subprocess.run(["import", "-window", "root", "-crop", f"{w + 24}x{h + 24}+{max(0, x - 12)}+{max(0, y - 12)}", "+repage", name],
               check=True)
print(name, f"{w}x{h}")
PY
  kill $app; wait $app 2>/dev/null || true
done
}
shoot mini-player

# During an ad: a film whose pre-roll clip has a title, a poster and a link (issue 31).
convert -size 320x180 gradient:'#613583-#f8e45c' "$work/www/ad.png"
cat >"$work/ads.json" <<JSON
{"breaks": [{"id": "pre", "position": 0, "breakClipIds": ["sale", "tyres"]}],
 "breakClips": [{"id": "sale", "title": "Summer Sale", "contentId": "http://127.0.0.1:9/sale.mp4", "duration": 600,
                 "whenSkippable": 5, "posterUrl": "http://127.0.0.1:$artport/ad.png", "clickThroughUrl": "https://example.com/sale"},
                {"id": "tyres", "title": "Winter Tyres", "contentId": "http://127.0.0.1:9/tyres.mp4", "duration": 30}]}
JSON
"$bin/castctl" cast --device "$device" http://127.0.0.1:9/big-buck-bunny.mp4 --title "Big Buck Bunny" \
  --poster "http://127.0.0.1:$artport/art.png" --content-type video/mp4 --ad-breaks "$work/ads.json" >/dev/null
shoot mini-player-ad
