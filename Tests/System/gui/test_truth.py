# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""The window tells the truth about the device (issue 11), driven through AT-SPI against a
simulated receiver at its own loopback address on the standard ports (Cast 8009, setup API
8008), with castctl as a second sender and a way to read what the receiver really does."""
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import (Cases, Failure, app_named, castctl, click, find, find_all, receiver_media, set_text,
                           states, value_of, wait_for)

CASTCTL = os.environ["CASTCTL"]
HOST = os.environ["TRUTH_HOST"]
DEVICE = HOST  # port 8009
MEDIA = os.environ["MEDIA_URL"]  # a directory served over HTTP: film.mp4, short.mp4, breaks.json
BREAKS = os.environ["BREAKS_FILE"]
RESTART = os.environ["RESTART_RECEIVER"]  # a command that starts the receiver again
PIDFILE = os.environ["RECEIVER_PIDFILE"]
SHOTS = os.environ.get("SHOTS_DIR")
case = Cases()
app = app_named("castdeck")


def status():
    return json.loads(castctl(CASTCTL, DEVICE, "status", "--json"))


def cast(name, *extra):
    castctl(CASTCTL, DEVICE, "cast", f"{MEDIA}/{name}", "--title", name, *extra)


def visible_button(name):
    return [b for b in find_all(app, name, "push button")]


def sensitive(node):
    return "sensitive" in states(node)


def back_to_devices():
    for b in visible_button("Back to devices"):
        click(b)
    find(app, "Add Device by Address", "push button")


def named_by_the_device():
    # Added as a bare address; the device said its name over its setup API.
    find(app, "Living Room TV", timeout=30)
    find(app, "Connected to Living Room TV", timeout=30)
    # The simulator has no Cast credentials: a small shield says so to whoever asks (its name
    # and description), without words in orange beside the session.
    mark = find(app, "Unverified device", "image", timeout=20)
    if "genuine Cast device" not in (mark.description or ""):
        raise Failure(f"the unverified mark gives no reason: {mark.description!r}")
    if find_all(app, "Unverified device", "label"):
        raise Failure("the verdict is written out beside the session")


def offers_something_to_cast():
    # The page's own buttons, named by their labels (the header bar's is "Cast a File").
    for name in ("Cast a File…", "Cast a Link…"):
        button = find(app, name, "push button")
        if not sensitive(button):
            raise Failure(f"{name} is not sensitive")


def device_volume_shows():
    castctl(CASTCTL, DEVICE, "volume", "0.4")
    slider = find(app, "Volume", "slider")
    wait_for("the Volume slider at 0.4", lambda: abs(value_of(slider) - 0.4) < 0.01)
    castctl(CASTCTL, DEVICE, "volume", "1")


def foreign_app_is_named():
    # An app without the media namespace (the simulator's --app): launched, it cannot load.
    subprocess.run([CASTCTL, "cast", "--device", DEVICE, "--app", "5C3F0A3C", f"{MEDIA}/film.mp4", "--timeout", "5"],
                   capture_output=True, timeout=30)
    wait_for("the app to be named", lambda: [n for n in find_all(app, role="label")
                                              if (n.name or "").startswith("App 5C3F0A3C is running")])


def finished_offers_play_again():
    cast("short.mp4")
    again = find(app, "Play Again", "push button", timeout=40)
    find(app, "Finished", "label")
    if find_all(app, "Open expanded controller", "push button"):
        raise Failure("the mini controller stays after the media finished")
    for b in find_all(app, "Play", "push button") + find_all(app, "Pause", "push button"):
        raise Failure("a Play/Pause button is offered for finished media")
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-finished.png")
    # Back on the devices page it stays reachable: the session row says Finished and the bar's
    # play button is Play Again.
    click(find(app, "Back to devices", "push button"))
    wait_for("the session row to say Finished", lambda: [n for n in find_all(app, role="label")
                                                       if (n.name or "").startswith("Finished")])
    again = wait_for("the bar's Play Again", lambda: (find_all(app, "Play Again", "push button") or [None])[0])
    click(again)
    wait_for("the receiver to play it again", lambda: status().get("media", {}).get("playerState") in ("PLAYING", "BUFFERING"))
    if not status().get("media", {}).get("media", {}).get("contentId", "").endswith("short.mp4"):
        raise Failure("Play Again loaded something else")


def skip_ad_at_double_speed():
    # Content at 2×, a 15 s pre-roll clip skippable after 5 s of the receiver's break clock.
    cast("film.mp4", "--rate", "2", "--ad-breaks", BREAKS)
    skip = find(app, "Skip Ad", "push button", timeout=30)
    if sensitive(skip):
        raise Failure("Skip Ad is sensitive at the start of the clip")

    def now_sensitive():
        found = visible_button("Skip Ad")
        return found and sensitive(found[0])
    wait_for("Skip Ad to become sensitive", now_sensitive, timeout=30, interval=0.05)
    clip = status().get("media", {}).get("breakStatus", {}).get("currentBreakClipTime")
    if clip is None or clip < 4.9:
        raise Failure(f"Skip Ad turned on before the receiver's break clock reached 5 s (it is at {clip})")
    click(visible_button("Skip Ad")[0])
    wait_for("the break to end on the receiver", lambda: "breakStatus" not in status().get("media", {}), timeout=15)
    refusals = [n for n in find_all(app, role="label") if "refused" in (n.name or "") or "SKIP_AD" in (n.name or "")]
    if refusals:
        raise Failure(f"the receiver refused: {refusals[0].name!r}")


def failed_add_keeps_the_session():
    cast("film.mp4")
    wait_for("the window to show the film", lambda: find_all(app, "film.mp4", "label"))
    back_to_devices()
    click(find(app, "Add Device by Address", "push button"))
    entry = find(app, "Device address", "text")
    set_text(entry, "nonsense:port")
    wait_for("the dialog to say what is wrong", lambda: [n for n in find_all(app, role="label")
                                                          if "is not an address" in (n.name or "")])
    # libadwaita 1.2 names a dialog's response buttons "_Label Label".
    def add_button():
        found = [b for b in find_all(app, role="push button") if (b.name or "").endswith("Add and Connect")]
        if not found:
            raise Failure("no Add and Connect button")
        return found[0]
    if sensitive(add_button()):
        raise Failure("Add and Connect is sensitive for a text that is not an address")
    set_text(entry, "127.0.0.1:1")
    wait_for("Add and Connect to turn on", lambda: sensitive(add_button()))
    click(add_button())
    # Nothing answers there: the dialog stays and says so, and nothing is added or connected.
    wait_for("the failure to be told", lambda: [n for n in find_all(app, role="label") if "did not answer" in (n.name or "")])
    for b in find_all(app, role="push button"):
        if (b.name or "").endswith("Cancel"):
            click(b)
            break
    wait_for("the dialog to close", lambda: not find_all(app, role="dialog"))
    if find_all(app, "127.0.0.1:1", "list item"):
        raise Failure("an address where nothing answered was added")
    find(app, "Connected to Living Room TV")
    # The session that was playing still works: Pause in the mini controller reaches the receiver.
    click(find(app, "Pause", "push button"))
    wait_for("the receiver to pause", lambda: status().get("media", {}).get("playerState") == "PAUSED")
    castctl(CASTCTL, DEVICE, "play")


def killed_receiver_shows_reconnecting():
    for opener in find_all(app, "Open expanded controller", "push button"):
        click(opener)
    find(app, "film.mp4", "label")
    pid = int(open(PIDFILE).read())
    os.kill(pid, signal.SIGKILL)
    wait_for("the reconnecting banner", lambda: [n for n in find_all(app, role="label")
                                                  if (n.name or "").startswith("Connection lost")], timeout=15)
    play = (find_all(app, "Pause", "push button") + find_all(app, "Play", "push button"))
    if not play:
        raise Failure("no Play/Pause button while reconnecting")
    if any(sensitive(b) for b in play):
        raise Failure("the transport stays live while the device is gone")
    disconnect = find(app, "Disconnect", "push button")
    if not sensitive(disconnect):
        raise Failure("Disconnect is not offered")
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-reconnecting.png")
    subprocess.run(["bash", "-c", RESTART], check=True, timeout=30)
    wait_for("the banner to go", lambda: not [n for n in find_all(app, role="label")
                                              if (n.name or "").startswith("Connection lost")], timeout=30)
    # The device restarted with nothing playing: the window says so and keeps the item, Stopped,
    # with Play Again (it no longer jumps to the devices page without a word) ...
    wait_for("the restart to be told", lambda: [n for n in find_all(app, role="label")
                                               if "probably because it restarted" in (n.name or "")], timeout=20)
    # (on the player page or, as here after Finished above, in the devices page's bar)
    wait_for("Stopped", lambda: [n for n in find_all(app, role="label") if (n.name or "").startswith("Stopped")])
    find(app, "film.mp4", "label")
    find(app, "Play Again", "push button")
    # ... then follows what is cast there.
    cast("film.mp4", "--start", "30")
    find(app, "film.mp4", "label", timeout=20)


case("a device added by address shows the name it gives", named_by_the_device)
case("with nothing playing, Cast a File and Cast a Link are offered", offers_something_to_cast)
case("the device volume set by castctl shows on the Volume slider", device_volume_shows)
case("an app CastDeck cannot control is named", foreign_app_is_named)
case("finished media says Finished and Play Again plays it", finished_offers_play_again)
case("at 2×, Skip Ad waits for the receiver's break clock", skip_ad_at_double_speed)
case("a failed Add Device keeps the session and errors show in the dialog", failed_add_keeps_the_session)
case("a killed receiver shows Reconnecting with the transport off, then follows the device", killed_receiver_shows_reconnecting)
sys.exit(1 if case.failed else 0)
