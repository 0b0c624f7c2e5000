// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

// What casting in the background and the mini player need from GTK: holding the application
// without a visible window, its D-Bus connection (for MPRIS), hiding windows, a shortcut on
// one window, and a question with two answers.

@MainActor
extension Application {
    /// Keeps the application running with no window (g_application_hold); balance with `release()`.
    public func hold() { g_application_hold(cast(app)) }
    public func release() { g_application_release(cast(app)) }

    /// The session-bus connection GApplication registered on (nil when it runs without a bus).
    public var dbusConnection: UnsafeMutableRawPointer? {
        g_application_get_dbus_connection(cast(app)).map { UnsafeMutableRawPointer($0) }
    }

    /// Whether any of the application's windows is shown.
    public var hasVisibleWindow: Bool {
        var list = gtk_application_get_windows(cast(app))
        while let node = list {
            if let w = node.pointee.data, gtk_widget_get_visible(w.assumingMemoryBound(to: GtkWidget.self)).isTrue { return true }
            list = node.pointee.next
        }
        return false
    }
}

@MainActor
extension Window {
    /// Hides the window without destroying it (present() shows it again as it was).
    public func hide() { gtk_widget_set_visible(pointer, 0) }
    /// Closes the window as its close button would (close-request runs first).
    public func close() { gtk_window_close(cast(pointer)) }
    /// Destroys the window.
    public func destroy() { gtk_window_destroy(cast(pointer)) }
    public func setApplication(_ application: Application) { gtk_window_set_application(cast(pointer), cast(application.app)) }

    /// Adds a keyboard shortcut, local to this window, that activates a detailed action name
    /// ("app.full-controller") the window can reach.
    public func addShortcut(_ trigger: String, action: String) {
        let controller = gtk_shortcut_controller_new()!
        let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger), gtk_named_action_new(action))
        gtk_shortcut_controller_add_shortcut(cast(controller), shortcut)
        gtk_widget_add_controller(pointer, controller)
    }
}

@MainActor
extension MessageDialog {
    /// A dialog with a heading, a body and responses (id, label); the first response with
    /// `destructive` set is red. Escape closes it with the response "close".
    public init(
        parent: Window?, heading: String, body: String, responses: [(id: String, label: String)],
        destructive: String? = nil, defaultResponse: String? = nil
    ) {
        let d = adw_message_dialog_new(parent.map { cast($0.pointer) }, heading, body)!
        self.init(unchecked: d)
        for r in responses { adw_message_dialog_add_response(cast(d), r.id, r.label) }
        if let destructive { adw_message_dialog_set_response_appearance(cast(d), destructive, ADW_RESPONSE_DESTRUCTIVE) }
        if let defaultResponse { adw_message_dialog_set_default_response(cast(d), defaultResponse) }
        adw_message_dialog_set_close_response(cast(d), "close")
        Widget(unchecked: d).nameButtonsByLabel()
        if defaultResponse != nil { keepFocusOnDefaultResponse() }
    }

    /// Keeps the keyboard focus on the default response. When the responses do not fit side by
    /// side, libadwaita 1.2 shows them in a column (the last one on top) once the dialog is laid
    /// out, and the focus lands on the top button: Enter would choose the last response (the
    /// destructive one, when it comes last) instead of the default. libadwaita moves the default
    /// widget to the column's button when its squeezer switches; the focus follows it here.
    private func keepFocusOnDefaultResponse() {
        guard let squeezer = Self.firstDescendant(of: Widget(unchecked: pointer), type: "AdwSqueezer") else { return }
        let dialog = pointer
        squeezer.on("notify::visible-child") {
            if let button = gtk_window_get_default_widget(cast(dialog)) { _ = gtk_widget_grab_focus(button) }
        }
    }

    private static func firstDescendant(of widget: Widget, type: String) -> Widget? {
        for child in widget.children {
            if child.isA(type) { return child }
            if let found = firstDescendant(of: child, type: type) { return found }
        }
        return nil
    }

    public func present() { gtk_window_present(cast(pointer)) }
}
