#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Screenshots of the window (device list, mini controller, expanded controller, ad banner,
# chapters menu, tracks popover, style editor, a live stream behind its edge, the Move dialog, the
# Cast Screen dialog and the banner while the screen is cast) in English and Persian, driven through AT-SPI against the demo receiver
# (and a second simulator, "Kitchen Speaker", remembered by address, for Move to…).
# Usage: scripts/screenshots.sh [OUTDIR]   (default: artifacts/screenshots, not committed)
# SIZES="360x640 1280x800 1920x1080" (the default) picks the window sizes; files are named
# <shot>-<size>-<lang>.png.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/artifacts/screenshots}"
mkdir -p "$out"
cd "$root"
[[ -n "${CASTDECK_SKIP_BUILD:-}" ]] || { swift build --product castdeck >/dev/null && swift build --product castctl >/dev/null; }
./scripts/build-data.sh >/dev/null
bin="$root/.build/debug"

if [[ -z "${CASTDECK_SHOTS_INNER:-}" ]]; then
  export CASTDECK_SHOTS_INNER=1
  exec dbus-run-session -- "$0" "$out"
fi

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=atspi GSETTINGS_BACKEND=keyfile CASTDECK_NO_DISCOVERY=1
/usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 & pids+=($!)
# The device Move to… offers (scene 7).
kitchen_out=$(mktemp)
"$bin/castctl" receiver --port 0 --name "Kitchen Speaker" >"$kitchen_out" 2>/dev/null & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$kitchen_out" 2>/dev/null && break; sleep 0.1; done
kitchen_port=$(sed -n 's/^listening on .*://p' "$kitchen_out")
sleep 0.5

