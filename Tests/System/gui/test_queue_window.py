# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""The queue in the real window (AT-SPI) against `castctl receiver`, with castctl as the
other sender: a folder of three tagged files cast with `castctl cast DIR` shows in the
window's queue list in natural order; edits from castctl show up in the list and edits from
the window (row activation, row menu, Repeat, Shuffle, Next) reach the receiver."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import Failure, app_named, click, find, find_all, run_cases, states, wait_for

CASTCTL = os.environ["CASTCTL"]
DEVICE = os.environ["QUEUE_DEVICE"]
SHOTS = os.environ.get("SHOTS_DIR")
app = app_named("castdeck")


def queue():
    out = subprocess.run([CASTCTL, "queue", "--json", "--device", DEVICE], capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise Failure(f"castctl queue: {out.stderr.strip()}")
    return json.loads(out.stdout)


def castctl(*args):
    out = subprocess.run([CASTCTL, *args, "--device", DEVICE], capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise Failure(f"castctl {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout


def titles():
    return [i["title"] for i in queue()["items"]]


def the_list():
    return find(app, "Queue", "list")


def window_rows():
    """Titles of the queue list's rows, in order."""
    lst = the_list()
    rows = []
    for i in range(lst.childCount):
        row = lst.getChildAtIndex(i)
        if row is not None and row.name:
            rows.append(row.name)
    return rows


def opens_the_queue():
    button = wait_for("the Queue button", lambda: [b for b in find_all(app, "Queue") if b.getRoleName() != "list"], timeout=30)[0]
    wait_for("the Queue button to be sensitive", lambda: "sensitive" in states(button))
    click(button)
    wait_for("the rows in natural order", lambda: window_rows() == ["One", "Two", "Ten"] or window_rows())
    rows = window_rows()
    if rows != ["One", "Two", "Ten"]:
        raise Failure(f"rows: {rows}")
    current = the_list().getChildAtIndex(0)
    if "Now playing" not in (current.description or ""):
        raise Failure(f"the current row is not marked: {current.description!r}")


def castctl_edits_show_in_the_window():
    castctl("queue", "add", "https://example.com/next.mp3", "--next")
    wait_for("the inserted row", lambda: window_rows() == ["One", "next.mp3", "Two", "Ten"])
    castctl("queue", "move", "4", "1")
    wait_for("the moved row", lambda: window_rows() == ["Ten", "One", "next.mp3", "Two"])
    castctl("queue", "remove", "3")
    wait_for("the removed row", lambda: window_rows() == ["Ten", "One", "Two"])


def row_menu(title, item):
    menu = find(app, f"Actions for {title}", timeout=10)
    click(menu)
    click(find(app, item, "push button", timeout=10))


def offered_moves(title):
    """The moves a row's menu shows (only visible buttons are exposed), menu closed again."""
    menu = find(app, f"Actions for {title}", timeout=10)
    click(menu)
    find(app, "Remove", "push button", timeout=10)
    moves = sorted({b.name for b in find_all(app, role="push button") if b.name in ("Move Up", "Move Down")})
    click(menu)  # closes it again
    wait_for("the row menu to close", lambda: not find_all(app, "Remove", "push button"))
    return moves


def window_edits_reach_the_receiver():
    # Only moves that can happen: the first row cannot go up, the last cannot go down.
    first, last = offered_moves("Ten"), offered_moves("Two")
    if first != ["Move Down"] or last != ["Move Up"]:
        raise Failure(f"the first row offers {first}, the last {last}")
    row_menu("Two", "Move Up")
    wait_for("castctl to see Move Up", lambda: titles() == ["Ten", "Two", "One"])
    row_menu("Ten", "Move Down")
    wait_for("castctl to see Move Down", lambda: titles() == ["Two", "Ten", "One"])
    # Activating a row plays it.
    click(find(app, "Play Ten", "push button"))
    wait_for("castctl to see the jump", lambda: queue()["currentPosition"] == 2)
    row_menu("Two", "Play Next")
    wait_for("castctl to see Play Next", lambda: titles() == ["Ten", "Two", "One"])
    row_menu("One", "Remove")
    wait_for("castctl to see Remove", lambda: titles() == ["Ten", "Two"])
    wait_for("the window to drop the row", lambda: window_rows() == ["Ten", "Two"])


def repeat_and_shuffle():
    repeat = find(app, "Repeat", "push button")
    for want in ("all", "one", "off"):
        click(repeat)
        wait_for(f"repeat {want}", lambda want=want: queue()["repeatMode"] == want)
    shuffle = find(app, "Shuffle")
    click(shuffle)
    wait_for("shuffle on the receiver", lambda: queue()["repeatMode"] == "shuffle")
    wait_for("the Shuffle toggle pressed", lambda: "pressed" in states(shuffle) or "checked" in states(shuffle))
    click(shuffle)
    wait_for("shuffle off", lambda: queue()["repeatMode"] == "all")
    castctl("queue", "repeat", "off")


def current_is_marked():
    q = queue()
    current = q["items"][q["currentPosition"] - 1]["title"]
    def marked():
        lst = the_list()
        for i in range(lst.childCount):
            row = lst.getChildAtIndex(i)
            if row is not None and row.name == current:
                return "Now playing" in (row.description or "")
        return False
    wait_for(f"the window to mark {current} as playing", marked)


def previous_and_next():
    current_is_marked()
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-queue.png")
    nxt = wait_for("a sensitive Next", lambda: [b for b in find_all(app, "Next", "push button") if "sensitive" in states(b)])
    castctl("queue", "jump", "1")
    wait_for("position 1", lambda: queue()["currentPosition"] == 1)
    click(nxt[0])
    wait_for("Next to move on", lambda: queue()["currentPosition"] == 2)
    prev = [b for b in find_all(app, "Previous", "push button") if "sensitive" in states(b)]
    if not prev:
        raise Failure("no sensitive Previous button")
    click(prev[0])
    wait_for("Previous to go back", lambda: queue()["currentPosition"] == 1)


def casting_while_playing_asks():
    # A second launch hands the file to the running window; something plays, so it asks.
    done = subprocess.run([os.environ["CASTDECK"], os.environ["EXTRA_FILE"]], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise Failure(f"the second castdeck exited with {done.returncode}: {done.stderr.strip()}")
    # The response buttons are named by their label, once.
    def response(label):
        return [b for b in find_all(app, role="push button") if b.name == label]
    add = wait_for("the Add to Queue response", lambda: response("Add to Queue"), timeout=20)[0]
    for other in ("Play Now", "Play Next"):
        if not response(other):
            raise Failure(f"no {other} response")
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-cast-choice.png")
    before = len(titles())
    click(add)
    wait_for("the file at the end of the queue", lambda: titles()[-1] == "Extra" and len(titles()) == before + 1, timeout=30)


def a_thousand_items_open_a_page_at_a_time():
    lines = ["#EXTM3U"]
    for n in range(1, 1001):
        lines += [f"#EXTINF:180,Song {n}", f"https://example.com/music/{n}.mp3"]
    path = os.path.join(os.environ["WORK_DIR"], "big.m3u8")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    castctl("cast", path)
    # The heading is inside the popover: open it first if the last case left it closed
    # (a closed popover's label is not on the accessibility bus).
    button = wait_for("the Queue button", lambda: [b for b in find_all(app, "Queue") if b.getRoleName() != "list"], timeout=30)[0]
    if not find_all(app, "Queue", "list"):
        click(button)
    wait_for("the heading to count 1,000 items", lambda: find_all(app, "Queue · 1000 items", "label"), timeout=30)
    lst = the_list()
    wait_for("the first rows' titles", lambda: lst.getChildAtIndex(0).name == "Song 1" and lst.getChildAtIndex(5).name == "Song 6", timeout=30)
    if not 20 <= lst.childCount < 1000:
        raise Failure(f"{lst.childCount} rows made at once")
    # Rows far below were not fetched: they wait as "Loading…".
    if lst.getChildAtIndex(lst.childCount - 1).name != "Loading…":
        raise Failure(f"the last row made is {lst.getChildAtIndex(lst.childCount - 1).name!r}")
    # The window still answers.
    castctl("queue", "jump", "3")
    wait_for("the jump in the list", lambda: "Now playing" in (lst.getChildAtIndex(2).description or ""))


sys.exit(run_cases([
    ("the Queue button opens the list in natural order, the current item marked", opens_the_queue),
    ("castctl's insert, move and remove show in the window's list", castctl_edits_show_in_the_window),
    ("the window's row menu and activation reach the receiver", window_edits_reach_the_receiver),
    ("Repeat cycles off/all/one and Shuffle toggles on the receiver", repeat_and_shuffle),
    ("Previous and Next move the queue", previous_and_next),
    ("casting a file while something plays asks Play Now / Play Next / Add to Queue", casting_while_playing_asks),
    ("a 1,000-item queue shows a page of rows, titles fetched only for those in view", a_thousand_items_open_a_page_at_a_time),
]))
