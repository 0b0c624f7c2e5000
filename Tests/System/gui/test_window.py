# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Drives the real castdeck window under Xvfb through AT-SPI, against its in-process
simulated receiver (castdeck --demo), and checks what the receiver reports with castctl
(a separate process and a separate Cast sender)."""
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import (Failure, app_named, castctl, click, find, find_all, press_keys, process_running,
                           receiver_media, response_buttons, states, wait_for)

CASTCTL = os.environ["CASTCTL"]
DEVICE = os.environ["DEMO_DEVICE"]
SHOTS = os.environ.get("SHOTS_DIR")
results = []


def shot(name):
    if SHOTS:
        os.system(f"import -window root {SHOTS}/{name}.png")


def case(name):
    def wrap(fn):
        def run():
            t0 = time.time()
            try:
                fn()
                results.append((name, "ok", ""))
                print(f"ok   {name} ({time.time() - t0:.1f}s)", flush=True)
            except Exception as e:
                results.append((name, "FAIL", str(e)))
                import traceback
                print(f"FAIL {name}: {e}\n{traceback.format_exc(limit=-2)}", flush=True)
                raise
        run.__name__ = fn.__name__
        return run
    return wrap


app = app_named("castdeck")


def pressed(node):
    return "pressed" in states(node) or "checked" in states(node)


@case("the device list names the demo receiver; picking it connects")
def pick_device():
    find(app, "Demo Receiver")
    # The row is named by the friendly name; its Connect button activates it.
    connect = find(app, "Connect to Demo Receiver", "push button")
    shot("gui-devices")
    click(connect)
    find(app, "Cast sample", "push button")
    wait_for("the row to show Connected", lambda: find_all(app, "Connected"))
    # Connected: the row offers no second Connect, and the session row names the device.
    if find_all(app, "Connect to Demo Receiver", "push button"):
        raise Failure("the connected row still offers Connect")
    if not find_all(app, "Connected to Demo Receiver"):
        raise Failure("the session row does not say which device is connected")
    # The demo receiver runs inside CastDeck: whether it is a genuine Cast device says nothing,
    # so no trust mark is shown for it (the same receiver added by address is marked, quietly:
    # test_devices.py).
    for role in ("image", "label"):
        if find_all(app, "Unverified device", role):
            raise Failure(f"the demo's own receiver is marked Unverified device ({role})")


@case("cast the sample: the receiver plays it and the pre-roll banner shows")
def cast_sample():
    click(find(app, "Cast sample", "push button"))
    wait_for("media on the receiver",
             lambda: receiver_media(CASTCTL, DEVICE).get("media", {}).get("metadata", {}).get("title") == "Big Buck Bunny")
    banner = wait_for("the ad banner", lambda: [n for n in find_all(app, role="label") if n.name.startswith("Ad 1 of 3")])
    # "Ad 1 of 3 · 0:14": the clip's remaining time, left-to-right isolated.
    text = banner[0].name.replace("\u2066", "").replace("\u2069", "")
    if not re.fullmatch(r"Ad 1 of 3 · \d+:\d\d", text):
        raise Failure(f"unexpected banner text {text!r}")
    # Media opened the expanded controller: seeking is off during the ad.
    position = find(app, "Position")
    if "sensitive" in states(position):
        raise Failure("the seek bar is sensitive during an ad")


@case("'Skip ad' is refused until skippable, then skips")
def skip_ad():
    skip = find(app, "Skip ad", "push button")
    first = receiver_media(CASTCTL, DEVICE).get("breakStatus", {})
    if "sensitive" not in states(skip):
        shot("gui-ad-banner")
        try:
            click(skip)   # an insensitive button ignores the action
        except Exception:
            pass
        time.sleep(0.5)
        now = receiver_media(CASTCTL, DEVICE).get("breakStatus", {})
        if now.get("breakClipId") != first.get("breakClipId"):
            raise Failure(f"the ad was skipped before it was skippable: {first} -> {now}")
    else:
        raise Failure("Skip ad was sensitive at the start of a clip with a 5 s countdown")
    wait_for("Skip ad to become sensitive", lambda: "sensitive" in states(find(app, "Skip ad", "push button")), timeout=15)
    clip = receiver_media(CASTCTL, DEVICE).get("breakStatus", {}).get("breakClipId")
    click(find(app, "Skip ad", "push button"))
    wait_for("the receiver to leave that clip",
             lambda: receiver_media(CASTCTL, DEVICE).get("breakStatus", {}).get("breakClipId") != clip)
    # Finish the pre-roll: skip every further clip once it allows it.
    def out_of_break():
        media = receiver_media(CASTCTL, DEVICE)
        if not media.get("breakStatus"):
            return True
        skip = find_all(app, "Skip ad", "push button")
        if skip and "sensitive" in states(skip[0]):
            click(skip[0])
        return False
    wait_for("the pre-roll to end", out_of_break, timeout=60, interval=0.5)
    wait_for("the banner to go", lambda: not find_all(app, "Skip ad", "push button"))


@case("2× makes the receiver report playbackRate 2")
def rate_two():
    b = find(app, "Playback speed 2×", "push button") if find_all(app, "Playback speed 2×", "push button") \
        else find(app, "Playback speed 2×")
    wait_for("the rate control to be sensitive", lambda: "sensitive" in states(b))
    click(b)
    wait_for("playbackRate 2", lambda: receiver_media(CASTCTL, DEVICE).get("playbackRate") == 2)
    wait_for("2× pressed", lambda: pressed(find(app, "Playback speed 2×")))
    shot("gui-expanded")


def exposed(name, role="push button"):
    """Every widget with this name that assistive technology can reach, shown or not."""
    return find_all(app, name, role, visible_only=False)


@case("the hidden mini controller is not exposed next to the expanded controller")
def one_pause_button():
    wait_for("playback", lambda: exposed("Pause"))
    # On the player page only the expanded controller's transport exists for AT-SPI.
    wait_for("a single Pause button", lambda: len(exposed("Pause")) == 1)
    if exposed("Open expanded controller"):
        raise Failure("the mini controller is exposed while the expanded controller is shown")
    # Back on the device list the mini controller is there, with its own Pause.
    click(find(app, "Back to devices", "push button"))
    wait_for("the mini controller", lambda: exposed("Open expanded controller"))
    wait_for("a single Pause button on the device list", lambda: len(exposed("Pause")) == 1)
    click(find(app, "Open expanded controller", "push button"))
    wait_for("the expanded controller again", lambda: not exposed("Open expanded controller"))


@case("castctl rate 0.5 from another process selects 0.5×")
def rate_from_other_sender():
    castctl(CASTCTL, DEVICE, "rate", "0.5")
    wait_for("0.5× pressed", lambda: pressed(find(app, "Playback speed 0.5×")))
    for other in ("Playback speed 2×", "Playback speed 1×"):
        if pressed(find(app, other)):
            raise Failure(f"{other} is still pressed next to 0.5×")


def user_actions():
    media = receiver_media(CASTCTL, DEVICE).get("media") or {}
    return sorted(s.get("userAction") for s in media.get("userActionStates") or [])


@case("Like and Dislike send USER_ACTION and follow another sender's rating")
def rating():
    like = find(app, "Like")
    wait_for("Like to be sensitive", lambda: "sensitive" in states(like))
    click(like)
    wait_for("LIKE on the receiver", lambda: user_actions() == ["LIKE"])
    wait_for("Like pressed", lambda: pressed(find(app, "Like")))
    castctl(CASTCTL, DEVICE, "dislike")
    wait_for("Dislike pressed and Like not", lambda: pressed(find(app, "Dislike")) and not pressed(find(app, "Like")))
    click(find(app, "Dislike"))
    wait_for("the rating taken back", lambda: user_actions() == [])
    wait_for("neither pressed", lambda: not pressed(find(app, "Dislike")) and not pressed(find(app, "Like")))


def checked_rows():
    """The names of the tracks popover's chosen rows (radio buttons checked for AT-SPI)."""
    return sorted(n.name.lstrip("\u200e\u200f") for n in find_all(app, role="radio button") if "checked" in states(n))


