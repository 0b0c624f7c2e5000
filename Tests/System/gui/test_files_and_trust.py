# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""castdeck given a FILE on its command line and --device: it serves the file to a simulated
receiver that fetches media as a device does (castctl receiver --fetch-media), and shows the
device's verified mark (the receiver answers deviceauth with a test CA that castdeck trusts
through CASTDECK_EXTRA_CAST_ROOTS). Read and driven through AT-SPI; castctl checks the receiver."""
import os
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import (Cases, Failure, app_named, click, find, find_all, press_keys, process_running, receiver_media,
                           response_buttons, states, wait_for)

CASTCTL = os.environ["CASTCTL"]
DEVICE = os.environ["FILE_DEVICE"]
TITLE = os.environ["FILE_TITLE"]
SHOTS = os.environ.get("SHOTS_DIR")
app = app_named("castdeck")
case = Cases()


def file_plays():
    def playing():
        status = receiver_media(CASTCTL, DEVICE)
        media = status.get("media") or {}
        return (status.get("playerState") == "PLAYING" and media.get("contentId", "").startswith("http://127.0.0.1:")
                and (media.get("metadata") or {}).get("title") == TITLE) and media
    media = wait_for("the receiver to play the served file", playing, timeout=40)
    # The subtitles beside the file (film.en.srt) went along as a text track named by its
    # language, and started on: the window runs in English.
    text = [t for t in media.get("tracks") or [] if t.get("type") == "TEXT"]
    if [(t.get("name"), t.get("language")) for t in text] != [("English", "en")]:
        raise Failure(f"the text tracks are {media.get('tracks')}")
    active = receiver_media(CASTCTL, DEVICE).get("activeTrackIds") or []
    if text[0]["trackId"] not in active:
        raise Failure(f"the English subtitles beside the file are not on: activeTrackIds {active}")
    # The window follows: its expanded controller shows the file's title.
    find(app, TITLE, "label", timeout=20)
    # MPRIS names the file by its file:// URL, not the media server's address with its token.
    metadata = subprocess.run(["gdbus", "call", "--session", "--dest", "org.mpris.MediaPlayer2.CastDeck", "--object-path",
                               "/org/mpris/MediaPlayer2", "--method", "org.freedesktop.DBus.Properties.Get",
                               "org.mpris.MediaPlayer2.Player", "Metadata"], capture_output=True, text=True, timeout=20).stdout
    if f"'xesam:url': <'file://{os.environ['FILE_PATH']}'>" not in metadata:
        raise Failure(f"MPRIS xesam:url is not the file's URL: {metadata}")


def verified_mark():
    # A small shield, named for screen readers; its description says which certificate.
    mark = find(app, "Verified", "image", timeout=20)
    if "CastDeck Simulated Device" not in (mark.description or ""):
        raise Failure(f"the mark does not say which certificate: {mark.description!r}")
    if find_all(app, "Unverified device", "image") or find_all(app, "Verified", "label"):
        raise Failure("an Unverified device mark, or the verdict in words, is shown beside Verified")
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-file-verified.png")


def cast_a_file_button():
    button = find(app, "Cast a file", "push button")
    if "sensitive" not in states(button):
        raise Failure("Cast a file is not sensitive")


def second_launch_hands_over():
    # "Open With CastDeck" while it runs: the new process hands the file to the running
    # instance over D-Bus and exits; the running window casts it to the connected device.
    done = subprocess.run([os.environ["CASTDECK"], os.environ["SECOND_FILE"]], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise Failure(f"the second castdeck exited with {done.returncode}: {done.stderr.strip()}")
    # The first file still plays, so the window asks where the new one goes: Play Now.
    play_now = wait_for("the Play Now response", lambda: [
        b for b in find_all(app, role="push button") if b.name == "Play Now"], timeout=20)[0]
    click(play_now)
    wait_for("the receiver to play the second file",
             lambda: (receiver_media(CASTCTL, DEVICE).get("media") or {}).get("metadata", {}).get("title") == "Second Film",
             timeout=40)
    find(app, "Second Film", "label", timeout=20)
    # Music has no picture to draw subtitles on: Subtitle style is not offered.
    wait_for("Subtitle style insensitive for an MP3",
             lambda: "sensitive" not in states(find(app, "Subtitle style", "push button", timeout=5)))


def quit_keeps_running_for_a_file():
    # The device plays from this computer's media server: quitting would end it, so Ctrl+Q
    # offers to keep CastDeck running in the background, never "Keep Playing".
    media = receiver_media(CASTCTL, DEVICE)
    url = (media.get("media") or {}).get("contentId", "")
    title = ((media.get("media") or {}).get("metadata") or {}).get("title")
    press_keys("CastDeck", "ctrl+q")
    dialog = wait_for("the quit question", lambda: [d for d in find_all(app, role="dialog")
                                                    if (d.name or "").startswith("Stop casting to ")])[0]
    buttons = response_buttons(dialog)
    if set(buttons) != {"Keep Running in the Background", "Stop Casting"}:
        raise Failure(f"the quit question offers {sorted(buttons)}")
    body = [n.name for n in find_all(dialog, role="label") if "from this computer" in (n.name or "")]
    if not body or "stops when CastDeck quits" not in body[0]:
        raise Failure(f"the question does not say that the device plays from this computer: {body}")
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-quit-file.png")
    pid = app.get_process_id()
    # Enter chooses the default, Keep Running: never Stop Casting, whichever way the buttons are laid out.
    press_keys("Stop casting to ", "Return", prefix=True)
    wait_for("no window shown", lambda: not find_all(app, role="frame"))
    time.sleep(3)
    if not process_running(pid):
        raise Failure("castdeck quit instead of running in the background")
    now = receiver_media(CASTCTL, DEVICE)
    if now.get("playerState") not in ("PLAYING", "BUFFERING") or (now.get("media") or {}).get("contentId") != url:
        raise Failure(f"the file no longer plays: {now.get('playerState')} {now.get('media')}")
    # The media server still serves the device (the receiver, at 127.0.0.1 like this test).
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Range": "bytes=0-0"}), timeout=10) as answer:
        if answer.status != 206:
            raise Failure(f"the media server answered {answer.status}")
    # Running castdeck again brings the window back, on the same media.
    again = subprocess.run([os.environ["CASTDECK"]], capture_output=True, text=True, timeout=30)
    if again.returncode != 0:
        raise Failure(f"the second castdeck exited with {again.returncode}: {again.stderr.strip()}")
    wait_for("the window back", lambda: find_all(app, role="frame"))
    find(app, title, "label", timeout=20)


case("castdeck --device HOST:PORT FILE serves the file and the receiver plays it", file_plays)
case("a second castdeck FILE hands the file to the running window, which casts it", second_launch_hands_over)
case("a device that answers deviceauth with a trusted chain is marked Verified", verified_mark)
case("the header bar offers Cast a file", cast_a_file_button)
case("Ctrl+Q while a file from this computer plays offers Keep Running in the Background, which keeps it playing",
     quit_keeps_running_for_a_file)
print(f"\n{5 - case.failed} passed, {case.failed} failed")
sys.exit(1 if case.failed else 0)
