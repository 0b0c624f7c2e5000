#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System tests of queues: castctl (cast DIR / playlists / castctl queue) with pychromecast
# 14.0.10 as a second sender, against `castctl receiver` over TLS on loopback. Audio files
# are made with ffmpeg in the tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ -z "${CASTDECK_QUEUE_INNER:-}" ]]; then
  # A private session bus: the window and the AT-SPI test share one accessibility bus.
  export CASTDECK_QUEUE_INNER=1
  exec dbus-run-session -- "$0" "$@"
fi
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
swift build --product castctl >/dev/null
swift build --product castdeck >/dev/null
./scripts/build-data.sh >/dev/null
bin="$(swift build --show-bin-path)"
export CASTCTL="$bin/castctl"
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
export CASTDECK_RECEIVER_LOG="${CASTDECK_RECEIVER_LOG:-$work/receiver.log}" CASTDECK_TEST_STATE="$work/state" XDG_STATE_HOME="$work/state"
status=0
.venv/bin/python -m pytest -q -s -p no:cacheprovider Tests/System/queue "$@" || status=$?
if ((status != 0)); then
  echo "--- receiver log (last 60 lines)"; tail -n 60 "$CASTDECK_RECEIVER_LOG" || true
fi

# The window: Xvfb + AT-SPI, a receiver, `castctl cast DIR` serving three tagged files,
# then castdeck joining what plays.
source Tests/System/gui/xvfb.sh
start_xvfb 1024x900 || exit 1
export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=atspi
/usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 & pids+=($!)
sleep 0.5
mkdir -p "$work/album"
for spec in "1:One" "2:Two" "10:Ten"; do
  n=${spec%%:*}; t=${spec#*:}
  ffmpeg -v error -nostdin -y -f lavfi -i "sine=frequency=$((220 * n)):duration=120" -metadata title="$t" \
    -metadata artist="The Testers" -c:a libmp3lame -q:a 9 "$work/album/$n - $t.mp3"
done
ffmpeg -v error -nostdin -y -f lavfi -i "sine=duration=60" -metadata title="Extra" -c:a libmp3lame -q:a 9 "$work/extra.mp3"
"$bin/castctl" receiver --port 0 >"$work/gui-receiver.out" 2>"$work/gui-receiver.log" & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$work/gui-receiver.out" 2>/dev/null && break; sleep 0.1; done
dev="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/gui-receiver.out")"
"$bin/castctl" cast "$work/album" --device "$dev" >"$work/cast.out" 2>&1 & pids+=($!)
for _ in $(seq 100); do grep -q "^Casting " "$work/cast.out" 2>/dev/null && break; sleep 0.1; done
export XDG_CONFIG_HOME="$work/config" GSETTINGS_BACKEND=keyfile LANGUAGE="${QUEUE_LANGUAGE:-en}" LC_ALL=C.UTF-8 CASTDECK_NO_DISCOVERY=1
"$bin/castdeck" --device "$dev" >"$work/app.log" 2>&1 & pids+=($!)
gstatus=0
WORK_DIR="$work" CASTCTL="$bin/castctl" CASTDECK="$bin/castdeck" EXTRA_FILE="$work/extra.mp3" QUEUE_DEVICE="$dev" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 300 /usr/bin/python3 Tests/System/gui/test_queue_window.py || gstatus=$?
if ((gstatus != 0)); then
  echo "--- castdeck log"; tail -40 "$work/app.log"; echo "--- cast"; cat "$work/cast.out"
  status=$gstatus
fi
exit $status
