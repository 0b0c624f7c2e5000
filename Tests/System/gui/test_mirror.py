# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Casting the screen from the window (issue 33), through AT-SPI: castdeck on Xvfb connected to
"Living Room TV", a simulator that runs the mirroring apps and writes the frames it receives
(`castctl receiver --mirror-output`). Cast Screen… from the main menu, Smooth and sound off,
Cast: castctl (another process) sees the mirroring app, frames arrive, the banner names the
device, Stop ends it on the device. Cast Screen… from the device's row remembers the choices;
Ctrl+Q asks first; a killed receiver takes the banner away with one sentence."""
import json
import os
import re
import signal
import sys

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import (Cases, Failure, app_named, castctl, click, find, find_all, press_keys, response_buttons,
                           states, wait_for)

CASTCTL = os.environ["CASTCTL"]
DEVICE = os.environ["MIRROR_DEVICE"]
OUTPUT = os.environ["MIRROR_OUTPUT"]
RECEIVER_PID = int(os.environ["RECEIVER_PID"])
SETTINGS = os.environ["SETTINGS_FILE"]
SHOTS = os.environ.get("SHOTS_DIR")
MIRRORING_APP = "0F5096E8"
BANNER = "Casting your screen to Living Room TV"
case = Cases()
app = app_named("castdeck")


def running_apps():
    status = json.loads(castctl(CASTCTL, DEVICE, "status", "--json"))
    return [a["appId"] for a in (status.get("receiver") or {}).get("applications") or [] if not a.get("isIdleScreen")]


def frames_received():
    try:
        with open(f"{OUTPUT}/frames.jsonl") as f:
            return sum(1 for line in f if json.loads(line)["event"] == "received")
    except FileNotFoundError:
        return 0


def shot(name):
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-{name}.png")


def choices(dialog):
    return {n.name: n for n in find_all(dialog) if n.getRoleName() in ("radio button", "toggle button") and n.name}


def sound_switch(dialog):
    found = [n for n in find_all(dialog, "Sound") if n.getRoleName() in ("switch", "toggle button", "check box")]
    if not found:
        raise Failure("the dialog has no Sound switch")
    return found[0]


def checked(node):
    return "checked" in states(node) or "pressed" in states(node)


def connected():
    find(app, "Connected to Living Room TV", timeout=30)


def cast_screen_from_the_main_menu():
    click(find(app, "Main menu"))
    click(find(app, "Cast Screen…", "menu item", timeout=10))
    dialog = find(app, "Cast Screen", "dialog", timeout=20)
    offered = choices(dialog)
    for want in ("Living Room TV", "Sharp", "Balanced", "Smooth"):
        if not any(name.startswith(want) for name in offered):
            raise Failure(f"the dialog does not offer {want}: {sorted(offered)}")
    tv = next(n for name, n in offered.items() if name.startswith("Living Room TV"))
    if not checked(tv):
        raise Failure("the connected device is not chosen")
    click(offered["Smooth"])
    wait_for("Smooth chosen", lambda: checked(offered["Smooth"]) and not checked(offered["Balanced"]))
    sound = sound_switch(dialog)
    if checked(sound):
        click(sound)
    wait_for("sound off", lambda: not checked(sound))
    shot("mirror-dialog")
    buttons = response_buttons(dialog)
    if "Cast" not in buttons or "Cancel" not in buttons:
        raise Failure(f"the dialog's buttons: {sorted(buttons)}")
    click(buttons["Cast"])
    wait_for("the dialog to close", lambda: not find_all(app, "Cast Screen", "dialog"), timeout=20)


def mirroring_reaches_the_device():
    find(app, BANNER, "label", timeout=30)
    wait_for("the mirroring app on the receiver", lambda: MIRRORING_APP in running_apps(), timeout=30)
    first = wait_for("frames on the receiver", lambda: frames_received() or None, timeout=30)
    wait_for("more frames", lambda: frames_received() > first, timeout=30)
    find(app, "Stop casting to Living Room TV", "push button")
    shot("mirror-banner")
    text = open(SETTINGS).read()
    if "mirror-quality='smooth'" not in text or "mirror-sound=false" not in text:
        raise Failure(f"the choices were not kept in GSettings: {text}")


def stop_ends_it():
    click(find(app, "Stop casting to Living Room TV", "push button"))
    find(app, "Stopped casting your screen to Living Room TV.", "label", timeout=30)
    wait_for("the banner to go", lambda: not find_all(app, BANNER, "label"), timeout=20)
    wait_for("the app stopped on the receiver", lambda: MIRRORING_APP not in running_apps(), timeout=30)


def from_the_device_row_with_the_choices_kept():
    click(find(app, "Cast to Living Room TV", timeout=20))
    click(find(app, "Cast Screen…", "push button", timeout=10))
    dialog = find(app, "Cast Screen", "dialog", timeout=20)
    offered = choices(dialog)
    if not checked(offered["Smooth"]) or checked(sound_switch(dialog)):
        raise Failure("the last choices (Smooth, sound off) are not offered again")
    click(response_buttons(dialog)["Cast"])
    find(app, BANNER, "label", timeout=30)
    wait_for("the mirroring app again", lambda: MIRRORING_APP in running_apps(), timeout=30)


def quitting_asks_first():
    press_keys("CastDeck", "ctrl+q")
    question = find(app, "Stop casting your screen to Living Room TV?", "dialog", timeout=20)
    buttons = response_buttons(question)
    if "Stop Casting" not in buttons or "Keep Running in the Background" not in buttons:
        raise Failure(f"the question's buttons: {sorted(buttons)}")
    press_keys("", "Escape", prefix=True)
    wait_for("the question to close", lambda: not find_all(app, "Stop casting your screen to Living Room TV?", "dialog"))
    find(app, BANNER, "label")


def a_lost_device_ends_it():
    os.kill(RECEIVER_PID, signal.SIGKILL)
    wait_for("the banner to go", lambda: not find_all(app, BANNER, "label"), timeout=40)
    def said():
        return [n.name for n in find_all(app, role="label") if n.name and re.search(r"mirroring ended|stopped receiving", n.name)]
    try:
        wait_for("the sentence that says why mirroring ended", said, timeout=20)
    except Failure:
        raise Failure(f"no sentence says why mirroring ended: {sorted(n.name for n in find_all(app, role='label') if n.name)}")


case("the window connects to Living Room TV", connected)
case("Cast Screen… from the main menu: Smooth, sound off, Cast", cast_screen_from_the_main_menu)
case("the mirroring app runs on the receiver, frames arrive, the banner names the device", mirroring_reaches_the_device)
case("Stop in the banner ends it on the receiver", stop_ends_it)
case("Cast Screen… from the device row offers the last choices", from_the_device_row_with_the_choices_kept)
case("Ctrl+Q while mirroring asks first", quitting_asks_first)
case("a killed receiver takes the banner away with one sentence", a_lost_device_ends_it)
sys.exit(1 if case.failed else 0)
