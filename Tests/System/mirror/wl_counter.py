#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""wl_counter.py: counter.py's picture as a GTK 4 Wayland client, for the portal test
(run-mirror-wayland.sh): fullscreen, 20 counts a second, the top sixth a row of 16 blocks
(the counter in binary, most significant bit first, white is 1) that frames.py reads back,
the number below on a blue-grey ground. Drawn with CSS colours (no cairo bindings needed).
Prints "shown" once its window is up."""
import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

CSS = b"""
window, .ground { background: #50789f; }
.on { background: #ffffff; }
.off { background: #000000; }
.number { color: #ffffff; font-size: 120px; }
"""


def activate(app):
    provider = Gtk.CssProvider()
    provider.load_from_data(CSS)
    Gtk.StyleContext.add_provider_for_display(Gdk.Display.get_default(), provider, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
    window = Gtk.ApplicationWindow(application=app, title="counter", decorated=False)
    column = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    row = Gtk.Box(homogeneous=True)
    blocks = [Gtk.Box(hexpand=True) for _ in range(16)]
    for b in blocks:
        row.append(b)
    number = Gtk.Label(label="0", vexpand=True)
    number.add_css_class("number")
    column.append(row)
    column.append(number)
    window.set_child(column)
    window.fullscreen()
    window.present()
    count = [0]

    def tick():
        count[0] += 1
        height = window.get_height() or 720
        row.set_size_request(-1, height // 6)
        for bit, block in enumerate(blocks):
            on = (count[0] >> (15 - bit)) & 1
            block.set_css_classes(["on" if on else "off"])
        number.set_label(str(count[0]))
        return True

    GLib.timeout_add(50, tick)
    GLib.timeout_add(500, lambda: print("shown", flush=True) and False)


app = Gtk.Application(application_id="io.github.castdeck.MirrorCounter")
app.connect("activate", activate)
app.run([])
