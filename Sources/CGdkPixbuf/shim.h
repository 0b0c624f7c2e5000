// SPDX-License-Identifier: GPL-3.0-or-later
// gdk-pixbuf (decode, scale, save PNG) and GLib checksums for ImageCache. No GTK.
#ifndef CASTDECK_CGDKPIXBUF_SHIM_H
#define CASTDECK_CGDKPIXBUF_SHIM_H
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib.h>
#endif
