#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# GUI tests: the real castdeck window under Xvfb, read and driven through AT-SPI
# (Debian's python3-pyatspi), against castdeck's in-process simulated receiver; castctl,
# a separate sender process, checks what the receiver reports.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
swift build --product castdeck >/dev/null
swift build --product castctl >/dev/null
./scripts/build-data.sh >/dev/null
bin="$(swift build --show-bin-path)"

if [[ -z "${CASTDECK_GUI_INNER:-}" ]]; then
  # Private session bus so the app and the test share one accessibility bus.
  export CASTDECK_GUI_INNER=1
  exec dbus-run-session -- "$0" "$@"
fi

source Tests/System/gui/desktop-session.sh 1024x900

# A broken or missing window definition is a clear error and a non-zero exit, not a silent 0.
# GLib's resource overlay replaces the compiled-in main-window.ui with an invalid one.
mkdir -p "$work/overlay"
echo '<interface><object class="NoSuchWidget" id="window"/></interface>' >"$work/overlay/main-window.ui"
set +e
G_RESOURCE_OVERLAYS="/io/github/castdeck/CastDeck/ui=$work/overlay" XDG_CONFIG_HOME="$work/config" \
  CASTDECK_NO_DISCOVERY=1 GSETTINGS_BACKEND=keyfile timeout 30 "$bin/castdeck" >"$work/broken.log" 2>&1
broken=$?
set -e
if [[ $broken -eq 0 || $broken -eq 124 ]] || ! grep -q "cannot load the window definition" "$work/broken.log"; then
  echo "FAIL castdeck with a broken main-window.ui exited with $broken:"; cat "$work/broken.log"; exit 1
fi
echo "ok   a broken window definition exits with status $broken"

# GUI_ONLY=window|churn|files|resume|live|truth|devices|chapters|artwork|kinds|move|groups|mirror runs one part (while debugging); the default runs all.
only="${GUI_ONLY:-all}"
status=0
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# Settings and where playback stopped (issue 36) are each run's own.
export XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" GSETTINGS_BACKEND=keyfile LANGUAGE=en LC_ALL=C.UTF-8 CASTDECK_NO_DISCOVERY=1
if [[ $only == all || $only == window ]]; then
CASTDECK_DEMO_PORT=$port "$bin/castdeck" --demo >"$work/app.log" 2>&1 & pids+=($!)
CASTCTL="$bin/castctl" DEMO_DEVICE="127.0.0.1:$port" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 300 /usr/bin/python3 Tests/System/gui/test_window.py || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- castdeck log"; tail -40 "$work/app.log"
fi
# castdeck is one instance per session bus: end the demo before the next one.
kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
fi

# A screen reader reading the tree while dialogs, toasts, popovers and windows come and go must
# not bring castdeck down (issue 35): test_a11y_churn.py, against a demo of its own, with its
# own settings (it saves a default subtitle style).
if [[ $only == all || $only == churn ]]; then
cport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
XDG_CONFIG_HOME="$work/churn-config" CASTDECK_DEMO_PORT=$cport "$bin/castdeck" --demo >"$work/churn.log" 2>&1 & pids+=($!)
cstatus=0
CASTCTL="$bin/castctl" DEMO_DEVICE="127.0.0.1:$cport" APP_LOG="$work/churn.log" CASTDECK_PID="${pids[-1]}" \
  timeout 300 /usr/bin/python3 Tests/System/gui/test_a11y_churn.py || cstatus=$?
if [[ $cstatus -ne 0 ]]; then
  echo "--- castdeck log"; head -120 "$work/churn.log"
  status=$cstatus
fi
kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
fi

# A file given on the command line, served to a receiver that fetches media as a device does
# and proves it is genuine with a test CA (trusted only through CASTDECK_EXTRA_CAST_ROOTS).
command -v ffmpeg >/dev/null || ./scripts/setup.sh
mkdir -p "$work/media"
ffmpeg -v error -nostdin -y -f lavfi -i testsrc=size=320x240:rate=10:duration=120 -f lavfi -i sine=duration=120 \
  -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest -movflags +faststart \
  -metadata title="Test Film" "$work/media/film.mp4"
