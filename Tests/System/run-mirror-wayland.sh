#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System tests of mirroring a Wayland desktop through the ScreenCast portal (issue 33,
# docs/mirroring.md): a real GNOME stack without a screen — mutter headless with a 1280x720
# virtual monitor, PipeWire and WirePlumber, xdg-desktop-portal with its GNOME backend —
# where mirror/wl_counter.py draws the frame counter fullscreen. `castctl mirror` asks the
# portal, whose own "Screen Share" dialog is answered through AT-SPI (mirror/portal_pick.py)
# as a person would; the picture comes from PipeWire (GStreamer's pipewiresrc) and goes over
# Cast Streaming to `castctl receiver --mirror-output`. Cases: Share (pictures not black, the
# counter advances), and the same over the HTTP live path read by ffmpeg; Cancel in the dialog (one sentence, status 1, the device untouched),
# chosen without --portal because XDG_SESSION_TYPE says wayland; a desktop without the
# portal (one sentence, status 1); the window (castdeck on the same desktop): Cast Screen…,
# Share, Stop, and Cancel in the dialog said in a toast. Everything runs on a private session
# bus and runtime directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/System/mirror/lib.sh
tools="mutter pipewire wireplumber gst-launch-1.0 ffmpeg dbus-run-session"
if [[ ${1:-} != --inside ]]; then
  missing() { for t in $tools; do command -v "$t" >/dev/null || return 0; done; [[ ! -x /usr/libexec/xdg-desktop-portal-gnome ]]; }
  if missing; then ./scripts/setup.sh >/dev/null; fi
  if missing; then echo "FAIL: mutter, pipewire, wireplumber, GStreamer and xdg-desktop-portal-gnome are needed (scripts/setup.sh)" >&2; exit 1; fi
  gst-inspect-1.0 pipewiresrc >/dev/null 2>&1 || { echo "FAIL: GStreamer's pipewiresrc is needed (gstreamer1.0-pipewire)" >&2; exit 1; }
  if [[ -z ${CASTCTL:-} ]]; then
    swift build --product castctl >/dev/null
    CASTCTL="$(swift build --show-bin-path)/castctl"
  fi
  if [[ -z ${CASTDECK:-} ]]; then
    swift build --product castdeck >/dev/null
    ./scripts/build-data.sh >/dev/null
    CASTDECK="$(swift build --show-bin-path)/castdeck"
  fi
  export CASTCTL CASTDECK
  exec dbus-run-session -- bash ${MIRROR_TRACE:+-x} "$0" --inside
