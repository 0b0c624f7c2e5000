# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Issue 35 ("A crash"): a screen reader reads castdeck's accessible tree while windows, toasts
and popovers come and go, and castdeck must stay alive.

Two AT-SPI clients run at once against castdeck --demo, as a screen reader and its user would:
- the reader (this file run with --reader, a process of its own) reads the tree READS times
  with libatspi's cache off, so every name, role, state, parent and child is asked of castdeck
  over the bus;
- the driver (this file) meanwhile opens and closes the quit question (Ctrl+Q, Cancel), the
  tracks popover, the subtitle style editor (Apply and Use as Default show toasts in it, and an
  Apply whose answer comes after the editor closed shows one in the main window), the Add
  Device dialog, the shortcuts window and the mini player, round after round.

GTK 4.8 answered the application's GetChildAtIndex with the last window it knows when the
index was not below the number of shown windows, and crashed when that window was hidden or
never shown (Sources/GtkInterop/WindowLifetime.swift). A client's ChildCount is stale whenever
a window closes between that read and the next, so each read also asks for the child one past
the count, as such a client does: with the never-shown shortcuts window last, that crashed
castdeck at the first read. Hiding every window (casting in the background) is not part of the
churn: GTK 4.8 still answers with the hidden main window then (WindowLifetime.swift).

A read of the whole tree of the player page takes about 0.7 s here (some 170 objects, six
calls each, from Python), so 1,000 of them would take far longer than a GUI test may. Each of
the READS reads therefore covers what churns: the application object with each of its
windows, every window but the main one PARTIAL_DEPTH levels deep, and the main window's
subtrees that change (the tracks button with its popover, the toasts of the toast overlay),
found by the last whole read; every FULL_EVERY-th read is of the whole tree.

Fails when castdeck exits or crashes, when the reader cannot finish, or when castdeck's log
(APP_LOG) has a GLib or GTK critical."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

READS = int(os.environ.get("CHURN_READS", "1000"))
FULL_EVERY = int(os.environ.get("CHURN_FULL_EVERY", "50"))
# How deep the reads in between go into each window but the main one.
PARTIAL_DEPTH = int(os.environ.get("CHURN_PARTIAL_DEPTH", "6"))
# The main window's objects whose subtrees churn (see read_anchor).
ANCHORS = ("Subtitles and audio", "AdwToastOverlay")
# The reader's own limit: past it, it stops and says how far it got.
READER_SECONDS = float(os.environ.get("CHURN_READER_SECONDS", "200"))


# --- the reader ---------------------------------------------------------------------------

def reader():
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi, GLib

    # The castdeck the driver drives: the one of the test before may still be on the registry
    # for a moment after it exited, and every question to it fails.
    want_pid = int(os.environ["CHURN_APP_PID"])

    def find_app():
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            try:
                a = desktop.get_child_at_index(i)
                if a is not None and a.get_name() == "castdeck" and a.get_process_id() == want_pid:
                    return a
            except GLib.Error:
                continue
        return None

    stats = {"reads": 0, "full": 0, "nodes": 0, "errors": 0, "gone": False, "seconds": 0.0}
    started = time.time()

    def read_node(node):
        """What a screen reader asks of each object; False when it went away meanwhile."""
        stats["nodes"] += 1
        try:
            node.get_name()
            node.get_role_name()
            node.get_state_set()
            node.get_parent()
            node.get_index_in_parent()
            return True
        except GLib.Error:
            stats["errors"] += 1
            return False

    def children(node, first=0):
        try:
            count = node.get_child_count()
        except GLib.Error:
            stats["errors"] += 1
            return
        for i in range(first, count):
            try:
                child = node.get_child_at_index(i)
            except GLib.Error:
                stats["errors"] += 1
                continue
            if child is not None:
                yield child

    def walk(node, depth_left=60, anchors=None):
        if not read_node(node):
            return
        if anchors is not None:
            try:
                if node.get_name() in ANCHORS:
                    anchors.append(node)
            except GLib.Error:
                stats["errors"] += 1
        if depth_left > 0:
            for child in children(node):
                walk(child, depth_left - 1, anchors)

    def read_anchor(node):
        """The main window's parts that change: the tracks button with its popover, and the
        toast overlay's toasts (its first child is the whole window content, left out)."""
        if not read_node(node):
            return False
        try:
            is_overlay = node.get_name() == "AdwToastOverlay"
        except GLib.Error:
            stats["errors"] += 1
            return False
        if is_overlay:
            for toast in children(node, first=1):
                walk(toast)
        else:
            for child in children(node):
                walk(child)
        return True

    try:
        read_all(stats, find_app, read_node, walk, read_anchor, Atspi, GLib)
    except Exception as e:  # noqa: BLE001 (said in the figures, which the driver prints)
        stats["error"] = f"{type(e).__name__}: {e}"
    stats["seconds"] = round(time.time() - started, 1)
    print(json.dumps(stats), flush=True)
    return 0