printf '1\n00:00:01,000 --> 00:01:00,000\nHello\n' >"$work/media/film.en.srt"
ffmpeg -v error -nostdin -y -f lavfi -i sine=duration=60 -c:a libmp3lame -metadata title="Second Film" "$work/media/second.mp3"
if [[ $only == all || $only == files ]]; then
"$bin/castctl" receiver --port 0 --fetch-media --auth-ca "$work/ca" >"$work/receiver.out" 2>"$work/receiver.log" & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$work/receiver.out" 2>/dev/null && break; sleep 0.1; done
fdev="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/receiver.out")"
CASTDECK_EXTRA_CAST_ROOTS="$work/ca/root.pem" "$bin/castdeck" --device "$fdev" "$work/media/film.mp4" >"$work/app2.log" 2>&1 & pids+=($!)
fstatus=0
CASTCTL="$bin/castctl" CASTDECK="$bin/castdeck" SECOND_FILE="$work/media/second.mp3" \
  FILE_DEVICE="$fdev" FILE_TITLE="Test Film" FILE_PATH="$work/media/film.mp4" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 200 /usr/bin/python3 Tests/System/gui/test_files_and_trust.py || fstatus=$?
if [[ $fstatus -ne 0 ]]; then
  echo "--- castdeck log"; tail -40 "$work/app2.log"; echo "--- receiver log"; tail -20 "$work/receiver.log"
  status=$fstatus
fi
kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
fi

# Going on where a file stopped (test_resume.py, issue 36): a receiver, a state folder and
# settings of its own, so nothing the other parts played is remembered here. GUI_ONLY=resume.
if [[ $only == all || $only == resume ]]; then
cp "$work/media/film.mp4" "$work/media/resume.mp4"
"$bin/castctl" receiver --port 0 >"$work/resume-receiver.out" 2>"$work/resume-receiver.log" & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$work/resume-receiver.out" 2>/dev/null && break; sleep 0.1; done
rdev="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/resume-receiver.out")"
XDG_STATE_HOME="$work/resume-state" XDG_CONFIG_HOME="$work/resume-config" \
  "$bin/castdeck" --device "$rdev" "$work/media/resume.mp4" >"$work/resume.log" 2>&1 & pids+=($!)
rstatus=0
CASTCTL="$bin/castctl" CASTDECK="$bin/castdeck" RESUME_DEVICE="$rdev" RESUME_FILE="$work/media/resume.mp4" \
  STATE_FILE="$work/resume-state/castdeck/playback-positions.json" SETTINGS_FILE="$work/resume-config/glib-2.0/settings/keyfile" \
  SHOTS_DIR="${SHOTS_DIR:-}" timeout 300 /usr/bin/python3 Tests/System/gui/test_resume.py || rstatus=$?
if [[ $rstatus -ne 0 ]]; then
  echo "--- castdeck log"; head -120 "$work/resume.log"; echo "--- receiver log"; tail -20 "$work/resume-receiver.log"
  status=$rstatus
fi
kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
fi

# A live stream (test_live.py, issue 31): pychromecast from the project's venv loads LIVE on a
# simulator; castdeck follows it. GUI_ONLY=live.
if [[ $only == all || $only == live ]]; then
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
"$bin/castctl" receiver --port 0 --name "Living Room TV" >"$work/live-receiver.out" 2>"$work/live-receiver.log" & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$work/live-receiver.out" 2>/dev/null && break; sleep 0.1; done
ldev="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/live-receiver.out")"
XDG_CONFIG_HOME="$work/live-config" "$bin/castdeck" --device "$ldev" >"$work/live.log" 2>&1 & pids+=($!)
lstatus=0
CASTCTL="$bin/castctl" LIVE_DEVICE="$ldev" VENV_PYTHON="$root/.venv/bin/python" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 300 /usr/bin/python3 Tests/System/gui/test_live.py || lstatus=$?
if [[ $lstatus -ne 0 ]]; then
  echo "--- castdeck log"; head -80 "$work/live.log"; echo "--- receiver log"; tail -20 "$work/live-receiver.log"
  status=$lstatus
fi
kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
fi

# The window tells the truth (test_truth.py): a receiver at its own loopback address on the
# standard ports (Cast 8009, setup API 8008, so it can say its name), media served over HTTP
# for it to fetch, and castdeck given only the bare address.
if [[ $only == all || $only == truth ]]; then
host="127.$((RANDOM % 200 + 20)).$((RANDOM % 250 + 1)).$((RANDOM % 250 + 2))"
ffmpeg -v error -nostdin -y -f lavfi -i testsrc=size=160x120:rate=10:duration=4 -f lavfi -i sine=duration=4 \
  -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest -movflags +faststart "$work/media/short.mp4"
hport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(cd "$work/media" && exec python3 -m http.server --bind 127.0.0.1 "$hport" >/dev/null 2>&1) & pids+=($!)
cat >"$work/breaks.json" <<JSON
{"breaks": [{"id": "pre", "position": 0, "breakClipIds": ["clip"]}],
 "breakClips": [{"id": "clip", "title": "Ad", "duration": 15, "whenSkippable": 5,
                 "contentId": "http://127.0.0.1:$hport/short.mp4", "contentType": "video/mp4"}]}