@case("choosing a subtitle sets activeTrackIds; one checked row per group")
def subtitles():
    click(find(app, "Subtitles and audio"))
    # A track is named by its language (and its title when it has more to say), as in every menu.
    for name in ("Off", "English", "Persian", "English (stereo)", "English · \u2068Commentary\u2069"):
        find(app, name, "radio button")
    # Nothing chosen yet among the subtitles: Off, and the first audio track, are the checked rows.
    wait_for("Off and the first audio track checked", lambda: checked_rows() == ["English (stereo)", "Off"])
    click(find(app, "English", "radio button"))
    wait_for("track 1 active", lambda: 1 in (receiver_media(CASTCTL, DEVICE).get("activeTrackIds") or []))
    wait_for("English checked instead of Off", lambda: checked_rows() == ["English", "English (stereo)"])
    shot("gui-tracks")
    click(find(app, "Off", "radio button"))
    wait_for("no text track", lambda: not ({1, 2} & set(receiver_media(CASTCTL, DEVICE).get("activeTrackIds") or [])))
    wait_for("Off checked again", lambda: checked_rows() == ["English (stereo)", "Off"])
    click(find(app, "English", "radio button"))
    wait_for("track 1 active again", lambda: 1 in (receiver_media(CASTCTL, DEVICE).get("activeTrackIds") or []))


