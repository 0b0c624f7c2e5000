#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""portal_pick.py share|cancel: answers the desktop's screen-sharing dialog the way a person
does, through AT-SPI: xdg-desktop-portal-gnome's "Screen Share" window, the first monitor
chosen in its list, then Share (or Cancel). Exits 0 once it pressed the button, 1 if no
dialog came within 30 seconds."""
import sys
import time

import pyatspi

answer = sys.argv[1]


def find(node, role, name=None):
    try:
        if node.getRoleName() == role and (name is None or name in (node.name or "")):
            return node
        for child in node:
            found = find(child, role, name)
            if found is not None:
                return found
    except Exception:  # noqa: BLE001 (the dialog may be changing while it is read)
        pass
    return None


deadline = time.time() + 30
while time.time() < deadline:
    time.sleep(0.3)
    for app in pyatspi.Registry.getDesktop(0):
        if app is None or app.name != "xdg-desktop-portal-gnome":
            continue
        dialog = find(app, "frame", "Screen Share")
        if dialog is None:
            continue
        button = find(dialog, "push button", "Share" if answer == "share" else "Cancel")
        # The monitors' list (the dialog may also offer windows, on a page of their own).
        page = find(dialog, "panel", "Entire Screen")
        monitors = find(page, "list") if page is not None else None
        if button is None or (answer == "share" and monitors is None):
            continue
        if answer == "share":
            if monitors.childCount == 0:
                continue
            monitors.querySelection().selectChild(0)
            time.sleep(0.3)
        button.queryAction().doAction(0)
        print(f"pressed {answer}", flush=True)
        sys.exit(0)
print("no screen-sharing dialog came", flush=True)
sys.exit(1)