JSON
cat >"$work/start-receiver.sh" <<SH
"$bin/castctl" receiver --host $host --name "Living Room TV" --fetch-media --app 5C3F0A3C=urn:x-cast:com.example.party \
  >"$work/truth-receiver.out" 2>>"$work/truth-receiver.log" &
echo \$! >"$work/truth-receiver.pid"
for _ in \$(seq 100); do grep -q "^listening on " "$work/truth-receiver.out" 2>/dev/null && break; sleep 0.1; done
SH
bash "$work/start-receiver.sh"
CASTDECK_EXTRA_CAST_ROOTS= "$bin/castdeck" --device "$host" >"$work/app3.log" 2>&1 & pids+=($!)
tstatus=0
CASTCTL="$bin/castctl" TRUTH_HOST="$host" MEDIA_URL="http://127.0.0.1:$hport" BREAKS_FILE="$work/breaks.json" \
  RESTART_RECEIVER="bash $work/start-receiver.sh" RECEIVER_PIDFILE="$work/truth-receiver.pid" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 400 /usr/bin/python3 Tests/System/gui/test_truth.py || tstatus=$?
kill "$(cat "$work/truth-receiver.pid")" 2>/dev/null || true
if [[ $tstatus -ne 0 ]]; then
  # A crash report starts with the crashed thread: show that, not only the registers at the end.
  echo "--- castdeck log"; head -120 "$work/app3.log"; echo "--- receiver log"; tail -20 "$work/truth-receiver.log"
  status=$tstatus
fi
# This castdeck goes before the next part starts its own: the parts find theirs by name.
kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
fi

# Devices as a new user meets them (test_devices.py, issue 35): the demo, with two devices
# remembered by address that cannot be reached (a name no resolver knows, a port that refuses).
# GUI_ONLY=devices runs this part alone.
if [[ $only == all || $only == devices ]]; then
dcfg="$work/devices-config"
mkdir -p "$dcfg/castdeck"
cat >"$dcfg/castdeck/devices.json" <<'JSON'
{"version": 1, "devices": [{"host": "nonsense.invalid", "port": 8009}, {"host": "127.0.0.1", "port": 1, "name": "Living Room TV"}]}
JSON
dport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
XDG_CONFIG_HOME="$dcfg" CASTDECK_DEMO_PORT=$dport "$bin/castdeck" --demo >"$work/devices.log" 2>&1 & pids+=($!)
dstatus=0
DEVICES_FILE="$dcfg/castdeck/devices.json" SETTINGS_FILE="$dcfg/glib-2.0/settings/keyfile" DEMO_DEVICE="127.0.0.1:$dport" \
  SHOTS_DIR="${SHOTS_DIR:-}" timeout 300 /usr/bin/python3 Tests/System/gui/test_devices.py || dstatus=$?
if [[ $dstatus -ne 0 ]]; then
  echo "--- castdeck log"; head -120 "$work/devices.log"
  status=$dstatus
fi
kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
fi
# Artwork per place at the screen's scale (test_artwork.py, issue 31): a receiver that does not
# fetch, pictures of five sizes and large noise pictures over HTTP (the server's log says what
# was fetched), castdeck at GDK_SCALE=2 with a cache of its own. GUI_ONLY=artwork.
if [[ $only == all || $only == artwork ]]; then
mkdir -p "$work/art"
for size in 64 128 256 512 1280; do
  ffmpeg -v error -nostdin -y -f lavfi -i "color=c=0x3366aa:s=${size}x${size}" -frames:v 1 "$work/art/a-$size.png"
done
for name in d e f; do
  ffmpeg -v error -nostdin -y -f lavfi -i "color=c=gray:s=1100x1100,noise=alls=100:allf=t" -frames:v 1 "$work/art/$name-noise.png"
done
aport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(cd "$work/art" && exec python3 -m http.server --bind 127.0.0.1 "$aport" >/dev/null 2>"$work/art-http.log") & pids+=($!)
"$bin/castctl" receiver --port 0 >"$work/art-receiver.out" 2>"$work/art-receiver.log" & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$work/art-receiver.out" 2>/dev/null && break; sleep 0.1; done
astatus=0
XDG_CACHE_HOME="$work/art-cache" XDG_CONFIG_HOME="$work/art-config" GSETTINGS_SCHEMA_DIR="$root/.build/castdeck-data/schemas" \
  ART_DEVICE="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/art-receiver.out")" ART_URL="http://127.0.0.1:$aport" \
  HTTP_LOG="$work/art-http.log" ART_CACHE="$work/art-cache/castdeck/images" CASTDECK="$bin/castdeck" APP_LOG="$work/art-app.log" \
  timeout 300 /usr/bin/python3 Tests/System/gui/test_artwork.py || astatus=$?
