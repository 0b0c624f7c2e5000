# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""The device list as a new user meets it (issue 35), driven through AT-SPI against castdeck
--demo with two devices remembered by address that cannot be reached: a name no resolver knows
and a port that refuses. Rows say what is wrong in a word with the error behind Details; Add
Device saves only what answers (Add Anyway aside) and keeps its size; Forget can be undone; rows
that do nothing are no Tab stops while the others connect on Enter; the demo's own receiver
carries no trust mark, the same receiver added by address does."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import (Cases, Failure, app_named, click, find, find_all, plain, press_keys, response_buttons,
                           set_text, states, walk, wait_for)

DEVICES_FILE = os.environ["DEVICES_FILE"]  # the remembered devices (XDG_CONFIG_HOME/castdeck)
SETTINGS_FILE = os.environ["SETTINGS_FILE"]  # GSettings' keyfile
DEMO = os.environ["DEMO_DEVICE"]  # 127.0.0.1:PORT of the demo's receiver
UNKNOWN = "nonsense.invalid"  # remembered already (run-gui.sh)
NOWHERE = "nowhere.invalid"  # typed into Add Device
SHOTS = os.environ.get("SHOTS_DIR")
app = app_named("castdeck")
case = Cases()


def shot(name):
    if SHOTS:
        time.sleep(0.5)
        os.system(f"import -window root {SHOTS}/{name}.png")


def remembered():
    with open(DEVICES_FILE) as f:
        return json.load(f)["devices"]


def last_device():
    try:
        with open(SETTINGS_FILE) as f:
            return next((line.split("=", 1)[1].strip().strip("'") for line in f if line.startswith("last-device=")), "")
    except FileNotFoundError:
        return ""


def labels_containing(text, root=None):
    return [n for n in find_all(root or app, role="label") if text.casefold() in plain(n.name)]


def buttons_named(name, description=None):
    return [b for b in find_all(app, name, "push button") if description is None or b.description == description]


def dialog():
    found = find_all(app, role="dialog")
    return found[0] if found else None


def size_of(node):
    e = node.queryComponent().getExtents(0)
    return e.width, e.height


def focused():
    for n in walk(app):
        try:
            if "focused" in states(n):
                return n
        except Exception:
            continue
    return None


def rows_say_what_is_wrong_in_a_word():
    wait_for("the two probes to fail", lambda: labels_containing("Not found") and labels_containing("Not answering"),
             timeout=30)
    for raw in ("SocketAddressError", "error -2", "Connection refused", "Could not connect"):
        if labels_containing(raw):
            raise Failure(f"a row shows the raw error: {labels_containing(raw)[0].name!r}")
    shot("gui-devices-problems")
    # Details beside the row: the sentence, and the library's text under it.
    details = wait_for("Details for Living Room TV", lambda: buttons_named("Details", "Living Room TV"))
    click(details[0])
    d = wait_for("the details dialog", dialog)
    wait_for("the sentence", lambda: labels_containing("Living Room TV did not answer", d))
    wait_for("the error", lambda: labels_containing("Connection refused", d))
    shot("gui-devices-details")
    click(response_buttons(d)["Close"])
    wait_for("the details to close", lambda: not dialog())
    click(buttons_named("Details", f"{UNKNOWN}:8009")[0])
    d = wait_for("the details dialog", dialog)
    wait_for("the sentence", lambda: labels_containing(f"No device called “{UNKNOWN}” was found", d))
    click(response_buttons(d)["Close"])
    wait_for("the details to close", lambda: not dialog())


def press(keys):
    press_keys("CastDeck", keys)
    time.sleep(0.15)


def tab_stops(count):
    """What the keyboard focus lands on over `count` presses of Tab, as (role, name)."""
    seen = []
    for _ in range(count):
        press("Tab")
        f = focused()
        seen.append((f.getRoleName(), plain(f.name)) if f is not None else (None, None))
    return seen


def rows_that_do_nothing_are_no_tab_stops():
    # Before connecting every device row connects on Enter: the demo's is reached with Tab.
    for _ in range(30):
        press("Tab")
        f = focused()
        if f is not None and f.getRoleName() == "list item" and plain(f.name) == plain("Demo Receiver"):
            break
    else:
        raise Failure("Tab never reached the Demo Receiver row")
    press("Return")
    wait_for("Enter on the row to connect", lambda: find_all(app, "Connected to Demo Receiver"), timeout=20)
    shot("gui-devices-connected")
    # Connected: its row, the session row and the volume row do nothing, so Tab passes them by.
    stops = tab_stops(30)
    inert = {plain(n) for n in ("Demo Receiver", "Connected to Demo Receiver", "Volume")}
    landed = [s for s in stops if s[0] == "list item" and s[1] in inert]
    if landed:
        raise Failure(f"Tab stopped on rows that do nothing: {landed}")
    if ("list item", plain("Living Room TV")) not in stops:
        raise Failure(f"an idle device row is no Tab stop any more: {stops}")
    if not any(s[0] == "slider" for s in stops):
        raise Failure(f"the volume slider inside its row is not reached: {stops}")
    # The demo's receiver runs inside CastDeck: there is no trust verdict to show.
    for role in ("image", "label"):
        if find_all(app, "Unverified device", role) or find_all(app, "Verified", role):
            raise Failure("the demo's own receiver carries a trust mark")
    click(find(app, "Disconnect", "push button"))
    wait_for("disconnected", lambda: not find_all(app, "Connected to Demo Receiver"))