@case("applying a style sets textTrackStyle")
def style():
    click(find(app, "Subtitle style", "push button"))
    outline = find(app, "Edge type: Outline")
    click(outline)
    bold = find(app, "Font style: Bold")
    click(bold)
    shot("gui-style-editor")
    # Its rows only hold the controls: the keyboard goes to those, never to a row itself.
    editor = find(app, "Subtitle Style", "frame")
    tab_stops = [r.name for r in find_all(editor, role="list item") if "focusable" in states(r)]
    if tab_stops:
        raise Failure(f"style editor rows that do nothing take the focus: {tab_stops[:5]}")
    click(find(app, "Apply", "push button"))
    def applied():
        s = receiver_media(CASTCTL, DEVICE).get("media", {}).get("textTrackStyle") or {}
        return s.get("edgeType") == "OUTLINE" and s.get("fontStyle") == "BOLD"
    wait_for("textTrackStyle OUTLINE/BOLD", applied)


def device_volume():
    return json.loads(castctl(CASTCTL, DEVICE, "status", "--json")).get("receiver", {}).get("volume") or {}


@case("mute both ways (the device's, as in Google's Cast dialog)")
def mute():
    m = find(app, "Mute")
    was = pressed(m)
    click(m)
    wait_for("device muted", lambda: device_volume().get("muted") is (not was))
    castctl(CASTCTL, DEVICE, "unmute") if not was else castctl(CASTCTL, DEVICE, "mute")
    wait_for("Mute toggle follows the device", lambda: pressed(find(app, "Mute")) == was)


@case("volume both ways (the device's)")
def volume():
    castctl(CASTCTL, DEVICE, "volume", "0.3")
    slider = find(app, "Volume")
    wait_for("the slider at 0.3", lambda: abs(slider.queryValue().currentValue - 0.3) < 0.01)
    # From the window: set the slider through its accessible value, as assistive technology does.
    slider.queryValue().currentValue = 0.6
    def raised():
        level = device_volume().get("level")
        return level is not None and abs(level - 0.6) < 0.01
    wait_for("the device volume to reach 0.6", raised)


def quit_dialog():
    press_keys("CastDeck", "ctrl+q")
    return find(app, "Stop casting to Demo Receiver?", "dialog")


@case("Ctrl+Q in the demo offers only Cancel and Stop Casting (the receiver ends with CastDeck)")
def quit_in_the_demo():
    # The subtitle style editor and the tracks popover (left open above) are closed first, as a
    # person would: the question is the main window's.
    # (The popover first: while it is open it takes the keyboard.)
    if find_all(app, "GtkPopover", "filler"):
        click(find(app, "Subtitles and audio"))
    wait_for("the popover to close", lambda: not find_all(app, "GtkPopover", "filler"))
    # Escape closes the editor, as it closes other GNOME dialogs.
    if find_all(app, "Subtitle Style", "frame"):
        press_keys("Subtitle Style", "Escape")
    wait_for("the style editor to close on Escape", lambda: not find_all(app, "Subtitle Style", "frame"))
    dialog = quit_dialog()
    buttons = response_buttons(dialog)
    # Each button has one name, as shown: not "_Cancel Cancel" (GTK 4.8's own naming).
    raw = sorted({b.name for b in find_all(dialog, role="push button")})
    if raw != ["Cancel", "Stop Casting"]:
        raise Failure(f"the quit question's buttons are named {raw}")
    if set(buttons) != {"Cancel", "Stop Casting"}:
        raise Failure(f"the demo's quit question offers {sorted(buttons)}, not only Cancel and Stop Casting")
    find(dialog, "Demo Receiver runs inside CastDeck: quitting stops it and the media it plays.", "label")
    shot("gui-quit-demo")
    click(buttons["Cancel"])
    wait_for("the question to close", lambda: not find_all(app, role="dialog"))
    time.sleep(1)
    media = receiver_media(CASTCTL, DEVICE)
    if media.get("playerState") in (None, "IDLE"):
        raise Failure(f"Cancel stopped the media: {media.get('playerState')}")
    # Stop Casting stops the media and quits (the demo receiver with it).
    pid = app.get_process_id()
    click(response_buttons(quit_dialog())["Stop Casting"])
    wait_for("castdeck to quit", lambda: not process_running(pid), timeout=20)


for test in [pick_device, cast_sample, skip_ad, rate_two, one_pause_button, rate_from_other_sender, rating, subtitles, style, mute, volume,
             quit_in_the_demo]:
    try:
        test()
    except Exception:
        pass

failed = [r for r in results if r[1] != "ok"]
print(f"\n{len(results) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
