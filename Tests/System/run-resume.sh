#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Casting again what stopped part-way goes on from there (issue 36, part 4), with castctl
# against `castctl receiver`: a file cast, sought, stopped and cast again starts where it
# stopped (castctl status says so), --start-over starts at 0, --start wins, a moved and
# renamed copy is recognised and an edited one is not, Ctrl-C and pause remember, a film
# watched to its end starts over, a link remembered by `castctl stop`, a folder queue's item
# and time, the switch (CASTDECK_REMEMBER_POSITIONS and the window's GSettings key), a corrupt
# state file, the file's mode. Media is made here by ffmpeg; nothing is committed.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v ffmpeg >/dev/null || ./scripts/setup.sh
if [[ -z ${CASTCTL:-} ]]; then
  swift build --product castctl >/dev/null
  CASTCTL="$(swift build --show-bin-path)/castctl"
fi
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# A state folder and settings of this test's own; the switch is on unless a step says.
export XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" GSETTINGS_BACKEND=keyfile
unset CASTDECK_REMEMBER_POSITIONS
state="$XDG_STATE_HOME/castdeck/playback-positions.json"
fail() { echo "FAIL: $*" >&2; for f in "$work"/*.err "$work/receiver.log"; do [[ -s $f ]] && { echo "--- $f" >&2; tail -n 15 "$f" >&2; }; done; exit 1; }
wait_for() {  # wait_for FILE PATTERN SECONDS
  for _ in $(seq $(($3 * 10))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

ff() { ffmpeg -v error -nostdin -y "$@"; }
ff -f lavfi -i testsrc=size=160x120:rate=10:duration=120 -f lavfi -i sine=frequency=440:duration=120 \
  -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -b:a 48k -shortest -movflags +faststart \
  -metadata title="Resume Film" "$work/film.mp4"
mkdir -p "$work/album" "$work/elsewhere"
for spec in "1:One" "2:Two" "3:Three"; do
  ff -f lavfi -i "sine=frequency=$((220 * ${spec%%:*})):duration=60" -metadata title="${spec#*:}" -c:a libmp3lame -q:a 9 "$work/album/${spec%%:*} - ${spec#*:}.mp3"
done

"$CASTCTL" receiver --port 0 --name "Resume TV" >"$work/receiver.out" 2>"$work/receiver.log" &
pids+=($!)
wait_for "$work/receiver.out" "^listening on " 20 || fail "the receiver did not start"
export CASTCTL_DEVICE=127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/receiver.out")

# status FIELD: a field of `castctl status --json` (position, title, state).
status() {
  "$CASTCTL" status --json | python3 -c '
import json, sys
s = json.load(sys.stdin); m = s.get("media") or {}
print({"position": s.get("position"), "state": m.get("playerState"),
       "title": ((m.get("media") or {}).get("metadata") or {}).get("title")}[sys.argv[1]])' "$1"
}
# between LOW HIGH: the position now lies in [LOW, HIGH].
between() { python3 -c 'import sys; p=float(sys.argv[1]); sys.exit(0 if float(sys.argv[2]) <= p <= float(sys.argv[3]) else 1)' "$(status position)" "$1" "$2"; }
# serve NAME ARGS...: `castctl cast ARGS` in the background, serving; waits for its line.
serve() {
  local name=$1; shift
  "$CASTCTL" cast "$@" >"$work/$name.out" 2>"$work/$name.err" &
  serving=$!
  pids+=($serving)
  wait_for "$work/$name.out" "^Casting" 60 || fail "castctl cast $* printed no Casting line"
  for _ in $(seq 50); do [[ $(status state) == PLAYING ]] && return 0; sleep 0.1; done
  fail "castctl cast $*: not PLAYING"
}
# stop_serving: castctl stop, then the serving castctl must end with 0 (it writes on the way).
stop_serving() {
  "$CASTCTL" stop >/dev/null
  wait "$serving" || fail "the serving castctl did not exit 0 after castctl stop"
}
remembered() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["entries"]))' "$state"; }

# --- a file: cast, seek, stop, cast again → where it stopped
serve first "$work/film.mp4"
! grep -q Resuming "$work/first.out" || fail "a first cast resumed: $(cat "$work/first.out")"
"$CASTCTL" seek 70 >/dev/null
stop_serving
[[ -f $state ]] || fail "no state file after the cast stopped"
[[ $(stat -c %a "$state") == 600 ]] || fail "the state file's mode is $(stat -c %a "$state"), not 600"
grep -q '"file:' "$state" || fail "no file entry: $(cat "$state")"
! grep -q "film.mp4\|$work" "$state" || fail "the state file names the file: $(cat "$state")"
serve again "$work/film.mp4"
grep -qx "Resuming at 1:1[01] (--start-over to begin at the start)." "$work/again.out" || fail "no Resuming line: $(cat "$work/again.out")"
[[ $(head -1 "$work/again.out") == Resuming* ]] || fail "the Resuming line is not first"
between 69 80 || fail "the LOAD did not start at the remembered position: $(status position)"
echo "ok: cast, seek to 1:10, stop, cast again → “Resuming at 1:10” and the receiver plays from there"

# --- --start-over starts at 0 (and forgets), --start wins over --resume, the two flags clash
stop_serving
serve over --start-over "$work/film.mp4"
! grep -q Resuming "$work/over.out" || fail "--start-over resumed"
between 0 8 || fail "--start-over did not start at 0: $(status position)"
stop_serving
serve start --start 5 --resume "$work/film.mp4"
! grep -q Resuming "$work/start.out" || fail "--start did not win over --resume"
between 5 12 || fail "--start 5: $(status position)"
got=0; "$CASTCTL" cast --resume --start-over "$work/film.mp4" >/dev/null 2>"$work/clash.err" || got=$?
[[ $got == 2 ]] && grep -q "cannot be used together" "$work/clash.err" || fail "--resume --start-over exited $got: $(cat "$work/clash.err")"
echo "ok: --start-over starts at 0:00, --start 5 wins over --resume, --resume with --start-over is a usage error"

# --- Ctrl-C remembers; a moved and renamed copy is the same film; an edited one is not
"$CASTCTL" seek 50 >/dev/null
kill -INT "$serving"
wait "$serving" || fail "castctl cast did not exit 0 on Ctrl-C"
mv "$work/film.mp4" "$work/elsewhere/Renamed Film.mp4"
serve moved "$work/elsewhere/Renamed Film.mp4"
grep -q "^Resuming at 0:5[0-9] " "$work/moved.out" || fail "a moved, renamed file was not recognised: $(cat "$work/moved.out")"
between 49 60 || fail "the moved file did not start where it stopped: $(status position)"
stop_serving
{ cat "$work/elsewhere/Renamed Film.mp4"; printf 'x'; } >"$work/edited.mp4"
serve edited "$work/edited.mp4"
! grep -q Resuming "$work/edited.out" || fail "an edited file resumed: $(cat "$work/edited.out")"
stop_serving
echo "ok: Ctrl-C remembers; a moved and renamed file resumes at 0:5x; a file one byte longer starts at the start"

# --- watched to its end: the next cast starts over
serve end "$work/elsewhere/Renamed Film.mp4"
grep -q "^Resuming" "$work/end.out" || fail "no Resuming before the end test"
"$CASTCTL" seek 116 >/dev/null
wait "$serving" || fail "castctl cast did not exit 0 at the end of the media"
serve after "$work/elsewhere/Renamed Film.mp4"
! grep -q Resuming "$work/after.out" || fail "a film played to its end resumed: $(cat "$work/after.out")"
"$CASTCTL" seek 40 >/dev/null
"$CASTCTL" pause >/dev/null
sleep 0.5
kill -TERM "$serving"; wait "$serving" || true
python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["entries"]; assert any(abs(v["position"]-40) < 1 for v in e.values()), e' "$state" \
  || fail "a pause at 0:40 was not remembered: $(cat "$state")"
echo "ok: played to the end, it starts over; a pause is remembered where it paused"

# --- a link: castctl stop remembers it; cast again resumes
link="http://127.0.0.1:9/resume-link.mp4"
"$CASTCTL" cast "$link" --title "Link" >/dev/null
"$CASTCTL" seek 40 >/dev/null
"$CASTCTL" stop >/dev/null
"$CASTCTL" cast "$link" --title "Link" >"$work/link.out"
grep -qx "Resuming at 0:4[01] (--start-over to begin at the start)." "$work/link.out" || fail "the link did not resume: $(cat "$work/link.out")"
between 39 50 || fail "the link did not start at 0:40: $(status position)"
"$CASTCTL" cast "$link" --title "Link" --json >"$work/link.json" 2>"$work/link.err"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/link.json" || fail "--json output is not JSON alone"
grep -q "^Resuming" "$work/link.err" || fail "with --json the Resuming line is not on standard error"
"$CASTCTL" stop >/dev/null
echo "ok: castctl stop remembers a link; casting it again resumes at 0:40 (with --json, the line on standard error)"

# --- a folder queue: its item and the time in it
serve queue "$work/album"
"$CASTCTL" queue jump 2 >/dev/null
for _ in $(seq 50); do [[ $(status title) == Two ]] && break; sleep 0.1; done
"$CASTCTL" seek 25 >/dev/null
sleep 0.3
stop_serving
serve queue2 "$work/album"
grep -qx "Resuming at item 2, 0:2[5-9] (--start-over to begin at the start)." "$work/queue2.out" || fail "the queue did not resume: $(cat "$work/queue2.out")"
[[ $(status title) == Two ]] || fail "the queue started at $(status title), not Two"
between 24 35 || fail "the queue's item did not start at 0:25: $(status position)"
stop_serving
echo "ok: a folder queue resumes at item 2, 0:25"

# --- the switch: CASTDECK_REMEMBER_POSITIONS=0, and the window's GSettings key
before=$(remembered)
CASTDECK_REMEMBER_POSITIONS=0 "$CASTCTL" cast "$link" --title "Link" >"$work/off.out"
! grep -q Resuming "$work/off.out" || fail "CASTDECK_REMEMBER_POSITIONS=0 resumed"
"$CASTCTL" seek 30 >/dev/null
CASTDECK_REMEMBER_POSITIONS=0 "$CASTCTL" stop >/dev/null
[[ $(remembered) == "$before" ]] || fail "CASTDECK_REMEMBER_POSITIONS=0 remembered something"
# The uninstalled schema, as an uninstalled castdeck and castctl find it.
./scripts/build-data.sh >/dev/null
schemas=.build/castdeck-data/schemas
if GSETTINGS_SCHEMA_DIR=$schemas gsettings set io.github.castdeck.CastDeck remember-positions false 2>"$work/gsettings.err"; then
  "$CASTCTL" cast "$link" --title "Link" >"$work/gs.out"
  ! grep -q Resuming "$work/gs.out" || fail "the window's switch (remember-positions false) was not honoured"
  GSETTINGS_SCHEMA_DIR=$schemas gsettings reset io.github.castdeck.CastDeck remember-positions
  "$CASTCTL" cast "$link" --title "Link" >"$work/gs2.out"
  grep -q "^Resuming" "$work/gs2.out" || fail "remember-positions back on, the link did not resume"
  echo "ok: CASTDECK_REMEMBER_POSITIONS=0 and the GSettings key remember-positions=false turn it off"
else
  echo "note: gsettings could not set the key ($(cat "$work/gsettings.err")); only CASTDECK_REMEMBER_POSITIONS was checked"
fi
"$CASTCTL" stop >/dev/null 2>&1 || true

# --- a corrupt state file: casting works, starts at the start, the file is kept aside
printf '{"entries": {"link:' >"$state"
"$CASTCTL" cast "$link" --title "Link" >"$work/corrupt.out" 2>"$work/corrupt.err" || fail "castctl cast failed with a corrupt state file"
! grep -q Resuming "$work/corrupt.out" || fail "resumed from a corrupt file"
"$CASTCTL" seek 33 >/dev/null
"$CASTCTL" stop >/dev/null
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$state" || fail "the state file was not written anew"
[[ -f $state.corrupt && $(stat -c %a "$state") == 600 ]] || fail "the corrupt file was not kept aside, or the mode changed"
echo "ok: a corrupt state file reads as empty, is kept as .corrupt, and a new private one is written"
echo "resume system tests: all passed"