if [[ $astatus -ne 0 ]]; then
  echo "--- castdeck log"; head -60 "$work/art-app.log"; echo "--- HTTP log"; tail -20 "$work/art-http.log"
  status=$astatus
fi
pkill -f "$bin/castdeck --device" 2>/dev/null || true
fi

# Tracks by kind and chapters (test_chapters.py, issue 31): pychromecast, from the project's
# venv, loads the media on a receiver of this part's own; castdeck follows what plays there.
# GUI_ONLY=chapters runs this part alone.
if [[ $only == all || $only == chapters ]]; then
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
"$bin/castctl" receiver --port 0 >"$work/chapters-receiver.out" 2>"$work/chapters-receiver.log" & pids+=($!)
for _ in $(seq 100); do grep -q "^listening on " "$work/chapters-receiver.out" 2>/dev/null && break; sleep 0.1; done
cdev="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/chapters-receiver.out")"
XDG_CONFIG_HOME="$work/chapters-config" "$bin/castdeck" --device "$cdev" >"$work/chapters.log" 2>&1 & pids+=($!)
chstatus=0
CASTCTL="$bin/castctl" CHAPTERS_DEVICE="$cdev" VENV_PYTHON="$root/.venv/bin/python" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 300 /usr/bin/python3 Tests/System/gui/test_chapters.py || chstatus=$?
if [[ $chstatus -ne 0 ]]; then
  echo "--- castdeck log"; head -80 "$work/chapters.log"; echo "--- receiver log"; tail -20 "$work/chapters-receiver.log"
  status=$chstatus
fi
for _ in 1 2; do kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'; done
fi

# Device kinds (test_kinds.py, issue 30): a projector, a TV, a speaker and a Chromecast, each a
# simulator of its own at its own loopback address with a castdeck of its own (kinds_support.py),
# driven by the simulator's test hooks; Resume of film.mp4 shares it anew. GUI_ONLY=kinds.
if [[ $only == all || $only == kinds ]]; then
kstatus=0
CASTCTL="$bin/castctl" CASTDECK="$bin/castdeck" KINDS_FILE="$work/media/film.mp4" KINDS_FILE_TITLE="Test Film" \
  SHOTS_DIR="${SHOTS_DIR:-}" timeout 400 /usr/bin/python3 Tests/System/gui/test_kinds.py || kstatus=$?
[[ $kstatus -eq 0 ]] || status=$kstatus
fi

# Move to… (test_move.py, issue 32): two simulators, the target remembered by address by name;
# pychromecast from the project's venv plays a queue on the source and checks both devices
# after the move. GUI_ONLY=move runs this part alone.
if [[ $only == all || $only == move ]]; then
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
"$bin/castctl" receiver --port 0 --name "Living Room TV" >"$work/move-source.out" 2>"$work/move-source.log" & pids+=($!)
"$bin/castctl" receiver --port 0 --name "Kitchen Speaker" >"$work/move-target.out" 2>"$work/move-target.log" & pids+=($!)
for f in move-source move-target; do
  for _ in $(seq 100); do grep -q "^listening on " "$work/$f.out" 2>/dev/null && break; sleep 0.1; done
