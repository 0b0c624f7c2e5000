# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Ads on every surface (issue 31, item 3), with real clients.

Runs inside run-mpris.sh after test_mpris.py (private session bus, Xvfb, AT-SPI). castctl casts
a film whose pre-roll has two clips (the first with a title, a poster, a click-through link and
a VAST request); castctl status prints the ad; castdeck joins, and playerctl reads the ad from
MPRIS, AT-SPI finds it in the expanded controller and the mini player, Learn More opens the link
with the desktop's handler for http (a stand-in browser that writes down what it was given),
Skip Ad in the mini player skips on the receiver, and after the break every surface shows the
film again."""
import json
import os
import subprocess
import sys
import time

sys.path.append("/usr/lib/python3/dist-packages")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gui"))

from atspi_helpers import Failure, app_of_process, click, find, find_all, states, wait_for  # noqa: E402

CASTDECK = os.environ["CASTDECK"]
CASTCTL = os.environ["CASTCTL"]
DEVICE = os.environ["DEVICE"]
ART_URL = os.environ["ART_URL"]
WORK = os.environ["WORK"]
SHOTS = os.environ.get("SHOTS_DIR")
TITLE = "Ad Test Film"
LINK = "http://127.0.0.1:9/summer-sale?from=castdeck"
OPENED = os.path.join(WORK, "browser-opened.txt")


def run(*cmd, check=True, timeout=20):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise Failure(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout.strip()


def playerctl(*args):
    return run("playerctl", "-p", "CastDeck", *args, check=False)


def castctl(command, *args):
    return run(CASTCTL, command, "--device", DEVICE, *args, timeout=30)


def receiver_break_clip():
    media = json.loads(castctl("status", "--json")).get("media") or {}
    return (media.get("breakStatus") or {}).get("breakClipId")


failed = 0


def case(name, fn):
    global failed
    t0 = time.time()
    try:
        fn()
        print(f"ok   {name} ({time.time() - t0:.1f}s)", flush=True)
    except Exception as e:
        import traceback
        failed += 1
        print(f"FAIL {name}: {e}\n{traceback.format_exc(limit=-3)}", flush=True)


# A stand-in browser: the desktop's default handler for http and https links (GIO reads
# XDG_DATA_HOME/applications and XDG_CONFIG_HOME/mimeapps.list, both private to this run).
apps = os.path.join(os.environ["XDG_DATA_HOME"], "applications")
os.makedirs(apps, exist_ok=True)
browser = os.path.join(WORK, "fake-browser.sh")
with open(browser, "w") as f:
    f.write(f"#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{OPENED}'\n")
os.chmod(browser, 0o755)
with open(os.path.join(apps, "castdeck-test-browser.desktop"), "w") as f:
    f.write("[Desktop Entry]\nType=Application\nName=Test Browser\n"
            f"Exec={browser} %u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n")
os.makedirs(os.environ["XDG_CONFIG_HOME"], exist_ok=True)
with open(os.path.join(os.environ["XDG_CONFIG_HOME"], "mimeapps.list"), "w") as f:
    f.write("[Default Applications]\nx-scheme-handler/http=castdeck-test-browser.desktop\n"
            "x-scheme-handler/https=castdeck-test-browser.desktop\n")

ads = os.path.join(WORK, "ads.json")
with open(ads, "w") as f:
    json.dump({
        "breaks": [{"id": "pre", "position": 0, "breakClipIds": ["sale", "tyres"]}],
        "breakClips": [
            {"id": "sale", "title": "Summer Sale", "contentId": "http://127.0.0.1:9/sale.mp4", "duration": 120,
             "whenSkippable": 2, "posterUrl": ART_URL, "clickThroughUrl": LINK,
             "vastAdsRequest": {"adTagUrl": "http://127.0.0.1:9/vast.xml"}},
            {"id": "tyres", "title": "Winter Tyres", "contentId": "http://127.0.0.1:9/tyres.mp4", "duration": 120,
             "whenSkippable": 2},
        ],
    }, f)
castctl("cast", "http://127.0.0.1:9/ad-film.mp4", "--title", TITLE, "--content-type", "video/mp4", "--ad-breaks", ads)


def castctl_status():
    text = castctl("status")
    line = next((l for l in text.splitlines() if l.startswith("Ad:")), None)
    if line is None:
        raise Failure(f"castctl status shows no ad:\n{text}")
    for needle in ["1 of 2", "“Summer Sale”", "skippable", f"link {LINK}", "VAST request http://127.0.0.1:9/vast.xml"]:
        if needle not in line:
            raise Failure(f"the ad line lacks {needle!r}: {line}")


case("castctl status prints the ad: 1 of 2, its title, its link and the VAST request attached", castctl_status)

# A fresh castdeck with default settings: test_mpris.py, which runs first in the same settings,
# leaves the device remembered as one that starts in the mini player.
keyfile = os.path.join(os.environ["XDG_CONFIG_HOME"], "glib-2.0", "settings", "keyfile")
if os.path.exists(keyfile):
    os.remove(keyfile)
log = open(os.path.join(WORK, "castdeck-ads.log"), "w")
proc = subprocess.Popen([CASTDECK, "--device", DEVICE], stdout=log, stderr=subprocess.STDOUT)


app = app_of_process(proc.pid)


def mpris_shows_the_ad():
    wait_for("MPRIS title Ad 1 of 2", lambda: playerctl("metadata", "xesam:title") == "Ad 1 of 2", timeout=30)
    if playerctl("metadata", "xesam:artist") != "Summer Sale":
        raise Failure(f"artist {playerctl('metadata', 'xesam:artist')!r}")
    if playerctl("metadata", "mpris:length") != str(120 * 1_000_000):
        raise Failure(f"length {playerctl('metadata', 'mpris:length')!r}: not the clip's")
    art = wait_for("the poster as artwork", lambda: playerctl("metadata", "mpris:artUrl"))
    from urllib.parse import unquote
    if not art.startswith("file:///") or not os.path.isfile(unquote(art[len("file://"):])):
        raise Failure(f"artUrl {art!r} is not a file of the image cache")
    if float(playerctl("position") or -1) > 120:
        raise Failure("the position is not the clip's")


def expanded_controller_shows_the_clip():
    find(app, "Summer Sale", "label")
    find(app, "Learn More", "push button")


def mini_player_shows_the_ad():
    click(find(app, "Open mini player", "push button"))
    mini = find(app, "CastDeck mini player", "frame")
    find(mini, "Ad 1 of 2", "label")
    wait_for("the clip's title", lambda: [l for l in find_all(mini, role="label") if (l.name or "").startswith("Summer Sale")])
    find(mini, "Skip Ad", "push button")
    if SHOTS:
        os.system(f"import -window root {SHOTS}/mini-player-ad.png")


def learn_more_opens_the_link():
    mini = find(app, "CastDeck mini player", "frame")
    click(find(mini, "Learn More", "push button"))
    wait_for("the browser given the link",
             lambda: os.path.exists(OPENED) and LINK in open(OPENED).read().split("\n"), timeout=20)


def skip_in_the_mini_player():
    mini = find(app, "CastDeck mini player", "frame")
    skip = find(mini, "Skip Ad", "push button")
    wait_for("Skip Ad enabled", lambda: "sensitive" in states(skip), timeout=20)
    click(skip)
    wait_for("the receiver on the second clip", lambda: receiver_break_clip() == "tyres", timeout=20)
    wait_for("MPRIS title Ad 2 of 2", lambda: playerctl("metadata", "xesam:title") == "Ad 2 of 2", timeout=20)
    find(mini, "Ad 2 of 2", "label")
    if [b for b in find_all(mini, "Learn More", "push button")]:
        raise Failure("Learn More shown for a clip without a link")


def back_to_the_content():
    mini = find(app, "CastDeck mini player", "frame")
    skip = find(mini, "Skip Ad", "push button")
    wait_for("Skip Ad enabled", lambda: "sensitive" in states(skip), timeout=20)
    click(skip)
    wait_for("the receiver on the film", lambda: receiver_break_clip() is None, timeout=20)
    wait_for("MPRIS title of the film", lambda: playerctl("metadata", "xesam:title") == TITLE, timeout=20)
    find(mini, TITLE, "label")
    wait_for("the ad row gone", lambda: not find_all(mini, "Skip Ad", "push button"))
    if playerctl("metadata", "mpris:length") == str(120 * 1_000_000):
        raise Failure("MPRIS still gives the clip's length")


for name, fn in [
    ("MPRIS during the pre-roll: title Ad 1 of 2, the clip's title, its length and poster", mpris_shows_the_ad),
    ("the expanded controller shows the clip's title and Learn More", expanded_controller_shows_the_clip),
    ("the mini player shows Ad 1 of 2, the clip's title and Skip Ad", mini_player_shows_the_ad),
    ("Learn More opens the click-through link with the desktop's browser", learn_more_opens_the_link),
    ("Skip Ad in the mini player skips on the receiver; MPRIS and the mini player follow", skip_in_the_mini_player),
    ("after the break the mini player and MPRIS show the film again", back_to_the_content),
]:
    case(name, fn)

proc.terminate()
proc.wait(timeout=20)
if failed:
    print(f"ads: {failed} failed")
    sys.exit(1)
print("ads: all passed")