def read_all(stats, find_app, read_node, walk, read_anchor, Atspi, GLib):
    """The reads, round after round, until READS or READER_SECONDS."""
    app = None
    anchors = []
    deadline = time.time() + READER_SECONDS
    while stats["reads"] < READS and time.time() < deadline:
        if app is None:
            app = find_app()
            if app is None:
                time.sleep(0.2)
                continue
            app.set_cache_mask(Atspi.Cache.NONE)
        try:
            app.clear_cache()
            count = app.get_child_count()
        except GLib.Error:
            stats["gone"] = True
            break
        full = stats["reads"] % FULL_EVERY == 0 or not anchors
        found = [] if full else None
        # One past the count too: what a client whose count went stale asks for.
        for i in range(count + 1):
            try:
                window = app.get_child_at_index(i)
            except GLib.Error:
                stats["errors"] += 1
                continue
            if window is None:
                continue
            try:
                is_main = window.get_name() == "CastDeck"
            except GLib.Error:
                stats["errors"] += 1
                continue
            if full:
                walk(window, anchors=found)
            elif is_main:
                read_node(window)
            else:
                walk(window, depth_left=PARTIAL_DEPTH)
        if full:
            anchors = found
            stats["full"] += 1
        elif not all([read_anchor(a) for a in anchors]):
            anchors = []  # the main window was hidden and shown again: found anew next time
        stats["reads"] += 1
        if stats["reads"] % 100 == 0:
            print(f"reader: {stats['reads']} reads", file=sys.stderr, flush=True)


# --- the driver ---------------------------------------------------------------------------

