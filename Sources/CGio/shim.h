// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// GIO alone (D-Bus with file-descriptor passing), for the screen-cast portal client in
// ScreenCapture; the GUI's CGtk module includes the same headers through GTK.
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