fi
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  # The document portal, started with the portal, mounts a FUSE file system in the runtime directory.
  fusermount -u "$work/runtime/doc" 2>/dev/null || umount -l "$work/runtime/doc" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; for f in "$work"/*.err "$work"/*.out "$work"/*.log; do [[ -s $f ]] && { echo "--- $f" >&2; tail -n 8 "$f" | cut -c1-300 >&2; }; done; exit 1; }

# --- the desktop: its own runtime directory, PipeWire, mutter without a screen
export XDG_RUNTIME_DIR="$work/runtime" XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_TYPE=wayland GSETTINGS_BACKEND=memory
mkdir -m 700 "$XDG_RUNTIME_DIR"
unset DISPLAY WAYLAND_DISPLAY
pipewire >"$work/pipewire.log" 2>&1 & pids+=($!)
for _ in $(seq 50); do [[ -S $XDG_RUNTIME_DIR/pipewire-0 ]] && break; sleep 0.1; done
wireplumber >"$work/wireplumber.log" 2>&1 & pids+=($!)
mutter --headless --virtual-monitor 1280x720 --wayland --no-x11 >"$work/mutter.log" 2>&1 & pids+=($!)
for _ in $(seq 100); do [[ -S $XDG_RUNTIME_DIR/wayland-0 ]] && break; sleep 0.1; done
[[ -S $XDG_RUNTIME_DIR/wayland-0 ]] || fail "mutter did not start"
export WAYLAND_DISPLAY=wayland-0
# The portal and its GNOME backend are started by the bus when first asked: with this desktop.
dbus-update-activation-environment XDG_RUNTIME_DIR WAYLAND_DISPLAY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE GSETTINGS_BACKEND
GDK_BACKEND=wayland /usr/bin/python3 Tests/System/mirror/wl_counter.py >"$work/counter.out" 2>"$work/counter.log" & pids+=($!)
wait_for "$work/counter.out" '^shown' 20 || fail "wl_counter.py did not show its window"

"$CASTCTL" receiver --port 0 --setup-port 0 --mirror-output "$work/frames" >"$work/receiver.out" 2>"$work/receiver.err" & pids+=($!)
wait_for "$work/receiver.out" 'listening on' 20 || fail "the simulator did not start"
port=$(sed -n 's/^listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$work/receiver.out")

# --- 1. Share in the portal's dialog
"$CASTCTL" mirror --portal --device "127.0.0.1:$port" >"$work/m1.out" 2>"$work/m1.err" &
mirror=$!
/usr/bin/python3 Tests/System/mirror/portal_pick.py share >"$work/pick1.out" 2>"$work/pick1.err" || fail "share: $(cat "$work/pick1.out")"
# Stopped (SIGINT, as Ctrl-C) once the receiver decoded 60 pictures, however long that takes here.
for _ in $(seq 1200); do
  [[ $(grep -c '"decoded"' "$work/frames/frames.jsonl" 2>/dev/null || true) -ge 60 ]] && break
  kill -0 "$mirror" 2>/dev/null || break
  sleep 0.1
done
kill -INT "$mirror" 2>/dev/null || true
wait "$mirror" || fail "share: castctl mirror failed"
grep -q "^Mirroring the screen chosen in the desktop's dialog to 127.0.0.1:$port at 1280x720" "$work/m1.out" || fail "share: no start line"
grep -q "^Mirroring stopped" "$work/m1.out" || fail "share: no end line"
report=$(python3 Tests/System/mirror/frames.py "$work/frames" 1)
[[ $(field '["decoded"]' <<<"$report") -ge 60 ]] || fail "share: too few pictures decoded: $report"
python3 - "$report" <<'PY' || fail "share: the pictures"
import json, sys
r = json.loads(sys.argv[1]); c = r["counters"]
if len(c) < 3: sys.exit(f"FAIL: only {len(c)} pictures kept ({r})")
if any(b < a for a, b in zip(c, c[1:])): sys.exit(f"FAIL: the counter went back: {c}")
if c[-1] - c[0] < 20: sys.exit(f"FAIL: the counter advanced only {c[-1] - c[0]}: {c}")
if r["min_luma"] is None or r["min_luma"] < 20: sys.exit(f"FAIL: a black picture ({r})")
PY
echo "ok - Share in the portal's dialog: $(field '["decoded"]' <<<"$report") pictures from PipeWire decoded, counters $(field '["counters"][0]' <<<"$report")…$(field '["counters"][-1]' <<<"$report")"

# --- 1b. the same over the HTTP live path: ffmpeg, as a player, reads the counter back
"$CASTCTL" mirror --portal --http --device "127.0.0.1:$port" >"$work/h1.out" 2>"$work/h1.err" &
mirror=$!
/usr/bin/python3 Tests/System/mirror/portal_pick.py share >"$work/pick1b.out" 2>"$work/pick1b.err" || fail "http: $(cat "$work/pick1b.out")"
wait_for "$work/h1.out" "over HTTP" 60 || fail "http: castctl did not start"
url=$(grep -o 'http://[^ ]*screen.mp4' "$work/h1.out" | head -1)
python3 - "$url" <<'PY' >"$work/h1.report" || fail "http: $(cat "$work/h1.report")"
import subprocess, sys
raw = subprocess.run(["ffmpeg", "-v", "error", "-i", sys.argv[1], "-frames:v", "60", "-vf", "scale=160:90,format=gray",
                      "-f", "rawvideo", "-"], capture_output=True, timeout=120).stdout
size = 160 * 90
frames = [raw[i:i + size] for i in range(0, len(raw) - size + 1, size)]
def counter(f):
    row = 90 // 12
    v = 0
    for bit in range(16):
        v = v << 1 | (f[row * 160 + bit * 10 + 5] > 128)
    return v
c = [counter(f) for f in frames[::10]]
lit = min(sum(f) // size for f in frames) if frames else 0
if len(frames) < 60 or any(b < a for a, b in zip(c, c[1:])) or c[-1] - c[0] < 5 or lit < 20:
    sys.exit(f"{len(frames)} frames, counters {c}, mean brightness at least {lit}")
print(f"{len(frames)} frames read over HTTP, counters {c[0]}…{c[-1]}")
PY
kill -INT "$mirror"
wait "$mirror" || fail "http: castctl mirror --http did not exit 0 on Ctrl-C"
echo "ok - the portal's screen over the HTTP live path: $(cat "$work/h1.report")"

# --- 2. Cancel in the dialog; the portal is chosen because the session is Wayland
sessions_before=$(grep -c '"event":"offer"\|"event": "offer"' "$work/frames/frames.jsonl" || true)
set +e
"$CASTCTL" mirror --device "127.0.0.1:$port" >"$work/m2.out" 2>"$work/m2.err" &
mirror=$!
/usr/bin/python3 Tests/System/mirror/portal_pick.py cancel >"$work/pick2.out" 2>"$work/pick2.err"
picked=$?
wait "$mirror"; status=$?
set -e
[[ $picked == 0 ]] || fail "cancel: $(cat "$work/pick2.out")"
[[ $status == 1 && $(wc -l <"$work/m2.err") == 1 ]] || fail "cancel: status $status, stderr $(cat "$work/m2.err")"
grep -q "refused in the desktop's dialog" "$work/m2.err" || fail "cancel: $(cat "$work/m2.err")"
"$CASTCTL" status --device "127.0.0.1:$port" --json >"$work/status.out" 2>"$work/status.err" || fail "status after cancel"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); apps=[a.get("appId") for a in (s.get("receiver") or s).get("applications", [])]; sys.exit("FAIL: an app runs: %s" % apps if "0F5096E8" in apps else 0)' "$work/status.out" || fail "cancel: the mirroring app was started"
echo "ok - Cancel in the dialog (the portal chosen by XDG_SESSION_TYPE=wayland): \"$(cat "$work/m2.err")\"; the device untouched"

# --- 3. a desktop without the portal: a bus that can start no services
mkdir -p "$work/no-services"
cat >"$work/bare-bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:tmpdir=$work</listen><servicedir>$work/no-services</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
CONF
set +e
dbus-run-session --config-file="$work/bare-bus.conf" -- "$CASTCTL" mirror --portal --device "127.0.0.1:$port" >"$work/m3.out" 2>"$work/m3.all"
status=$?
set -e
# The bus daemon may say something of its own (an fd limit it cannot raise): castctl's lines only.
grep -v "^dbus-daemon" "$work/m3.all" >"$work/m3.err" || true
[[ $status == 1 && $(wc -l <"$work/m3.err") == 1 ]] || fail "no portal: status $status, stderr $(cat "$work/m3.err")"
grep -q "no screen-cast portal" "$work/m3.err" || fail "no portal: $(cat "$work/m3.err")"
echo "ok - a desktop without the portal: \"$(cat "$work/m3.err")\""
# --- 4. the window: castdeck on the Wayland desktop, Cast Screen…, the desktop's dialog
mkdir -p "$work/config/castdeck"
cat >"$work/config/castdeck/devices.json" <<JSON
{"version": 1, "devices": [{"host": "127.0.0.1", "port": $port, "name": "Living Room TV"}]}
JSON
XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" GSETTINGS_BACKEND=keyfile CASTDECK_NO_DISCOVERY=1 GDK_BACKEND=wayland \
  LANGUAGE=en LC_ALL=C.UTF-8 "$CASTDECK" --device "127.0.0.1:$port" >"$work/castdeck.log" 2>&1 & pids+=($!)
MIRROR_OUTPUT="$work/frames" timeout 300 /usr/bin/python3 Tests/System/mirror/wayland_window.py >"$work/window.out" 2>&1 \
  || { cat "$work/window.out"; fail "the window on Wayland"; }
sed 's/^/  /' "$work/window.out"
echo "ok - the window casts the Wayland screen through the desktop's dialog, and says when it is refused"
echo "mirror (Wayland portal): all passed"
