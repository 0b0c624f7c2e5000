// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

// Why CastDeck destroys the windows it closes instead of keeping them hidden (issue 35).
//
// GTK 4.8.3 answers an AT-SPI client's GetChildAtIndex(i) on the application object by walking
// gtk_window_get_toplevels() and counting the visible windows. When i is not below that count
// (the client read ChildCount while one more window was shown: a dialog or the style editor
// closed in between) the walk runs off the end and GTK answers with the last window of the
// list, whether it is shown or not, without realizing its accessible first. A window that is
// hidden, or was never shown, has no object path on the accessibility bus (GTK drops it when a
// window is hidden), so the answer is built from a NULL path:
// g_variant_is_object_path's "string != NULL" assertion, then SIGSEGV in GLib. A destroyed
// window leaves that list at once, so it cannot be answered with.
//
// So a window that is closed is destroyed, and made again when it is wanted: the subtitle
// style editor, the dialogs, the mini player, and the shortcuts window, which is made only
// when it is asked for. Only the main window is kept while hidden (casting in the
// background), and it is the first of the list, so it is not the last while any other window
// exists. When it is hidden with no other window (casting in the background, the mini player
// closed too), GTK answers with it again: a client that asks for a window by a count read
// before the hide can still crash GTK 4.8 there. Destroying the main window in the background
// and building it again on return would close that case as well.
// Tests/System/gui/test_a11y_churn.py reads the tree while windows come and go.

@MainActor
extension Window {
    /// Closing (the close button, Escape in a dialog, gtk_window_close) destroys the window
    /// instead of hiding it, whatever its .ui file says.
    public func destroyWhenClosed() { gtk_window_set_hide_on_close(cast(pointer), 0) }
}