for size in ${SIZES:-360x640 1280x800 1920x1080}; do
w=${size%x*}; h=${size#*x}
display=":$((190 + RANDOM % 50))"
Xvfb "$display" -noreset -screen 0 "${w}x${h}x24" -nolisten tcp >/dev/null 2>&1 & xvfb=$!
export DISPLAY="$display"
for _ in $(seq 50); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.1; done
for lang in ${LANGS:-en fa}; do
  cfg="$(mktemp -d)"
  # The window opens at the screen's size (the size it remembers, in a private keyfile).
  mkdir -p "$cfg/glib-2.0/settings"
  printf '[io/github/castdeck/CastDeck]\nwindow-width=%s\nwindow-height=%s\n' "$w" "$h" > "$cfg/glib-2.0/settings/keyfile"
  mkdir -p "$cfg/castdeck"
  printf '{"version": 1, "devices": [{"host": "127.0.0.1", "port": %s, "name": "Kitchen Speaker"}]}\n' "$kitchen_port" > "$cfg/castdeck/devices.json"
  dport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  XDG_CONFIG_HOME="$cfg" LANGUAGE=$lang LC_ALL=C.UTF-8 CASTDECK_DEMO_PORT=$dport "$bin/castdeck" --demo >/dev/null 2>&1 & app=$!
  LANG_TAG="$size-$lang" OUT="$out" DEMO_PORT=$dport /usr/bin/python3 - <<'PY'
import os, sys, time
sys.path.insert(0, "Tests/System/gui")
from atspi_helpers import app_named, find, find_all, click, wait_for, states
import gettext, pyatspi
lang, out = os.environ["LANG_TAG"], os.environ["OUT"]
# Widgets are found by their accessible names in the UI language, through the app's own
# translations (what scripts/build-data.sh compiled), so any language in po/LINGUAS works.
_t = gettext.translation("castdeck", ".build/castdeck-data/locale", languages=[lang.split("-")[-1]], fallback=True)
def T(message):
    return _t.gettext(message)
def shot(name):
    time.sleep(0.8)
    os.system(f"import -window root {out}/{name}-{lang}.png")
app = app_named("castdeck")
def by_role(role, index=0):
    return wait_for(role, lambda: find_all(app, role=role)[index] if len(find_all(app, role=role)) > index else None)

time.sleep(1.5)
shot("1-device-list")
buttons = lambda: [b for b in find_all(app, role="push button")]
import re
# The demo receiver (the Kitchen Speaker of scene 7 is listed too).
connect_name = re.compile("^" + re.escape(T("Connect to {0}")).replace(re.escape("{0}"), ".*" + re.escape(T("Demo Receiver")) + ".*") + "$")
connect = wait_for("connect button", lambda: [b for b in buttons() if connect_name.match(b.name)][0])
click(connect)
cast = wait_for("cast sample", lambda: [b for b in buttons() if b.name.lower() == T("Cast Sample").lower()][0])
shot("1b-connected")
click(cast)
time.sleep(2.5)
shot("2-ad-banner")
skip_names = (T("Skip Ad").lower(),)
def out_of_ads():
    s = [b for b in buttons() if b.name.lower() in skip_names]
    if not s:
        return True
    if "sensitive" in states(s[0]):
        click(s[0])
    return False
wait_for("ads to end", out_of_ads, timeout=90, interval=0.5)
time.sleep(1)
shot("3-expanded-controller")
# The sample's chapters (issue 31): the Chapters menu open, then the tracks popover with its
# captions; each is closed again by its own button.
for menu, name in ((T("Chapters"), "3b-chapters-menu"), (T("Subtitles and audio"), "3c-tracks")):
    opener = find(app, menu)
    click(opener)
    wait_for(name, lambda: find_all(app, role="radio button"))
    shot(name)
    click(opener)
    wait_for(f"{name} closed", lambda: not find_all(app, role="radio button"))
back = [b for b in buttons() if b.name == T("Back to devices")][0]
click(back)
shot("4-mini-controller")
opener = [b for b in buttons() if b.name == T("Open expanded controller")][0]
click(opener)
time.sleep(0.5)
style = [b for b in buttons() if b.name == T("Subtitle style")][0]
click(style)
time.sleep(0.5)
for n in find_all(app, role="push button"):
    if n.name in (f"{T('Edge type')}: {T('Outline')}", f"{T('Window type')}: {T('Rounded corners')}"):
        click(n)
shot("5-style-editor")
# 6: a live stream with a replay window, loaded by another sender (a bare Cast sender), 30 s
# behind its live edge: the Live badge, the seek bar over the window, −0:30 and Go to Live.
os.system("xdotool key Escape")
sys.path.insert(0, "Tests/System")
from castraw import CONNECTION_NS, RawSender
MEDIA_NS, RECEIVER_NS = "urn:x-cast:com.google.cast.media", "urn:x-cast:com.google.cast.receiver"
sender = RawSender("127.0.0.1", int(os.environ["DEMO_PORT"]), source="sender-shots")
apps = sender.request(RECEIVER_NS, "receiver-0", {"type": "GET_STATUS"})["status"]["applications"]
transport = apps[0]["transportId"]
sender.send(CONNECTION_NS, transport, {"type": "CONNECT"})
live = {"contentId": "https://tv.example/news/live.m3u8", "contentType": "application/x-mpegURL", "streamType": "LIVE",
        "metadata": {"metadataType": 0, "title": "Evening News", "subtitle": "News 24"}}
status = sender.request(MEDIA_NS, transport, {"type": "LOAD", "media": live, "autoplay": True})["status"][0]
edge = status.get("liveSeekableRange", {}).get("end", 120)
sender.request(MEDIA_NS, transport, {"type": "SEEK", "mediaSessionId": status["mediaSessionId"], "currentTime": edge - 30})
sender.close()
wait_for("the Live badge", lambda: find_all(app, T("Go to Live")))
time.sleep(1.5)
shot("6-live")
# 7: Move to…, the other device chosen.
click(find(app, T("Move to Another Device"), "push button"))
dialog = find(app, T("Move Playback"), "dialog", timeout=20)
choice = wait_for("a device to move to", lambda: [n for n in find_all(dialog) if n.getRoleName() in ("radio button", "toggle button")][0])
click(choice)
shot("7-move-dialog")
os.system("xdotool key Escape")
wait_for("the Move dialog closed", lambda: not find_all(app, T("Move Playback"), "dialog"))
# 8, 9: Cast Screen… from the main menu (the demo receiver runs the mirroring apps), then the
# banner over the player while this Xvfb screen is cast; Stop ends it.
click(find(app, T("Main menu")))
click(find(app, T("Cast Screen…"), "menu item", timeout=10))
find(app, T("Cast Screen"), "dialog", timeout=20)
shot("8-cast-screen-dialog")
dialog = find(app, T("Cast Screen"), "dialog")
# The picture alone (the desktop's sound over Cast Streaming comes with another piece of issue 33).
sound = [n for n in find_all(dialog, T("Sound")) if n.getRoleName() in ("check box", "switch", "toggle button")][0]
if "checked" in states(sound):
    click(sound)
cast = [b for b in find_all(dialog, role="push button") if b.name == T("C_ast").replace("_", "")][0]
click(cast)
stop = re.compile("^" + re.escape(T("Stop casting to {0}")).replace(re.escape("{0}"), ".*") + "$")
banner = wait_for("the banner's Stop", lambda: [b for b in buttons() if stop.match(b.name)][0], timeout=30)
# Once the device answers, the spinner gives way to the icon.
wait_for("streaming", lambda: not find_all(app, T("Starting")), timeout=30)
time.sleep(1)
shot("9-mirror-banner")
click(banner)
PY
  kill $app 2>/dev/null || true; wait $app 2>/dev/null || true
  rm -rf "$cfg"
done
kill $xvfb 2>/dev/null || true; wait $xvfb 2>/dev/null || true
done
ls "$out"
