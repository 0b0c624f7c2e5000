# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Small helpers to find and drive widgets of a running GTK 4 app through AT-SPI."""
import json
import re
import subprocess
import time

import pyatspi

TIMEOUT = 20.0


class Failure(AssertionError):
    pass


def app_named(name, timeout=TIMEOUT):
    """The application of that name whose process is running: the one of a test before may
    stay on the registry for a moment after its process ended, and every question to it fails."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            try:
                a = desktop.getChildAtIndex(i)
                if a is not None and a.name == name and process_running(a.get_process_id()):
                    return a
            except Exception:
                continue
        time.sleep(0.2)
    raise Failure(f"no application named {name!r} on the accessibility bus")


def app_of_process(pid, timeout=30):
    """The accessible application "castdeck" of this process (not one that just exited)."""
    def look():
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            a = desktop.getChildAtIndex(i)
            try:
                if a is not None and a.name == "castdeck" and a.get_process_id() == pid:
                    return a
            except Exception:
                continue
        return None
    return wait_for(f"castdeck (pid {pid}) on the accessibility bus", look, timeout=timeout)


def states(node):
    return {pyatspi.stateToString(s) for s in node.getState().getStates()}


def walk(node, depth=0, limit=60):
    if node is None or depth > limit:
        return
    yield node
    try:
        count = node.childCount
    except Exception:  # the widget went away while we looked (a list re-rendered)
        return
    for i in range(count):
        try:
            child = node.getChildAtIndex(i)
        except Exception:
            continue
        yield from walk(child, depth + 1, limit)


BIDI_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u2066\u2067\u2068\u2069"))


def plain(name):
    """A name without its invisible direction marks and isolates, folded for matching."""
    return (name or "").translate(BIDI_CONTROLS).casefold()


def find_all(root, name=None, role=None, visible_only=True):
    out = []
    for n in walk(root):
        try:
            # Names match without regard to case ("Cast a File" and "Cast a file" are one
            # control), as GNOME's capitalisation of labels may change.
            if name is not None and plain(n.name) != plain(name):
                continue
            if role is not None and n.getRoleName() != role:
                continue
            if visible_only and "visible" not in states(n):
                continue
            out.append(n)
        except Exception:
            continue
    return out


def find(root, name, role=None, timeout=TIMEOUT, visible_only=True):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = find_all(root, name, role, visible_only)
        if found:
            return found[0]
        time.sleep(0.2)
    dump = sorted({f"{n.getRoleName()}:{n.name}" for n in walk(root) if n.name})
    raise Failure(f"no widget named {name!r} (role {role}); visible names: {dump[:80]}")


def click(node):
    """Runs the node's first action (click/activate/press) the way a user would."""
    try:
        action = node.queryAction()
        n = action.nActions
    except NotImplementedError:
        n = 0
    if n == 0:
        # Composite widgets (GtkMenuButton) carry the action on an inner button.
        for inner in walk(node):
            if inner is node:
                continue
            try:
                if inner.queryAction().nActions > 0:
                    return click(inner)
            except NotImplementedError:
                continue
        raise Failure(f"{node.name!r} has no action")
    names = [action.getName(i) for i in range(action.nActions)]
    for preferred in ("click", "activate", "press", "toggle"):
        if preferred in names:
            action.doAction(names.index(preferred))
            return
    action.doAction(0)


def wait_for(what, predicate, timeout=TIMEOUT, interval=0.2):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except Failure:
            raise
        except Exception as e:  # widgets may be rebuilt while we look
            last = e
        time.sleep(interval)
    raise Failure(f"timed out waiting for {what} (last: {last!r})")


def set_text(node, text):
    """Replaces an entry's text the way typing would (AT-SPI EditableText)."""
    editable = node.queryEditableText()
    editable.setTextContents(text)


def value_of(node):
    """A slider's current value (AT-SPI Value)."""
    return node.queryValue().currentValue


def response_buttons(dialog):
    """An AdwMessageDialog's response buttons by name: their label as shown (CastDeck names them
    so; GTK 4.8 alone would say "_Cancel Cancel")."""
    out = {}
    for b in find_all(dialog, role="push button"):
        out.setdefault(b.name or "", b)
    return out


def press_keys(window_title, keys, prefix=False):
    """Sends a key combination (xdotool syntax, "ctrl+q") to the visible window with that title
    (or whose title starts with it); Xvfb has no window manager, so the window is focused by
    hand first."""
    pattern = "^" + re.escape(window_title) + ("" if prefix else "$")
    found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", pattern],
                           capture_output=True, text=True, timeout=20).stdout.split()
    if not found:
        raise Failure(f"no visible window titled {window_title!r}")
    # Focus follows the pointer where no window manager sets it: put the pointer there too.
    subprocess.run(["xdotool", "mousemove", "--window", found[0], "10", "10"], capture_output=True, timeout=20)
    subprocess.run(["xdotool", "windowfocus", "--sync", found[0]], capture_output=True, timeout=20)
    subprocess.run(["xdotool", "key", keys], check=True, timeout=20)


def process_running(pid):
    """True while the process exists and has not exited (a zombie counts as exited)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def castctl(castctl_bin, device, *args):
    out = subprocess.run([castctl_bin, *args, "--device", device, "--timeout", "10"],
                         capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise Failure(f"castctl {' '.join(args)} failed: {out.stderr.strip()}")
    return out.stdout


def receiver_media(castctl_bin, device):
    status = json.loads(castctl(castctl_bin, device, "status", "--json"))
    return status.get("media") or {}


class Cases:
    """Runs named test cases, prints ok/FAIL lines with the time each took, counts failures."""

    def __init__(self):
        self.failed = 0

    def __call__(self, name, fn):
        import traceback
        t0 = time.time()
        try:
            fn()
            print(f"ok   {name} ({time.time() - t0:.1f}s)", flush=True)
        except Exception as e:
            self.failed += 1
            print(f"FAIL {name}: {e}\n{traceback.format_exc(limit=-2)}", flush=True)


def run_cases(cases):
    """Runs (name, fn) pairs through Cases; returns the exit status (1 if any failed)."""
    case = Cases()
    for name, fn in cases:
        case(name, fn)
    return 1 if case.failed else 0
