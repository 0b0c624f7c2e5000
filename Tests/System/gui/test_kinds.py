# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Device kinds (issue 30) in the real window, read and driven through AT-SPI: one simulator of
each kind (kinds_support.Scene: `castctl receiver --kind … --clock manual`) and a castdeck on
it. A projector's fixed volume has no slider or Mute, only the sentence that it is set on the
TV; YouTube started on a TV by another phone (the LAUNCH hook) is named, Stop App ends it (the
receiver, asked by castctl, runs nothing after) and casting stays offered; a TV switched to
another input (SWITCH_INPUT) says so; a speaker's audio is offered no subtitles; ambient mode
(the receiver clock moved past --ambient-after) says the one sentence with Resume, which loads
the media again where it stood, a local file shared anew; a reboot (REBOOT) is said once the
window has reconnected, and Resume goes on there too. SHOTS_DIR, when set, gets pictures."""
import json
import os
import sys
import http.client
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import Failure, click, find, find_all, run_cases, set_text, wait_for  # noqa: E402
from kinds_support import Scene  # noqa: E402

SHOTS = os.environ.get("SHOTS_DIR")
FILE = os.environ["KINDS_FILE"]  # a local video castdeck is given on its command line
FILE_TITLE = os.environ.get("KINDS_FILE_TITLE", "Test Film")
FILM = {"type": "LOAD", "requestId": 1, "autoplay": True,
        "media": {"contentId": "https://media.example/yt/abc", "contentType": "video/mp4", "streamType": "BUFFERED",
                  "duration": 600, "metadata": {"metadataType": 0, "title": "Mountain Trains"}}}


def labels(app, prefix):
    return [n for n in find_all(app, role="label") if (n.name or "").startswith(prefix)]


def status(scene):
    return json.loads(scene.castctl("status", "--json"))


def cast_link(scene, url):
    """Cast a Link… on the devices page, as someone typing an address."""
    click(find(scene.app, "Cast a Link…", "push button"))
    set_text(find(scene.app, "Web address", "text"), url)
    # libadwaita 1.2 names a dialog's response buttons "_Label Label".
    cast = wait_for("the dialog's Cast", lambda: [b for b in find_all(scene.app, role="push button")
                                                 if (b.name or "").endswith("Cast") and b.name != "Cast a Link…"])
    click(cast[0])
    wait_for("the receiver to play it", lambda: (status(scene).get("media") or {}).get("playerState") == "PLAYING", timeout=30)


def projector_has_a_fixed_volume():
    with Scene("projector", "Projector") as s:
        find(s.app, "Fixed: set it on the TV or amplifier", "label")
        if find_all(s.app, "Volume", "slider") or find_all(s.app, "Mute", "push button"):
            raise Failure("a fixed volume is offered a slider or Mute")
        # Nor on the player page, with something playing.
        cast_link(s, "https://media.example/film.mp4")
        find(s.app, "Stop Casting", "push button")  # the player page, opened by casting
        if find_all(s.app, "Volume", "slider") or find_all(s.app, "Mute", "push button"):
            raise Failure("the expanded controller offers a fixed volume a slider or Mute")
        if SHOTS:
            s.shot(SHOTS, "gui-kinds-projector")


def youtube_on_a_tv_is_named_and_stopped():
    with Scene("tv", "Living Room TV", "--foreign-app", "youtube") as s:
        s.hook({"type": "LAUNCH", "appId": "233637DE", "load": FILM})
        # Its media shows on the player page; the devices page names the app, with its icon.
        find(s.app, "Mountain Trains", "label", timeout=20)
        click(find(s.app, "Back to devices", "push button"))
        wait_for("the session row to name YouTube", lambda: labels(s.app, "YouTube"), timeout=20)
        find(s.app, "YouTube", "image")
        # Cast something else stays offered: casting replaces the app, as on a phone.
        for name in ("Cast a File…", "Cast a Link…"):
            find(s.app, name, "push button")
        if SHOTS:
            s.shot(SHOTS, "gui-kinds-youtube")
        click(find(s.app, "Stop YouTube", "push button"))
        wait_for("the receiver to run no app", lambda: not status(s).get("session"), timeout=20)
        apps = [a for a in (status(s).get("receiver") or {}).get("applications") or [] if not a.get("isIdleScreen")]
        if apps:
            raise Failure(f"an app still runs after Stop App: {apps}")
        wait_for("Stop App to go", lambda: not find_all(s.app, "Stop YouTube", "push button"))
        find(s.app, "Cast a Link…", "push button")


def tv_on_another_input_says_so():
    with Scene("tv", "Living Room TV") as s:
        if labels(s.app, "The TV shows another input"):
            raise Failure("said before the input switched")
        s.hook({"type": "SWITCH_INPUT", "active": False})
        wait_for("the window to say the TV shows another input",
                 lambda: [n for n in find_all(s.app, role="label") if "The TV shows another input." in (n.name or "")])
        s.hook({"type": "SWITCH_INPUT", "active": True})
        wait_for("the sentence to go", lambda: not [n for n in find_all(s.app, role="label")
                                                      if "The TV shows another input." in (n.name or "")])


def speaker_offers_no_subtitles():
    with Scene("speaker", "Kitchen Speaker") as s:
        cast_link(s, "https://media.example/song.mp3")
        if status(s).get("session", {}).get("appID") != "705D30C6":
            raise Failure("the speaker does not run its audio-only receiver")
        find(s.app, "Stop Casting", "push button")  # the player page, opened by casting
        for name in ("Subtitles and audio", "Subtitle style"):
            if find_all(s.app, name, "push button") or find_all(s.app, name, "toggle button"):
                raise Failure(f"{name} is offered for a speaker's audio")
        if SHOTS:
            s.shot(SHOTS, "gui-kinds-speaker")


def ambient_mode_says_so_and_resume_goes_on():
    with Scene("chromecast", "Bedroom TV", "--ambient-after", "600") as s:
        cast_link(s, "https://media.example/film.mp4")
        s.advance(70)
        wait_for("the receiver at 1:10", lambda: abs((status(s).get("position") or 0) - 70) < 1)
        s.castctl("pause")
        wait_for("paused", lambda: status(s)["media"]["playerState"] == "PAUSED")
        s.advance(599)
        if not status(s).get("session"):
            raise Failure("ambient mode came before its time")
        s.advance(2)
        wait_for("ambient mode to close the app", lambda: not status(s).get("session"), timeout=20)
        sentence = "Bedroom TV closed film.mp4 after it had been paused for a long time."
        wait_for("the one sentence", lambda: labels(s.app, sentence), timeout=20)
        if SHOTS:
            s.shot(SHOTS, "gui-kinds-ambient")
        after = resume(s)
        at = after.get("position") or 0
        if abs(at - 70) > 1:
            raise Failure(f"Resume loaded it at {at}, not 1:10")
        if not after["media"]["media"]["contentId"].endswith("/film.mp4"):
            raise Failure("Resume loaded something else")
        wait_for("the sentence to go", lambda: not labels(s.app, sentence))


def resume(s):
    """The notice's Resume (libadwaita 1.2 names a toast's button with its label twice)."""
    found = wait_for("Resume", lambda: [b for b in find_all(s.app, role="push button")
                                        if (b.name or "").split(" ")[0] == "Resume"])
    click(found[0])
    wait_for("the media loaded again", lambda: (status(s).get("media") or {}).get("playerState") == "PLAYING", timeout=30)
    return status(s)


def a_local_file_is_shared_anew_on_resume():
    with Scene("chromecast", "Bedroom TV", "--ambient-after", "600", files=[FILE]) as s:
        wait_for("the file playing", lambda: (status(s).get("media") or {}).get("playerState") == "PLAYING", timeout=40)
        first = status(s)["media"]["media"]["contentId"]
        s.advance(70)
        s.castctl("pause")
        wait_for("paused at 1:10", lambda: status(s)["media"]["playerState"] == "PAUSED" and abs(status(s)["position"] - 70) < 1)
        s.advance(601)
        wait_for("the one sentence", lambda: labels(s.app, f"Bedroom TV closed {FILE_TITLE} after it had been paused"), timeout=20)
        after = resume(s)
        if abs((after.get("position") or 0) - 70) > 1:
            raise Failure(f"Resume loaded the file at {after.get('position')}, not 1:10")
        url = after["media"]["media"]["contentId"]
        # Served again from this computer: the device (asking from its own address, as
        # castdeck's server answers only the device) can fetch what it was given.
        where = urllib.parse.urlsplit(url)
        conn = http.client.HTTPConnection(where.hostname, where.port, timeout=10, source_address=(s.host, 0))
        conn.request("GET", where.path + (f"?{where.query}" if where.query else ""), headers={"Range": "bytes=0-15"})
        answer = conn.getresponse()
        if answer.status not in (200, 206) or len(answer.read()) == 0:
            raise Failure(f"the file is not served again at {url} (answered {answer.status}; first: {first})")
        conn.close()


def a_reboot_is_said_after_reconnecting_and_resumes():
    with Scene("tv", "Living Room TV") as s:
        cast_link(s, "https://media.example/film.mp4")
        s.advance(30)
        s.castctl("pause")
        wait_for("paused at 0:30", lambda: status(s)["media"]["playerState"] == "PAUSED")
        s.hook({"type": "REBOOT"})
        wait_for("the restart to be said after reconnecting",
                 lambda: labels(s.app, "Living Room TV stopped playing film.mp4, probably because it restarted."), timeout=60)
        # Reconnected: the devices page says so, or the player page still casts to it (which page
        # shows depends on when the reboot's statuses arrived, not on what they said).
        wait_for("the reconnected session", lambda: labels(s.app, "Connected to Living Room TV")
                 or labels(s.app, "Casting to Living Room TV"), timeout=20)
        if labels(s.app, "Living Room TV closed film.mp4"):
            raise Failure("the reboot was also taken for ambient mode")
        after = resume(s)
        if abs((after.get("position") or 0) - 30) > 1:
            raise Failure(f"Resume after the reboot loaded it at {after.get('position')}, not 0:30")


sys.exit(run_cases([
    ("a projector's fixed volume has no slider or Mute, and says where it is set", projector_has_a_fixed_volume),
    ("YouTube on a TV is named, Stop App ends it, casting stays offered", youtube_on_a_tv_is_named_and_stopped),
    ("a TV switched to another input says so", tv_on_another_input_says_so),
    ("a speaker's audio is offered no subtitles", speaker_offers_no_subtitles),
    ("ambient mode says so in one sentence, and Resume goes on at 1:10", ambient_mode_says_so_and_resume_goes_on),
    ("Resume shares a local file anew, at 1:10", a_local_file_is_shared_anew_on_resume),
    ("a reboot is said once reconnected, and Resume goes on at 0:30", a_reboot_is_said_after_reconnecting_and_resumes),
]))