def driver():
    from atspi_helpers import (Failure, app_of_process, click, find, find_all, plain, press_keys, process_running,
                               receiver_media, response_buttons, wait_for)

    castctl_bin = os.environ["CASTCTL"]
    device = os.environ["DEMO_DEVICE"]
    app_log = os.environ.get("APP_LOG")
    pid = int(os.environ["CASTDECK_PID"])
    app = app_of_process(pid)

    def alive(step):
        if not process_running(pid):
            raise Failure(f"castdeck died during or after: {step}")

    def gone(name, role):
        wait_for(f"{name or role} to go", lambda: not find_all(app, name, role))

    # Playing media, on the player page, so that the tracks popover and the editor exist.
    click(find(app, "Connect to Demo Receiver", "push button"))
    click(find(app, "Cast sample", "push button"))
    wait_for("media on the receiver", lambda: receiver_media(castctl_bin, device).get("media", {})
             .get("metadata", {}).get("title") == "Big Buck Bunny")
    find(app, "Subtitles and audio")

    def quit_question():
        press_keys("CastDeck", "ctrl+q")
        dialog = find(app, "Stop casting to Demo Receiver?", "dialog")
        click(response_buttons(dialog)["Cancel"])
        gone(None, "dialog")

    def choices(popover):
        """The popover's track buttons by name (toggle or radio buttons, whichever GTK says)."""
        return {plain(b.name): b for b in find_all(popover)
                if b.getRoleName() in ("push button", "toggle button", "radio button")}

    def tracks_popover():
        click(find(app, "Subtitles and audio"))
        popover = find(app, "GtkPopover", "filler")
        tracks = wait_for("a track to choose", lambda: [b for name, b in choices(popover).items()
                                                         if name not in ("off", "show more")])
        click(tracks[0])
        click(choices(popover)["off"])
        click(find(app, "Subtitles and audio"))
        gone("GtkPopover", "filler")

    def style_editor():
        click(find(app, "Subtitle style", "push button"))
        editor = find(app, "Subtitle Style", "frame")
        click(find(editor, "Use as Default", "push button"))
        click(find(editor, "Apply", "push button"))
        time.sleep(0.3)
        click(find(editor, "Apply", "push button"))
        # Closed at once: the answer to this Apply is a toast in the main window.
        click(find(editor, "Close", "push button"))
        gone("Subtitle Style", "frame")

    def add_device_dialog():
        click(find(app, "Back to devices", "push button"))
        click(find(app, "Add Device by Address", "push button"))
        dialog = find(app, "Add Device by Address", "dialog")
        click(response_buttons(dialog)["Cancel"])
        gone(None, "dialog")
        click(find(app, "Open expanded controller", "push button"))
        find(app, "Subtitles and audio")

    def other_windows():
        return [w for w in find_all(app, role="frame") if w.name != "CastDeck"]

    def shortcuts_window():
        press_keys("CastDeck", "ctrl+question")
        window = wait_for("the shortcuts window", other_windows)[0]
        click(find(window, "Close", "push button"))
        wait_for("the shortcuts window to go", lambda: not other_windows())

    def mini_player():
        click(find(app, "Open mini player", "push button"))
        mini = find(app, "CastDeck mini player", "frame")
        click(find(mini, "Return to full controller", "push button"))
        gone("CastDeck mini player", "frame")
        find(app, "Subtitles and audio")

    steps = [("the quit question", quit_question), ("the tracks popover", tracks_popover),
             ("the subtitle style editor", style_editor), ("the Add Device dialog", add_device_dialog),
             ("the shortcuts window", shortcuts_window), ("the mini player", mini_player)]

    t0 = time.time()
    read = subprocess.Popen([sys.executable, __file__, "--reader"], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "CHURN_APP_PID": str(pid)})
    rounds = 0
    failure = None
    try:
        while read.poll() is None:
            for name, step in steps:
                step()
                alive(name)
                if read.poll() is not None:
                    break
            rounds += 1
    except Exception as e:  # noqa: BLE001 (said below, with whether castdeck is still there)
        failure = e
        read.terminate()
    finally:
        try:
            out, _ = read.communicate(timeout=READER_SECONDS + 30)
        except subprocess.TimeoutExpired:
            read.kill()
            out, _ = read.communicate()
    elapsed = time.time() - t0
    if not process_running(pid):
        print(f"FAIL castdeck died after {rounds} rounds of churn ({elapsed:.0f}s)", flush=True)
        return 1
    if failure is not None:
        print(f"FAIL the churn stopped in round {rounds + 1}: {failure}", flush=True)
        return 1
    lines = [l for l in out.splitlines() if l.startswith("{")]
    stats = json.loads(lines[-1]) if lines else {}
    summary = (f"{stats.get('reads', 0)} reads of the accessible tree ({stats.get('full', 0)} whole, "
               f"{stats.get('nodes', 0)} objects, {stats.get('seconds', 0)}s) during {rounds} rounds of "
               f"dialog, toast, popover and window churn ({elapsed:.0f}s)")
    if stats.get("reads", 0) < READS or stats.get("gone") or stats.get("error"):
        print(f"FAIL the reader did not finish {READS} reads: {summary}; {stats}; it exited with "
              f"{read.returncode}", flush=True)
        return 1
    if app_log:
        with open(app_log, errors="replace") as f:
            criticals = [l for l in f if "-CRITICAL **" in l]
        if criticals:
            print(f"FAIL castdeck logged {len(criticals)} criticals in {summary}; the first: {criticals[0].strip()}",
                  flush=True)
            return 1
    print(f"ok   {summary}; castdeck stayed up", flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--reader"]:
        sys.exit(reader())
    status = driver()
    print(f"\n{1 - status} passed, {status} failed")
    sys.exit(status)