done
msrc="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/move-source.out")"
mtgt="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/move-target.out")"
mcfg="$work/move-config"
mkdir -p "$mcfg/castdeck"
cat >"$mcfg/castdeck/devices.json" <<JSON
{"version": 1, "devices": [{"host": "127.0.0.1", "port": ${mtgt##*:}, "name": "Kitchen Speaker"}]}
JSON
XDG_CONFIG_HOME="$mcfg" "$bin/castdeck" --device "$msrc" >"$work/move.log" 2>&1 & pids+=($!)
mstatus=0
CASTCTL="$bin/castctl" MOVE_SOURCE="$msrc" MOVE_TARGET="$mtgt" VENV_PYTHON="$root/.venv/bin/python" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 300 /usr/bin/python3 Tests/System/gui/test_move.py || mstatus=$?
if [[ $mstatus -ne 0 ]]; then
  echo "--- castdeck log"; head -80 "$work/move.log"; echo "--- source log"; tail -20 "$work/move-source.log"
  echo "--- target log"; tail -20 "$work/move-target.log"
  status=$mstatus
fi
for _ in 1 2 3; do kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'; done
fi
# Speaker groups (test_groups.py, issue 32): a simulated group "Upstairs" whose three speakers
# each have a loopback host of their own (8009, setup API on 8008), a lone speaker "Bedroom",
# all remembered by address; castdeck starts on the group. GUI_ONLY=groups.
if [[ $only == all || $only == groups ]]; then
net="127.$((RANDOM % 200 + 20)).$((RANDOM % 250 + 1))"
ghosts="$net.11,$net.12,$net.13"
"$bin/castctl" receiver --host "$net.10" --port 0 --group Upstairs --members "Kitchen speaker,Hall,Office" \
  --member-hosts "$ghosts" --test-hooks >"$work/group.out" 2>"$work/group.log" & pids+=($!)
"$bin/castctl" receiver --host "$net.14" --name Bedroom --kind speaker >"$work/bedroom.out" 2>"$work/bedroom.log" & pids+=($!)
for f in group bedroom; do
  for _ in $(seq 100); do grep -q "^listening on " "$work/$f.out" 2>/dev/null && break; sleep 0.1; done
done
for _ in $(seq 50); do [[ $(grep -c "^member " "$work/group.out") -eq 3 ]] && break; sleep 0.1; done
gdev="$net.10:$(sed -n 's/^listening on .*://p' "$work/group.out")"
gcfg="$work/groups-config"
mkdir -p "$gcfg/castdeck"
cat >"$gcfg/castdeck/devices.json" <<JSON
{"version": 1, "devices": [{"host": "$net.10", "port": ${gdev##*:}, "name": "Upstairs"},
 {"host": "$net.11", "port": 8009}, {"host": "$net.12", "port": 8009}, {"host": "$net.13", "port": 8009},
 {"host": "$net.14", "port": 8009}]}
JSON
XDG_CONFIG_HOME="$gcfg" "$bin/castdeck" --device "$gdev" >"$work/groups.log" 2>&1 & pids+=($!)
gstatus=0
CASTCTL="$bin/castctl" GROUP_DEVICE="$gdev" GROUP_SPEAKERS="Kitchen speaker=$net.11;Hall=$net.12;Office=$net.13" \
  BEDROOM_DEVICE="$net.14" SHOTS_DIR="${SHOTS_DIR:-}" timeout 300 /usr/bin/python3 Tests/System/gui/test_groups.py || gstatus=$?
if [[ $gstatus -ne 0 ]]; then
  echo "--- castdeck log"; head -80 "$work/groups.log"; echo "--- group log"; tail -30 "$work/group.log"
  status=$gstatus
fi
for _ in 1 2 3; do kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'; done
fi
# Casting the screen (test_mirror.py, issue 33): a simulator with the mirroring apps writing
# what it receives, castdeck connected to it on this Xvfb display, which is what it mirrors.
# GUI_ONLY=mirror.
if [[ $only == all || $only == mirror ]]; then
"$bin/castctl" receiver --port 0 --name "Living Room TV" --mirror-output "$work/mirror-out" \
  >"$work/mirror-receiver.out" 2>"$work/mirror-receiver.log" & pids+=($!)
mirror_receiver=${pids[-1]}
for _ in $(seq 100); do grep -q "^listening on " "$work/mirror-receiver.out" 2>/dev/null && break; sleep 0.1; done
mdev="127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/mirror-receiver.out")"
# Remembered by its name (the simulator's setup API is not on the standard port here).
mkdir -p "$work/mirror-config/castdeck"
cat >"$work/mirror-config/castdeck/devices.json" <<JSON
{"version": 1, "devices": [{"host": "127.0.0.1", "port": ${mdev##*:}, "name": "Living Room TV"}]}
JSON
XDG_CONFIG_HOME="$work/mirror-config" "$bin/castdeck" --device "$mdev" >"$work/mirror.log" 2>&1 & pids+=($!)
mistatus=0
CASTCTL="$bin/castctl" MIRROR_DEVICE="$mdev" MIRROR_OUTPUT="$work/mirror-out" RECEIVER_PID="$mirror_receiver" \
  SETTINGS_FILE="$work/mirror-config/glib-2.0/settings/keyfile" SHOTS_DIR="${SHOTS_DIR:-}" \
  timeout 300 /usr/bin/python3 Tests/System/gui/test_mirror.py || mistatus=$?
if [[ $mistatus -ne 0 ]]; then
  echo "--- castdeck log"; head -80 "$work/mirror.log"; echo "--- receiver log"; tail -20 "$work/mirror-receiver.log"
  status=$mistatus
fi
for _ in 1 2; do kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'; done
fi
exit $status
