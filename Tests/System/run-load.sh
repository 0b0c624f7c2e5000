#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Load (issue 17): 10 senders (5 pychromecast, 5 CastClient through castdeck-load-sender)
# send LOAD_COMMANDS requests each (default 300: the short form `make check` runs) to the
# simulator while the real window (castdeck --device, Xvfb, read through AT-SPI) and
# `castctl watch --json` follow it. LOAD_COMMANDS=10000 is the full run; SOAK_SECONDS=7200
# repeats the senders until two hours have passed (`make soak`). LOAD_RESULTS=FILE writes
# the figures as JSON. See Tests/System/gui/test_load.py for the checks.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
for p in castdeck castctl castdeck-load-sender; do swift build --product $p >/dev/null; done
./scripts/build-data.sh >/dev/null
bin="$(swift build --show-bin-path)"

if [[ -z "${CASTDECK_GUI_INNER:-}" ]]; then
  export CASTDECK_GUI_INNER=1
  exec dbus-run-session -- "$0" "$@"
fi
source Tests/System/gui/desktop-session.sh 1024x900
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data" GSETTINGS_BACKEND=keyfile \
  LANGUAGE=en LC_ALL=C.UTF-8 CASTDECK_NO_DISCOVERY=1

"$bin/castctl" receiver --port 0 >"$work/receiver.out" 2>"$work/receiver.log" & pids+=($!)
receiver=$!
for _ in $(seq 100); do grep -q "^listening on " "$work/receiver.out" 2>/dev/null && break; sleep 0.1; done
device="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/receiver.out")"
"$bin/castctl" cast --device "$device" http://127.0.0.1:9/load.mp4 --title "Load Test" --timeout 10 >/dev/null

CASTDECK_MAINLOOP_PROBE="$work/probe.jsonl" "$bin/castdeck" --device "$device" >"$work/app.log" 2>&1 & pids+=($!)
app=$!
"$bin/castctl" watch --json --device "$device" >"$work/watch.jsonl" 2>"$work/watch.log" & pids+=($!)
watch=$!
status=0
CASTCTL="$bin/castctl" LOAD_SENDER="$bin/castdeck-load-sender" VENV_PYTHON="$root/.venv/bin/python" \
  PY_SENDER="$root/Tests/System/load/pychromecast_sender.py" LOAD_DEVICE="$device" WATCH_FILE="$work/watch.jsonl" \
  CASTDECK_PID="$app" WATCH_PID="$watch" RECEIVER_PID="$receiver" PROBE_FILE="$work/probe.jsonl" \
  /usr/bin/python3 Tests/System/gui/test_load.py || status=$?
if [[ -f "$work/probe.jsonl" ]]; then
  python3 -c 'import json,sys; l=[json.loads(x) for x in open(sys.argv[1])]; m=max(x["max_ms"] for x in l); print("     castdeck main loop: longest stall %.1f ms over %d s (start-up included)" % (m, len(l)))' "$work/probe.jsonl" || true
fi
if ! kill -0 "$app" 2>/dev/null; then
  set +e; wait "$app"; echo "castdeck exited with status $?"; set -e
  status=1
fi
if [[ $status -ne 0 ]]; then
  echo "--- castdeck log"; head -60 "$work/app.log"; echo "--- castctl watch log"; tail -20 "$work/watch.log"
  echo "--- receiver log"; tail -20 "$work/receiver.log"
fi
exit $status
