#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Hostile metadata (issue 17): the real window (castdeck --device) under Xvfb, read through
# AT-SPI, fed MEDIA_STATUS messages no honest receiver sends, through the simulator's test
# hook (SEND_MEDIA_STATUS on urn:x-cast:io.github.castdeck.simulator, with --clock manual;
# docs/receiver.md). Artwork comes from a local server that never answers or streams 5 GB.
# The window's main loop is watched with CASTDECK_MAINLOOP_PROBE; the longest stall is printed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
swift build --product castdeck >/dev/null
swift build --product castctl >/dev/null
./scripts/build-data.sh >/dev/null
bin="$(swift build --show-bin-path)"

if [[ -z "${CASTDECK_GUI_INNER:-}" ]]; then
  export CASTDECK_GUI_INNER=1
  exec dbus-run-session -- "$0" "$@"
fi
source Tests/System/gui/desktop-session.sh 1024x900
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data" GSETTINGS_BACKEND=keyfile \
  LANGUAGE=en LC_ALL=C.UTF-8 CASTDECK_NO_DISCOVERY=1

"$bin/castctl" receiver --port 0 --clock manual >"$work/receiver.out" 2>"$work/receiver.log" & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$work/receiver.out" 2>/dev/null && break; sleep 0.1; done
device="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/receiver.out")"
iport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 Tests/System/hostile/image_server.py "$iport" "$work/images.log" & pids+=($!)
"$bin/castctl" cast --device "$device" http://127.0.0.1:9/start.mp4 --title "Hostile Start" --timeout 10 >/dev/null

CASTDECK_MAINLOOP_PROBE="$work/probe.jsonl" "$bin/castdeck" --device "$device" >"$work/app.log" 2>&1 & pids+=($!)
app=$!
status=0
CASTCTL="$bin/castctl" HOSTILE_DEVICE="$device" IMAGES_URL="http://127.0.0.1:$iport" IMAGE_LOG="$work/images.log" \
  PROBE_FILE="$work/probe.jsonl" WORK="$work" CASTDECK_PID="$app" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 600 /usr/bin/python3 Tests/System/gui/test_hostile.py || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- castdeck log"; head -80 "$work/app.log"; echo "--- receiver log"; tail -20 "$work/receiver.log"
fi
exit $status
