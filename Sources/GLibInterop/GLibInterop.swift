// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// GLibInterop: the bottom of the GUI stack, and the only place (with GtkInterop) that uses
// Unmanaged and @convention(c).
//
//   MainQueueBridge   libdispatch's main queue (and so the MainActor) drained by the GLib loop
//   Signals           g_signal_connect with Swift closures in retained boxes released by GLib;
//                     GLibSource: timeouts and idles
//   observe(_:)       re-renders when an @Observable value read by the closure changes
//   Settings          typed GSettings (nil, not abort, when the schema is missing)
//   Gettext           gettext in the "castdeck" domain (AppModel's tr/ntr call it)
//   GObjectRef, cast  pointer casts for GObject types, GError → GLibError
//
// Flow: GTK emits a signal on the main thread → trampoline → MainActor.assumeIsolated → the
// Swift closure; Swift work scheduled on the MainActor runs because the bridge drains the
// Dispatch main queue from a GLib source.
