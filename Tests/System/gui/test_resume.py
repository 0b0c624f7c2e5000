# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Going on where a file stopped (issue 36, part 4), in the real window through AT-SPI: castdeck
casts a file (given on its command line), castctl seeks, the window's Stop Casting stops it; a
second `castdeck FILE` casts it again and the window asks "Resume Playback?": Resume at 1:10
(the receiver, read by castctl, plays from there), Start Over (from 0:00), Escape (nothing is
cast), Enter (the default, Resume); Preferences (Ctrl+comma) turns remembering off with its
switch, which the GSettings key follows and which forgets what was remembered; then nothing is
asked. Preferences also holds "Send surround sound as is to DEVICE", off by default, which
writes the device's id to the surround-devices key."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import (Cases, Failure, app_named, castctl, click, find, find_all, press_keys, receiver_media,
                           response_buttons, states, wait_for)

CASTCTL = os.environ["CASTCTL"]
CASTDECK = os.environ["CASTDECK"]
DEVICE = os.environ["RESUME_DEVICE"]
FILE = os.environ["RESUME_FILE"]
STATE = os.environ["STATE_FILE"]
SETTINGS = os.environ["SETTINGS_FILE"]
SHOTS = os.environ.get("SHOTS_DIR")
app = app_named("castdeck")
case = Cases()


def position():
    return json.loads(castctl(CASTCTL, DEVICE, "status", "--json")).get("position") or 0


def playing():
    return receiver_media(CASTCTL, DEVICE).get("playerState") == "PLAYING"


def remembered():
    try:
        with open(STATE) as f:
            return [e["position"] for e in json.load(f)["entries"].values()]
    except (OSError, ValueError, KeyError):
        return []


def stop_in_window():
    # The player page's Stop Casting (the mini controller's is hidden while the page shows).
    click(find(app, "Stop Casting", "push button"))
    wait_for("the receiver to stop", lambda: receiver_media(CASTCTL, DEVICE).get("playerState") == "IDLE")


