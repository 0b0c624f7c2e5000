# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Move to… in the window (issue 32), through AT-SPI: two simulators, "Living Room TV" (the
source) and "Kitchen Speaker" (remembered by address). pychromecast, a foreign sender, plays a
queue of three on the source; castctl turns the subtitle on and the rate to 2×; the window
follows what plays there. Move to… lists the other device, Move starts it, and the window then
follows the target. pychromecast checks the result on both devices as a second opinion: the
queue, its position, the subtitle and the rate on the target, IDLE on the source."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import Cases, Failure, app_named, castctl, click, find, find_all, response_buttons, states, wait_for

CASTCTL = os.environ["CASTCTL"]
SOURCE = os.environ["MOVE_SOURCE"]
TARGET = os.environ["MOVE_TARGET"]
PYTHON = os.environ["VENV_PYTHON"]
SHOTS = os.environ.get("SHOTS_DIR")
HERE = os.path.dirname(__file__)
case = Cases()
app = app_named("castdeck")


def pcc(device, what):
    host, port = device.rsplit(":", 1)
    out = subprocess.run([PYTHON, os.path.join(HERE, "move_sender.py"), host, port, what],
                         check=True, timeout=90, capture_output=True, text=True)
    return json.loads(out.stdout) if what == "check" else None


def status(device):
    return json.loads(castctl(CASTCTL, device, "status", "--json"))


def source_plays_a_queue():
    pcc(SOURCE, "queue")
    castctl(CASTCTL, SOURCE, "tracks", "--on", "1")
    castctl(CASTCTL, SOURCE, "rate", "2")
    media = wait_for("the source at 2× with the subtitle", lambda: (m := status(SOURCE).get("media") or {})
                     .get("playbackRate") == 2 and m.get("activeTrackIds") == [1] and m)
    if media["playerState"] != "PLAYING":
        raise Failure(f"the source is not playing: {media}")
    find(app, "Song 2", "label", timeout=30)


def move_in_the_dialog():
    click(find(app, "Move to Another Device", "push button"))
    dialog = find(app, "Move Playback", "dialog", timeout=20)
    choices = [n for n in find_all(dialog) if n.getRoleName() in ("radio button", "toggle button")]
    names = [n.name for n in choices]
    if len(choices) != 1 or not names[0].startswith("Kitchen Speaker"):
        raise Failure(f"the dialog should offer only the other device: {names}")
    buttons = response_buttons(dialog)
    if "Move" not in buttons or "Cancel" not in buttons:
        raise Failure(f"the dialog's buttons: {sorted(buttons)}")
    if "sensitive" in states(buttons["Move"]):
        raise Failure("Move is offered before a device is chosen")
    click(choices[0])
    wait_for("Move once a device is chosen", lambda: "sensitive" in states(buttons["Move"]))
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-move-dialog.png")
    click(buttons["Move"])
    wait_for("the dialog to close", lambda: not find_all(app, "Move Playback", "dialog"), timeout=30)


def target_has_everything():
    seen = wait_for("the target to play", lambda: (c := pcc(TARGET, "check"))["status"]
                    and c["status"].get("playerState") == "PLAYING" and c, timeout=30)
    st, ids = seen["status"], seen["itemIds"]
    if len(ids) != 3 or ids.index(st["currentItemId"]) != 1:
        raise Failure(f"the queue did not arrive whole at item 2: ids {ids}, current {st.get('currentItemId')}")
    if st.get("activeTrackIds") != [1] or st.get("playbackRate") != 2:
        raise Failure(f"the subtitle or the rate did not arrive: {st}")
    if not st["media"]["contentId"].endswith("/2.mp3"):
        raise Failure(f"the wrong item plays: {st['media']['contentId']}")
    src = pcc(SOURCE, "check")["status"]
    if src and src.get("playerState") != "IDLE":
        raise Failure(f"the source still plays: {src}")
    # The window follows the target now.
    find(app, "Casting to Kitchen Speaker", "label", timeout=20)
    find(app, "Song 2", "label")


case("a queue played by another sender shows in the window", source_plays_a_queue)
case("Move to… lists the other device and moves playback there", move_in_the_dialog)
case("the target plays the queue at item 2 with the subtitle at 2×; the source is IDLE", target_has_everything)
sys.exit(1 if case.failed else 0)
