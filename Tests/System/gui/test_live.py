# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""A live stream in the window (issue 31), through AT-SPI: pychromecast, a second sender, loads
a LIVE stream on a simulator with a 120 s replay window; the window shows the Live badge on
the expanded and the mini controller, a seek bar over the window, "−0:30" behind live and Go
to Live. (An ended stream, END_LIVE, needs the manual clock: Tests/System/receiver/test_live.py.)"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import Cases, Failure, app_named, castctl, click, find, find_all, states, value_of, wait_for

CASTCTL = os.environ["CASTCTL"]
DEVICE = os.environ["LIVE_DEVICE"]
PYTHON = os.environ["VENV_PYTHON"]
SHOTS = os.environ.get("SHOTS_DIR")
HERE = os.path.dirname(__file__)
case = Cases()
app = app_named("castdeck")


def sender(what):
    host, port = DEVICE.rsplit(":", 1)
    subprocess.run([PYTHON, os.path.join(HERE, "live_sender.py"), host, port, what], check=True, timeout=60)


def status():
    return json.loads(castctl(CASTCTL, DEVICE, "status", "--json"))


def labels():
    return [n.name or "" for n in find_all(app, role="label")]


def shows_live():
    sender("load")
    find(app, "News 24", "label", timeout=20)
    # The window follows onto the expanded controller: the badge beside the times.
    find(app, "Live", "label")
    slider = find(app, "Position", "slider")
    if "sensitive" not in states(slider):
        raise Failure("the seek bar is off for a live stream with a window")
    if abs(value_of(slider) - 120) > 5:
        raise Failure(f"the seek bar is not at the live edge: {value_of(slider)}")
    if find_all(app, "Go to Live", "push button"):
        raise Failure("Go to Live is offered at the live edge")
    if [t for t in labels() if "--:--" in t]:
        raise Failure("a time of --:-- shows")
    # The mini controller's line: Live, then the device.
    click(find(app, "Back to devices", "push button"))
    wait_for("Live in the mini controller", lambda: [t for t in labels() if t.startswith("Live · Casting to")])
    click(find(app, "Open expanded controller", "push button"))


def behind_live_and_back():
    click(find(app, "Seek backward 30 seconds", "push button"))
    wait_for("30 s behind live on the receiver", lambda: abs(status()["live"]["behindLive"] - 30) < 3)
    go = find(app, "Go to Live", "push button", timeout=10)
    wait_for("the time behind live", lambda: [t for t in labels() if t.startswith("\u22120:3")])
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-live-behind.png")
    click(go)
    wait_for("the live edge on the receiver", lambda: status()["live"]["behindLive"] < 3)
    wait_for("Go to Live to go", lambda: not find_all(app, "Go to Live", "push button"))
    out = castctl(CASTCTL, DEVICE, "status")
    if "LIVE" not in out:
        raise Failure(f"castctl status does not say LIVE: {out}")


case("a LIVE stream from another sender shows Live and a seek bar over its window", shows_live)
case("behind live: −0:30 and Go to Live, which goes back to the edge", behind_live_and_back)
sys.exit(1 if case.failed else 0)
