# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Speaker groups in the window (issue 32), through AT-SPI: `castctl receiver --group Upstairs
--members "Kitchen speaker,Hall,Office" --member-hosts …` (each speaker on a loopback host of
its own at 8009, named by its setup API) and a lone speaker, "Bedroom"; the window remembers
all of them by address and is started on the group. The session lists the speakers with their
own volumes under "Group volume"; a speaker's slider sets that speaker alone (read on the
speaker's own connection by castctl), the group's slider scales them all, a speaker that leaves
is said. Then a speaker plays by itself: Play on Group with another speaker of the group moves
what plays to the group; with Bedroom it says they must be grouped in the Google Home app.
SHOTS_DIR, when set, gets a picture of the group's session."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from atspi_helpers import Cases, Failure, app_named, castctl, click, find, find_all, response_buttons, states, wait_for  # noqa: E402
from castraw import SIMULATOR_NS, RawSender  # noqa: E402

CASTCTL = os.environ["CASTCTL"]
GROUP = os.environ["GROUP_DEVICE"]  # HOST:PORT of the leader
SPEAKERS = dict(s.split("=", 1) for s in os.environ["GROUP_SPEAKERS"].split(";"))  # name=HOST
BEDROOM = os.environ["BEDROOM_DEVICE"]
SHOTS = os.environ.get("SHOTS_DIR")
case = Cases()
app = app_named("castdeck")


def volume_of(device):
    return json.loads(castctl(CASTCTL, device, "status", "--json"))["receiver"]["volume"]["level"]


def row_titled(prefix):
    return [n for n in find_all(app) if (n.name or "").startswith(prefix)]


def speakers_are_listed():
    find(app, "Group volume", timeout=30)
    for name in SPEAKERS:
        wait_for(f"the row of {name} with its volume", lambda: row_titled(f"{name} · 60 %"), timeout=30)
        find(app, f"Volume of {name}", "slider")
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-group-session.png")


def a_speakers_slider_sets_it_alone():
    slider = find(app, "Volume of Kitchen speaker", "slider")
    slider.queryValue().currentValue = 0.3
    wait_for("Kitchen speaker at 30 % on its own connection", lambda: abs(volume_of(SPEAKERS["Kitchen speaker"]) - 0.3) < 0.01)
    if abs(volume_of(SPEAKERS["Hall"]) - 0.6) > 0.01:
        raise Failure("another speaker changed with Kitchen speaker's slider")
    wait_for("the row to say 30 %", lambda: row_titled("Kitchen speaker · 30 %"))


def the_group_slider_scales_every_speaker():
    group = [s for s in find_all(app, "Volume", "slider")]
    if len(group) != 1:
        raise Failure(f"expected one group slider named Volume, found {len(group)}")
    before = group[0].queryValue().currentValue
    group[0].queryValue().currentValue = before / 2
    wait_for("Hall scaled to half", lambda: abs(volume_of(SPEAKERS["Hall"]) - 0.3) < 0.02)
    wait_for("Kitchen speaker scaled to half", lambda: abs(volume_of(SPEAKERS["Kitchen speaker"]) - 0.15) < 0.02)
    wait_for("the rows to show it", lambda: row_titled("Hall · 30 %"))


def a_speaker_that_leaves_is_said():
    host, port = GROUP.rsplit(":", 1)
    raw = RawSender(host, int(port), source="sender-groups-test")
    try:
        raw.request(SIMULATOR_NS, "receiver-0", {"type": "GROUP_MEMBER_LEAVE", "member": "Office"})
    finally:
        raw.close()
    find(app, "Office left the group Upstairs.", timeout=20)
    wait_for("Office's row to go", lambda: not row_titled("Office ·"))


def connect_to(name):
    buttons = [b for b in find_all(app, role="push button") if b.name in (f"Connect to {name}", f"Join {name}")]
    if not buttons:
        raise Failure(f"no Connect button for {name}")
    click(buttons[0])


def kitchen_plays_alone():
    castctl(CASTCTL, SPEAKERS["Kitchen speaker"], "cast", "https://example.com/radio.mp3", "--title", "Morning Radio")
    group_media = json.loads(castctl(CASTCTL, GROUP, "status", "--json")).get("media")
    if group_media:
        raise Failure(f"a speaker playing alone made the group play: {group_media}")
    connect_to("Kitchen speaker")
    find(app, "Morning Radio", "label", timeout=30)


def play_on_group(other):
    click(find(app, "Move to Another Device", "push button", timeout=20))
    dialog = find(app, "Move Playback", "dialog", timeout=20)
    choices = [n for n in find_all(dialog) if n.getRoleName() in ("radio button", "toggle button")
               and (n.name or "").startswith(other)]
    if not choices:
        raise Failure(f"the dialog does not offer {other}")
    buttons = response_buttons(dialog)
    if "sensitive" in states(buttons["Play on Group"]):
        raise Failure("Play on Group is offered before a speaker is chosen")
    click(choices[0])
    wait_for("Play on Group once a speaker is chosen", lambda: "sensitive" in states(buttons["Play on Group"]))
    click(buttons["Play on Group"])
    wait_for("the dialog to close", lambda: not find_all(app, "Move Playback", "dialog"), timeout=40)


def a_speaker_outside_the_group_is_told():
    play_on_group("Bedroom")
    # The toast says the first sentence; "Group them in the Google Home app…" is behind Details.
    find(app, "Kitchen speaker and Bedroom are not in a speaker group.", timeout=30)
    media = json.loads(castctl(CASTCTL, SPEAKERS["Kitchen speaker"], "status", "--json")).get("media") or {}
    if media.get("playerState") != "PLAYING":
        raise Failure(f"Kitchen speaker stopped although nothing moved: {media}")


def play_on_group_moves_to_the_group():
    play_on_group("Hall")
    media = wait_for("the group to play it", lambda: (m := json.loads(castctl(CASTCTL, GROUP, "status", "--json")).get("media"))
                     and m.get("playerState") == "PLAYING" and m, timeout=30)
    if not media["media"]["contentId"].endswith("/radio.mp3"):
        raise Failure(f"the group plays something else: {media}")
    # Kitchen speaker plays the group's playback now, not its own (which ended).
    kitchen = json.loads(castctl(CASTCTL, SPEAKERS["Kitchen speaker"], "status", "--json"))
    group_app = json.loads(castctl(CASTCTL, GROUP, "status", "--json"))["receiver"]["applications"][0]["sessionId"]
    if kitchen["receiver"]["applications"][0]["sessionId"] != group_app or (kitchen.get("media") or {}).get("playerState") != "PLAYING":
        raise Failure(f"Kitchen speaker does not play with the group: {kitchen}")
    find(app, "Casting to Upstairs", timeout=20)


case("the group's speakers are listed with their own volumes under Group volume", speakers_are_listed)
case("a speaker's slider sets that speaker alone, on its own connection", a_speakers_slider_sets_it_alone)
case("the group's slider scales every speaker", the_group_slider_scales_every_speaker)
case("a speaker that leaves the group is said", a_speaker_that_leaves_is_said)
case("a speaker of the group plays by itself", kitchen_plays_alone)
case("Play on Group with a speaker outside every group says to group them", a_speaker_outside_the_group_is_told)
case("Play on Group with another speaker of the group moves playback to the group", play_on_group_moves_to_the_group)
sys.exit(1 if case.failed else 0)