def cast_again():
    """`castdeck FILE` again: the running window is handed the file, as by Open With."""
    done = subprocess.run([CASTDECK, FILE], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise Failure(f"the second castdeck exited with {done.returncode}: {done.stderr.strip()}")


def the_question():
    return wait_for("the Resume Playback? dialog",
                    lambda: [d for d in find_all(app, role="dialog") if d.name == "Resume Playback?"], timeout=20)[0]


def no_question():
    return not [d for d in find_all(app, role="dialog") if d.name == "Resume Playback?"]


def first_cast_asks_nothing():
    wait_for("the receiver to play the file", playing, timeout=40)
    time.sleep(1)
    if not no_question():
        raise Failure("the first cast of the file asked where to resume")


def stopped_part_way_is_remembered():
    castctl(CASTCTL, DEVICE, "seek", "70")
    time.sleep(1)  # the window has heard
    stop_in_window()
    wait_for("the position written down", lambda: any(69 <= p <= 80 for p in remembered()), timeout=20)
    mode = oct(os.stat(STATE).st_mode & 0o777)
    if mode != "0o600":
        raise Failure(f"the state file's mode is {mode}")


def resume_goes_on_from_there():
    cast_again()
    dialog = the_question()
    buttons = response_buttons(dialog)
    resume = [name for name in buttons if name.startswith("Resume at 1:1")]
    if set(buttons) != {"Start Over", *resume} or len(resume) != 1:
        raise Failure(f"the question offers {sorted(buttons)}")
    body = [n.name for n in find_all(dialog, role="label") if "stopped at" in (n.name or "")]
    name = os.path.basename(FILE)
    if not body or not body[0].startswith(f"“{name}” stopped at 1:1") or not body[0].endswith(" last time."):
        raise Failure(f"the question does not say what stopped where: {body}")
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-resume-dialog.png")
    click(buttons[resume[0]])
    wait_for("the receiver to play", playing, timeout=30)
    p = position()
    if not 69 <= p <= 85:
        raise Failure(f"Resume at 1:10 started at {p}")


def start_over_starts_at_zero():
    castctl(CASTCTL, DEVICE, "stop")
    cast_again()
    click(response_buttons(the_question())["Start Over"])
    wait_for("the receiver to play", playing, timeout=30)
    p = position()
    if p > 6:
        raise Failure(f"Start Over started at {p}")


def escape_casts_nothing_and_enter_resumes():
    castctl(CASTCTL, DEVICE, "seek", "50")
    time.sleep(0.5)
    castctl(CASTCTL, DEVICE, "stop")
    wait_for("the position written down", lambda: any(49 <= p <= 60 for p in remembered()), timeout=20)
    before = receiver_media(CASTCTL, DEVICE).get("mediaSessionId")
    cast_again()
    the_question()
    press_keys("Resume Playback?", "Escape")
    wait_for("the question gone", no_question)
    time.sleep(1.5)
    now = receiver_media(CASTCTL, DEVICE)
    if now.get("mediaSessionId") != before or now.get("playerState") != "IDLE":
        raise Failure(f"Escape cast something: {now.get('playerState')} session {now.get('mediaSessionId')} (was {before})")
    cast_again()
    the_question()
    press_keys("Resume Playback?", "Return")
    wait_for("the receiver to play", playing, timeout=30)
    p = position()
    if not 49 <= p <= 65:
        raise Failure(f"Enter (Resume, the default) started at {p}")


def on_state(node):
    return bool({"checked", "pressed"} & states(node))


def preferences_turn_it_off():
    press_keys("CastDeck", "ctrl+comma", prefix=True)
    window = wait_for("the Preferences window", lambda: [f for f in find_all(app, role="frame") if f.name == "Preferences"]
                      or [f for f in find_all(app, role="dialog") if f.name == "Preferences"], timeout=20)[0]
    try:
        switch = wait_for("the switch", lambda: [n for n in find_all(window, "Remember where playback stopped")
                                                 if n.getRoleName() in ("switch", "toggle button", "check box")], timeout=10)[0]
    except Failure:
        from atspi_helpers import walk
        raise Failure("no switch; the window holds: " + repr(sorted({f"{n.getRoleName()}:{n.name}" for n in walk(window)})))
    on = lambda: bool({"checked", "pressed"} & states(switch))
    if not on():
        raise Failure(f"the switch is off by default: {states(switch)}")
    if "Turning this off forgets" not in (switch.description or ""):
        raise Failure(f"the switch's description: {switch.description!r}")
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-preferences.png")
    click(switch)
    wait_for("the switch off", lambda: not on())
    def key_false():
        with open(SETTINGS) as f:
            return "remember-positions=false" in f.read()
    try:
        wait_for("the GSettings key false", key_false, timeout=10)
    except Failure:
        raise Failure(f"the keyfile {SETTINGS} holds: {open(SETTINGS).read() if os.path.exists(SETTINGS) else 'nothing'}; "
                      f"settings: {subprocess.run(['ls', '-R', os.path.dirname(os.path.dirname(os.path.dirname(SETTINGS)))], capture_output=True, text=True).stdout}")
    wait_for("everything forgotten", lambda: remembered() == [], timeout=10)
    # Surround Sound: a switch per device, off by default; on writes the device's id to the key.
    surround = wait_for("a surround switch", lambda: [n for n in find_all(window)
                                                      if (n.name or "").startswith("Send surround sound as is to ")
                                                      and n.getRoleName() in ("switch", "toggle button", "check box")], timeout=10)[0]
    if on_state(surround):
        raise Failure(f"{surround.name} is on by default")
    click(surround)
    wait_for("the surround switch on", lambda: on_state(surround))
    def surround_key():
        with open(SETTINGS) as f:
            return any(l.startswith("surround-devices=") and "'" in l for l in f)
    wait_for("the surround-devices key names the device", surround_key, timeout=10)
    click(surround)
    wait_for("the surround switch off again", lambda: not on_state(surround))
    press_keys("Preferences", "Escape")
    wait_for("the Preferences window closed", lambda: not [f for f in find_all(app) if f.name == "Preferences"
                                                            and f.getRoleName() in ("frame", "dialog")])
    # Off: stopped part-way, cast again, nothing is asked and it starts at the start.
    castctl(CASTCTL, DEVICE, "seek", "60")
    castctl(CASTCTL, DEVICE, "stop")
    time.sleep(1)
    if remembered():
        raise Failure(f"remembered while off: {remembered()}")
    cast_again()
    wait_for("the receiver to play", playing, timeout=30)
    time.sleep(1)
    if not no_question():
        raise Failure("asked while remembering is off")
    if position() > 6:
        raise Failure(f"started at {position()} while off")


case("the first cast of a file asks nothing", first_cast_asks_nothing)
case("seek, then the window's Stop Casting: the place is written down (mode 600)", stopped_part_way_is_remembered)
case("casting it again asks; Resume at 1:10 plays from there", resume_goes_on_from_there)
case("Start Over plays from 0:00", start_over_starts_at_zero)
case("Escape casts nothing; Enter is Resume", escape_casts_nothing_and_enter_resumes)
case("Preferences (Ctrl+comma): the switch turns it off, forgets, and nothing is asked", preferences_turn_it_off)
print(f"\n{6 - case.failed} passed, {case.failed} failed")
sys.exit(1 if case.failed else 0)
