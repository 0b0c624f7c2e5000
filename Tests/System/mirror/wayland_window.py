#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""wayland_window.py: castdeck's Cast Screen… on a Wayland desktop (run-mirror-wayland.sh),
through AT-SPI: the window (GTK on mutter) connected to "Living Room TV"; Cast Screen… from the
main menu with sound off; the desktop's own dialog is answered by portal_pick.py (Share); the
banner names the device and pictures reach the simulator (MIRROR_OUTPUT); Stop ends it with its
sentence. Then Cast Screen… again and Cancel in the desktop's dialog: the window says sharing
was refused, and no banner stays."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gui"))
from atspi_helpers import Cases, Failure, app_named, click, find, find_all, response_buttons, states, wait_for  # noqa: E402

OUTPUT = os.environ["MIRROR_OUTPUT"]
PICK = os.path.join(os.path.dirname(__file__), "portal_pick.py")
BANNER = "Casting your screen to Living Room TV"
case = Cases()
app = app_named("castdeck", timeout=60)


def pictures_decoded():
    try:
        with open(f"{OUTPUT}/frames.jsonl") as f:
            return sum(1 for line in f if json.loads(line)["event"] == "decoded")
    except FileNotFoundError:
        return 0


def cast_screen(answer):
    click(find(app, "Main menu"))
    click(find(app, "Cast Screen…", "menu item", timeout=10))
    dialog = find(app, "Cast Screen", "dialog", timeout=20)
    sound = [n for n in find_all(dialog, "Sound") if n.getRoleName() in ("switch", "toggle button", "check box")][0]
    if "checked" in states(sound) or "pressed" in states(sound):
        click(sound)
    click(response_buttons(dialog)["Cast"])
    picked = subprocess.run([sys.executable, PICK, answer], capture_output=True, text=True, timeout=60)
    if picked.returncode != 0:
        raise Failure(f"the desktop's dialog: {picked.stdout.strip()} {picked.stderr.strip()[-300:]}")


def share_and_see_it_arrive():
    find(app, "Connected to Living Room TV", timeout=60)
    before = pictures_decoded()
    cast_screen("share")
    find(app, BANNER, "label", timeout=30)
    wait_for("pictures from the Wayland screen at the receiver", lambda: pictures_decoded() >= before + 30, timeout=90)


def stop_ends_it():
    click(find(app, "Stop casting to Living Room TV", "push button"))
    find(app, "Stopped casting your screen to Living Room TV.", "label", timeout=40)
    wait_for("the banner to go", lambda: not find_all(app, BANNER, "label"), timeout=20)


def cancel_in_the_dialog():
    cast_screen("cancel")
    find(app, "Screen sharing was refused in the desktop’s dialog, so nothing was cast.", "label", timeout=30)
    wait_for("no banner", lambda: not find_all(app, BANNER, "label"), timeout=20)


case("Cast Screen… on Wayland: Share in the desktop's dialog, pictures reach the device", share_and_see_it_arrive)
case("Stop in the banner ends it", stop_ends_it)
case("Cancel in the desktop's dialog: the window says it was refused", cancel_in_the_dialog)
sys.exit(1 if case.failed else 0)
