#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Screenshots of going on where playback stopped (issue 36) in English and Persian: the
# "Resume Playback?" question (a file cast, sought to 1:10 and stopped by castctl, then cast
# again with `castdeck FILE`) and the Preferences window (Ctrl+comma) with its switch.
# Usage: scripts/screenshots-resume.sh [OUTDIR]   (default: artifacts/screenshots)
set -euo pipefail
source "$(dirname "$0")/screenshots-prelude.sh"

source Tests/System/gui/desktop-session.sh 900x640
ffmpeg -v error -nostdin -y -f lavfi -i testsrc=size=320x240:rate=10:duration=120 -f lavfi -i sine=duration=120 \
  -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest -movflags +faststart \
  -metadata title="Big Buck Bunny" "$work/Big Buck Bunny.mp4"
"$bin/castctl" receiver --port 0 --name "Living Room TV" >"$work/receiver.out" 2>/dev/null & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$work/receiver.out" 2>/dev/null && break; sleep 0.1; done
device="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/receiver.out")"

for lang in en fa; do
  export XDG_CONFIG_HOME="$work/config-$lang" XDG_STATE_HOME="$work/state-$lang" XDG_CACHE_HOME="$work/cache" \
    GSETTINGS_BACKEND=keyfile CASTDECK_NO_DISCOVERY=1 LANGUAGE=$lang LC_ALL=C.UTF-8
  "$bin/castdeck" --device "$device" "$work/Big Buck Bunny.mp4" >"$work/app-$lang.log" 2>&1 & app=$!
  LANG_TAG=$lang OUT="$out" CASTCTL="$bin/castctl" CASTDECK="$bin/castdeck" DEVICE="$device" \
    FILE="$work/Big Buck Bunny.mp4" /usr/bin/python3 - <<'PY'
import os, subprocess, sys, time
sys.path.insert(0, "Tests/System/gui")
from atspi_helpers import app_named, castctl, find_all, press_keys, receiver_media, wait_for
env = os.environ
app = app_named("castdeck")
device, tag = env["DEVICE"], env["LANG_TAG"]
wait_for("the file playing", lambda: receiver_media(env["CASTCTL"], device).get("playerState") == "PLAYING", timeout=40)
castctl(env["CASTCTL"], device, "seek", "70")
time.sleep(1.5)
castctl(env["CASTCTL"], device, "stop")
time.sleep(1.5)
subprocess.run([env["CASTDECK"], env["FILE"]], check=True, capture_output=True, timeout=30)
# Found by role, not by its (translated) heading.
dialog = wait_for("the question", lambda: find_all(app, role="dialog"), timeout=20)[0]
time.sleep(1)
subprocess.run(["import", "-window", "root", f"{env['OUT']}/resume-dialog-{tag}.png"], check=True)
press_keys(dialog.name, "Escape")
wait_for("the question gone", lambda: not find_all(app, role="dialog"))
main = wait_for("the main window", lambda: find_all(app, role="frame"))[0]
press_keys(main.name, "ctrl+comma")
prefs = wait_for("the preferences", lambda: [f for f in find_all(app, role="frame") if f.name != main.name], timeout=20)[0]
time.sleep(1)
subprocess.run(["import", "-window", "root", f"{env['OUT']}/preferences-{tag}.png"], check=True)
press_keys(prefs.name, "Escape")
print(f"{env['OUT']}/resume-dialog-{tag}.png", f"{env['OUT']}/preferences-{tag}.png")
PY
  kill $app; wait $app 2>/dev/null || true
done
