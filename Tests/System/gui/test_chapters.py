# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Tracks by kind and chapters (issue 31) in the real window (AT-SPI), against `castctl
receiver`, with pychromecast as the sender that loads the media (pcc_chapters.py) and castctl
reading what the receiver reports. A film with a subtitle, a caption, a description, a
METADATA track and a WebVTT chapter track: the tracks popover offers the first three, marked
(CC) and (described video), and neither chapters nor metadata; the chapter playing shows
under the title; Next chapter, Page Down and the Chapters menu seek to a chapter's start;
`castctl tracks` groups the tracks the same way and lists the chapters. Then an audiobook
chapter: "Chapter 3 · Over Hill and Under Hill" under its title, and no Chapters menu."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import (Failure, app_named, castctl, click, find, find_all, plain, press_keys, run_cases, states,
                           wait_for)

CASTCTL = os.environ["CASTCTL"]
DEVICE = os.environ["CHAPTERS_DEVICE"]
VENV_PY = os.environ["VENV_PYTHON"]
LOADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pcc_chapters.py")
SHOTS = os.environ.get("SHOTS_DIR")
app = app_named("castdeck")


def shot(name):
    if SHOTS:
        os.system(f"import -window root {SHOTS}/{name}.png")


def pychromecast_loads(which):
    host, port = DEVICE.rsplit(":", 1)
    done = subprocess.run([VENV_PY, LOADER, host, port, which], capture_output=True, text=True, timeout=90)
    if done.returncode != 0:
        raise Failure(f"pychromecast did not load {which}: {done.stderr.strip()[-400:]}")


def position():
    return json.loads(castctl(CASTCTL, DEVICE, "status", "--json")).get("position") or 0


def at_chapter(start, end):
    """The receiver's position is in [start, end) (it plays on after the seek)."""
    return lambda: start <= position() < end


def labels():
    return [plain(n.name) for n in find_all(app, role="label")]


def film_shows_its_chapter():
    pychromecast_loads("film")
    wait_for("the film in the window", lambda: "sintel" in labels(), timeout=30)
    wait_for("the chapter line", lambda: "chapter 1 · one" in labels())
    find(app, "Chapters")


def tracks_by_kind():
    click(find(app, "Subtitles and audio"))
    rows = wait_for("the text tracks", lambda: [plain(n.name) for n in find_all(app, role="radio button")])
    want = ["off", "english", "english (cc)", "english (described video)"]
    if rows != want:
        raise Failure(f"the popover offers {rows}, not {want}")
    shot("chapters-tracks")
    click(find(app, "Subtitles and audio"))
    wait_for("the popover to close", lambda: not find_all(app, "english (cc)", "radio button"))


def next_chapter_button_and_key():
    click(find(app, "Next chapter", "push button"))
    wait_for("chapter 2 on the receiver", at_chapter(100, 250))
    wait_for("chapter 2 under the title", lambda: "chapter 2 · two" in labels())
    press_keys("CastDeck", "Page_Down")
    wait_for("chapter 3 after Page Down", at_chapter(250, 600))
    # Within 3 s of its start, Previous chapter goes to the one before.
    click(find(app, "Previous chapter", "push button"))
    wait_for("chapter 2 again", at_chapter(100, 250))


def chapters_menu():
    click(find(app, "Chapters"))
    rows = wait_for("the chapter rows", lambda: [plain(n.name) for n in find_all(app, role="radio button")])
    want = ["chapter 1 · one, 0:00", "chapter 2 · two, 1:40", "chapter 3 · three, 4:10"]
    if rows != want:
        raise Failure(f"the Chapters menu lists {rows}, not {want}")
    checked = [plain(n.name) for n in find_all(app, role="radio button") if "checked" in states(n)]
    if checked != ["chapter 2 · two, 1:40"]:
        raise Failure(f"the chapter playing is not the one checked: {checked}")
    shot("chapters-menu")
    click(find(app, "Chapter 3 · Three, 4:10", "radio button"))
    wait_for("chapter 3 from the menu", at_chapter(250, 600))
    wait_for("the menu to close", lambda: not find_all(app, role="radio button"))


def castctl_groups_the_same_way():
    text = castctl(CASTCTL, DEVICE, "tracks")
    for line in ("Subtitles:", "Captions (CC):", "Descriptions (described video):", "Chapters (track 4): 3",
                 "  3  4:10  Three", "(1 METADATA track for the app on the device, not listed)"):
        if line not in text.splitlines():
            raise Failure(f"castctl tracks lacks {line!r}:\n{text}")
    rows = json.loads(castctl(CASTCTL, DEVICE, "tracks", "--json"))
    chapters = next(r for r in rows if r["trackId"] == 4)
    if chapters["group"] != "chapters" or [c["start"] for c in chapters["chapters"]] != [0, 100, 250]:
        raise Failure(f"castctl tracks --json: {chapters}")


def audiobook_chapter():
    pychromecast_loads("audiobook")
    wait_for("the audiobook's chapter under its title",
             lambda: "chapter 3 · over hill and under hill" in labels(), timeout=30)
    if find_all(app, "Chapters"):
        raise Failure("an audiobook chapter without a chapter track offers a Chapters menu")
    shot("chapters-audiobook")


sys.exit(run_cases([
    ("a chapter track: the chapter playing shows under the title", film_shows_its_chapter),
    ("subtitles, captions (CC), descriptions offered; chapters and metadata not", tracks_by_kind),
    ("Next chapter, Page Down and Previous chapter seek to chapter starts", next_chapter_button_and_key),
    ("the Chapters menu checks the chapter playing and seeks to another", chapters_menu),
    ("castctl tracks groups the tracks and lists the chapters", castctl_groups_the_same_way),
    ("an audiobook chapter names itself under its title", audiobook_chapter),
]))