def add_device_saves_only_what_answers():
    before = remembered()
    click(find(app, "Add Device by Address", "push button"))
    d = wait_for("the dialog", dialog)
    time.sleep(0.5)
    size = size_of(d)
    entry = find(d, "Device address", "text")

    def add_and_connect():
        found = [b for b in find_all(d, role="push button") if plain(b.name).replace("_", "").endswith("add and connect")]
        wait_for("Add and Connect to be sensitive", lambda: "sensitive" in states(found[0]))
        click(found[0])

    set_text(entry, "host:x")
    wait_for("the text to be refused", lambda: labels_containing("is not an address", d))
    if size_of(d) != size:
        raise Failure(f"the dialog changed size for the address error: {size} -> {size_of(d)}")
    set_text(entry, NOWHERE)
    add_and_connect()
    wait_for("the name to be reported", lambda: labels_containing(
        f"No device called “{NOWHERE}” was found. Check the name, or enter the device's IP address.", d), timeout=20)
    shot("gui-add-not-found")
    if size_of(d) != size:
        raise Failure(f"the dialog changed size for the lookup's answer: {size} -> {size_of(d)}")
    set_text(entry, "127.0.0.1:2")
    add_and_connect()
    wait_for("the address to be reported", lambda: labels_containing(
        "127.0.0.1:2 did not answer. Check that it is on and on this network.", d), timeout=20)
    if size_of(d) != size:
        raise Failure(f"the dialog changed size: {size} -> {size_of(d)}")
    if remembered() != before:
        raise Failure(f"an address that did not answer was saved: {remembered()}")
    # Add Anyway saves it, listed and not connected, and not as the last device used.
    click(find(d, "Add Anyway", "push button"))
    wait_for("the dialog to close", lambda: not dialog())
    find(app, "127.0.0.1:2", "list item")
    wait_for("the address to be saved", lambda: [x for x in remembered() if x["port"] == 2])
    if last_device() == "127.0.0.1:2" or find_all(app, "Connected to 127.0.0.1:2"):
        raise Failure("Add Anyway connected to the device or made it the last one")

    # A device that answers (the demo's receiver, by its address) is added and connected to.
    click(find(app, "Add Device by Address", "push button"))
    d = wait_for("the dialog", dialog)
    set_text(find(d, "Device address", "text"), DEMO)
    add_and_connect()
    wait_for("the connection", lambda: find_all(app, f"Connected to {DEMO}"), timeout=30)
    if last_device() != DEMO:
        raise Failure(f"the added device is not the last one used: {last_device()!r}")
    # Added by address, it is not the demo's own entry: its verdict shows, as a quiet mark.
    mark = wait_for("the unverified mark", lambda: find_all(app, "Unverified device", "image"), timeout=20)[0]
    if "genuine Cast device" not in (mark.description or ""):
        raise Failure(f"the mark gives no reason: {mark.description!r}")
    if find_all(app, "Unverified device", "label"):
        raise Failure("the verdict is still written out beside the session")
    shot("gui-devices-unverified")
    click(find(app, "Disconnect", "push button"))
    wait_for("disconnected", lambda: not find_all(app, f"Connected to {DEMO}"))


def forget_can_be_undone():
    before = remembered()
    # A failure's toast stays until it is read; Undo must not wait behind it.
    click(find(app, f"Connect to {UNKNOWN}:8009", "push button"))
    wait_for("the failure's toast", lambda: labels_containing("No device called"), timeout=20)
    click(buttons_named("Forget Device", "Living Room TV")[0])
    wait_for("the toast", lambda: find_all(app, "Forgot “Living Room TV”", "label"))
    undo = wait_for("Undo", lambda: [b for b in find_all(app, role="push button") if plain(b.name).startswith("undo")])
    shot("gui-devices-forgot")
    wait_for("the row to go", lambda: not find_all(app, "Living Room TV", "list item"))
    if [x for x in remembered() if x["port"] == 1]:
        raise Failure("the forgotten device is still saved")
    click(undo[0])
    find(app, "Living Room TV", "list item")
    wait_for("the device to be saved again as before", lambda: remembered() == before)


case("a device that cannot be reached says so in a word, the error behind Details", rows_say_what_is_wrong_in_a_word)
case("rows that do nothing are no Tab stops; Enter on a device row connects", rows_that_do_nothing_are_no_tab_stops)
case("Add Device saves only what answers, Add Anyway aside, and keeps its size", add_device_saves_only_what_answers)
case("Forget Device can be undone from its toast", forget_can_be_undone)
sys.exit(1 if case.failed else 0)
