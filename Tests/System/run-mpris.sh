#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# MPRIS, casting in the background and the mini player (issue 14), ads on every surface
# (issue 31: test_ads.py), with real clients on a
# private session bus: the simulator (`castctl receiver`) plays media that pychromecast loads
# first, `castdeck --device HOST:PORT` joins, and playerctl, gdbus, dbus-monitor and AT-SPI
# (the window under Xvfb) check what CastDeck says and does.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v playerctl >/dev/null && command -v dbus-monitor >/dev/null && command -v xdotool >/dev/null && [[ -x .venv/bin/python ]] || ./scripts/setup.sh
swift build --product castdeck >/dev/null
swift build --product castctl >/dev/null
./scripts/build-data.sh >/dev/null
bin="$(swift build --show-bin-path)"

if [[ -z "${CASTDECK_MPRIS_INNER:-}" ]]; then
  # A private session bus: our MPRIS name, the test's clients and AT-SPI, nobody else's players.
  export CASTDECK_MPRIS_INNER=1
  exec dbus-run-session -- "$0" "$@"
fi

source Tests/System/gui/desktop-session.sh 1024x800

# Artwork served over HTTP on loopback (the image cache fetches it as for any media).
mkdir -p "$work/www"
convert -size 320x180 gradient:'#3465a4-#f57900' "$work/www/art.png"
artport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$artport" --bind 127.0.0.1 --directory "$work/www" >/dev/null 2>&1 & pids+=($!)

"$bin/castctl" receiver --port 0 --name "Living Room TV" >"$work/receiver.out" 2>"$work/receiver.log" & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$work/receiver.out" 2>/dev/null && break; sleep 0.1; done
device="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/receiver.out")"

export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" XDG_STATE_HOME="$work/state" \
  XDG_DATA_HOME="$work/data" GSETTINGS_BACKEND=keyfile LANGUAGE=en LC_ALL=C.UTF-8 CASTDECK_NO_DISCOVERY=1
status=0
# MPRIS_ONLY=ads runs test_ads.py alone.
[[ "${MPRIS_ONLY:-}" == ads ]] || CASTDECK="$bin/castdeck" CASTCTL="$bin/castctl" DEVICE="$device" \
  ART_URL="http://127.0.0.1:$artport/art.png" WORK="$work" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 400 .venv/bin/python Tests/System/mpris/test_mpris.py || status=$?
# Ads on every surface: a new cast with a pre-roll, a fresh castdeck (test_ads.py).
[[ $status -ne 0 ]] || CASTDECK="$bin/castdeck" CASTCTL="$bin/castctl" DEVICE="$device" \
  ART_URL="http://127.0.0.1:$artport/art.png" WORK="$work" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 300 /usr/bin/python3 Tests/System/mpris/test_ads.py || status=$?
if [[ $status -ne 0 ]]; then
  for log in "$work"/castdeck*.log; do echo "--- $log"; tail -30 "$log"; done
  [[ -z "${MPRIS_KEEP_LOGS:-}" ]] || cp "$work"/*.log "$MPRIS_KEEP_LOGS"/
  echo "--- receiver log"; tail -20 "$work/receiver.log"
fi
exit $status
