// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

// Windows and the libadwaita widgets CastDeck uses.

/// GtkWindow (AdwWindow, AdwApplicationWindow, dialogs).
public struct Window: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkWindow" }
}

@MainActor
extension Window {
    public func present() { gtk_window_present(cast(pointer)) }
    public func setTitle(_ title: String) { gtk_window_set_title(cast(pointer), title) }
    /// Closing hides the window instead of destroying it (it can be presented again).
    public var hideOnClose: Bool {
        get { gtk_window_get_hide_on_close(cast(pointer)).isTrue }
        nonmutating set { gtk_window_set_hide_on_close(cast(pointer), newValue.gboolean) }
    }
    public func setTransientFor(_ parent: Window?) { gtk_window_set_transient_for(cast(pointer), parent.map { cast($0.pointer) }) }

    public var defaultSize: (width: Int, height: Int) {
        get {
            var w: Int32 = 0, h: Int32 = 0
            gtk_window_get_default_size(cast(pointer), &w, &h)
            return (Int(w), Int(h))
        }
        nonmutating set { gtk_window_set_default_size(cast(pointer), Int32(newValue.width), Int32(newValue.height)) }
    }

    /// Called when the user asks to close; return true to keep the window open.
    @discardableResult
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) -> gulong { onBool("close-request", handler) }

    /// Runs `handler` once, after the first frame of this window has been painted.
    public func onFirstFrame(_ handler: @escaping @MainActor () -> Void) {
        let w = pointer
        on("map") {
            guard let clock = gtk_widget_get_frame_clock(w) else { return }
            var fired = false
            clock.on("after-paint") {
                guard !fired else { return }
                fired = true
                handler()
            }
        }
    }

    /// Adds a parameterless or typed action as "win.<name>".
    public func add(_ action: SimpleAction) { g_action_map_add_action(cast(pointer), cast(action.action)) }
}

/// AdwApplicationWindow.
public struct ApplicationWindow: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "AdwApplicationWindow" }
}

@MainActor
extension ApplicationWindow {
    public init(application: Application) {
        self.init(unchecked: adw_application_window_new(cast(application.app)))
    }
    public var asWindow: Window { Window(unchecked: pointer) }
    public func setApplication(_ application: Application) {
        gtk_window_set_application(cast(pointer), cast(application.app))
    }
    public func setContent(_ content: some WidgetWrapper) { adw_application_window_set_content(cast(pointer), content.pointer) }
}

/// AdwWindow as a separate top-level (the subtitle style editor), loaded from a .ui file.
public struct AdwWindow: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "AdwWindow" }
}

@MainActor
extension AdwWindow {
    public var asWindow: Window { Window(unchecked: pointer) }
}

public struct ActionRow: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "AdwActionRow" }
}

@MainActor
extension ActionRow {
    /// A row that shows its title and suffixes and does nothing itself: not activatable and
    /// no Tab stop of its own (its buttons still are). `isActivatable = true` makes it one.
    public init(title: String) {
        self.init(unchecked: adw_action_row_new())
        self.title = title
        isActivatable = false
    }

    /// Title and subtitle at most this many lines, ellipsized (0: wrap without limit). One
    /// line each also makes the row cheap to measure: wrapping labels are laid out again for
    /// every width GTK asks about.
    public func limitLines(title: Int32, subtitle: Int32) {
        adw_action_row_set_title_lines(cast(pointer), title)
        adw_action_row_set_subtitle_lines(cast(pointer), subtitle)
    }
    // AdwPreferencesRow reads its title and subtitle as Pango markup unless told otherwise;
    // rows show device names and media titles from outside, which must stay text (issue 17).
    public var title: String {
        get { adw_preferences_row_get_title(cast(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set {
            adw_preferences_row_set_use_markup(cast(pointer), 0)
            if title != newValue { adw_preferences_row_set_title(cast(pointer), newValue) }
        }
    }
    public var subtitle: String {
        get { adw_action_row_get_subtitle(cast(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set {
            adw_preferences_row_set_use_markup(cast(pointer), 0)
            if subtitle != newValue { adw_action_row_set_subtitle(cast(pointer), newValue) }
        }
    }
    public func addSuffix(_ w: some WidgetWrapper) { adw_action_row_add_suffix(cast(pointer), w.pointer) }
    /// The widget a click on the row (or Enter) activates, e.g. its switch.
    public func setActivatableWidget(_ w: some WidgetWrapper) { adw_action_row_set_activatable_widget(cast(pointer), w.pointer) }
    /// Whether activating the row (click, Enter) does something. A row that does nothing is
    /// no Tab stop either: the keyboard goes to its buttons, or past it.
    public var isActivatable: Bool {
        get { gtk_list_box_row_get_activatable(cast(pointer)).isTrue }
        nonmutating set {
            gtk_list_box_row_set_activatable(cast(pointer), newValue.gboolean)
            gtk_widget_set_focusable(pointer, newValue.gboolean)
        }
    }
    @discardableResult
    public func onActivated(_ handler: @escaping @MainActor () -> Void) -> gulong { on("activated", handler) }
}

/// AdwPreferencesRow with a custom child (a title above linked toggle buttons).
public struct PreferencesRow: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "AdwPreferencesRow" }
}

@MainActor
extension PreferencesRow {
    public init(title: String, child: some WidgetWrapper) {
        self.init(unchecked: adw_preferences_row_new())
        adw_preferences_row_set_use_markup(cast(pointer), 0)
        adw_preferences_row_set_title(cast(pointer), title)
        // It does nothing itself, so the keyboard goes straight to its buttons.
        gtk_list_box_row_set_activatable(cast(pointer), 0)
        gtk_widget_set_focusable(pointer, 0)
        gtk_list_box_row_set_child(cast(pointer), child.pointer)
    }
}

public struct PreferencesGroup: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "AdwPreferencesGroup" }
}

@MainActor
extension PreferencesGroup {
    public func setDescription(_ text: String) { adw_preferences_group_set_description(cast(pointer), text) }
    public func add(_ row: some WidgetWrapper) { adw_preferences_group_add(cast(pointer), row.pointer) }
    public func remove(_ row: some WidgetWrapper) { adw_preferences_group_remove(cast(pointer), row.pointer) }
}

/// GtkSwitch.
public struct Switch: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkSwitch" }
}

@MainActor
extension Switch {
    public init() {
        self.init(unchecked: gtk_switch_new())
        gtk_widget_set_valign(pointer, GTK_ALIGN_CENTER)
    }
    public var isOn: Bool {
        get { gtk_switch_get_active(cast(pointer)).isTrue }
        nonmutating set { if isOn != newValue { gtk_switch_set_active(cast(pointer), newValue.gboolean) } }
    }
    /// Called when the user (or `isOn`) turns it on or off.
    @discardableResult
    public func onToggled(_ handler: @escaping @MainActor () -> Void) -> gulong { on("notify::active", handler) }
}

public struct StatusPage: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "AdwStatusPage" }
}

@MainActor
extension StatusPage {
    public func set(title: String, description: String) {
        adw_status_page_set_title(cast(pointer), title)
        adw_status_page_set_description(cast(pointer), description)
    }

    /// Gives the page an icon of this size that draws nothing, for CSS to draw on (the
    /// `image.icon` node's background).
    public func setBlankIcon(size: Int32) {
        guard let blank = gdk_paintable_new_empty(size, size) else { return }
        adw_status_page_set_paintable(cast(pointer), blank)
        g_object_unref(blank.raw)
    }
}

public struct WindowTitle: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "AdwWindowTitle" }
}

@MainActor
extension WindowTitle {
    public func setTitle(_ title: String) { adw_window_title_set_title(cast(pointer), title) }
}

public struct ToastOverlay: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "AdwToastOverlay" }
}

/// The toast on screen per overlay, so the same sentence again replaces it instead of
/// queueing a copy.
@MainActor private var shownToasts: [UnsafeMutableRawPointer: (text: String, toast: OpaquePointer)] = [:]

@MainActor
extension ToastOverlay {
    /// Shows `text` as a toast for `timeout` seconds, with an optional button (e.g. "Details").
    /// A toast with the same text that is still shown is dismissed first.
    /// `now` shows it at once, ahead of a toast on screen (which comes back after it): for a
    /// toast whose button is only worth something right away, such as Undo.
    public func toast(
        _ text: String, timeout: UInt32 = 5, button: String? = nil, now: Bool = false,
        onButton: (@MainActor () -> Void)? = nil
    ) {
        if let shown = shownToasts[raw], shown.text == text {
            adw_toast_dismiss(shown.toast)
        }
        // libadwaita 1.2 reads a toast's title as Pango markup (no use-markup switch before 1.4):
        // escape it, since toasts can name media and devices.
        let escaped = g_markup_escape_text(text, -1)!
        defer { g_free(escaped) }
        let t = adw_toast_new(escaped)!
        adw_toast_set_timeout(t, timeout)
        // The stock title is one line that ellipsizes: on a narrow window the end of the
        // sentence was lost. This label wraps onto a second line before it ellipsizes.
        let label = gtk_label_new(text)!
        gtk_label_set_wrap(cast(label), 1)
        gtk_label_set_wrap_mode(cast(label), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_lines(cast(label), 2)
        gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(cast(label), 60)
        gtk_label_set_xalign(cast(label), 0)
        adw_toast_set_custom_title(t, label)
        if let button, let onButton {
            adw_toast_set_button_label(t, button)
            UnsafeMutableRawPointer(t).on("button-clicked", onButton)
        }
        let key = raw
        let overlay = self
        UnsafeMutableRawPointer(t).on("dismissed") {
            if shownToasts[key]?.toast == t { shownToasts[key] = nil }
            // The next toast in the queue comes up once this one has gone. Toasts are also
            // dismissed when their overlay is destroyed: the reference keeps it valid to ask
            // (a destroyed overlay has no children left to name).
            g_object_ref(overlay.raw)
            GLibSource.idle {
                overlay.nameToastButtons()
                g_object_unref(overlay.raw)
            }
        }
        shownToasts[key] = (text, t)
        if now { adw_toast_set_priority(t, ADW_TOAST_PRIORITY_HIGH) }
        adw_toast_overlay_add_toast(cast(pointer), t)
        nameToastButtons()
    }
}

/// AdwMessageDialog, with its responses declared in the .ui file.
public struct MessageDialog: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "AdwMessageDialog" }
}

@MainActor
extension MessageDialog {
    public var asWindow: Window { Window(unchecked: pointer) }

    /// A dialog made in code: heading, body, responses as (id, label) with the last one the
    /// default. `extra` is a widget shown under the body (a details view).
    public static func make(
        parent: Window?, heading: String, body: String, responses: [(String, String)],
        suggested: String? = nil
    ) -> MessageDialog {
        let d = adw_message_dialog_new(parent.map { cast($0.pointer) }, heading, body)!
        for (id, label) in responses { adw_message_dialog_add_response(cast(d), id, label) }
        if let suggested { adw_message_dialog_set_response_appearance(cast(d), suggested, ADW_RESPONSE_SUGGESTED) }
        if let last = responses.last { adw_message_dialog_set_default_response(cast(d), last.0) }
        if let first = responses.first { adw_message_dialog_set_close_response(cast(d), first.0) }
        Widget(unchecked: d).nameButtonsByLabel()
        return MessageDialog(unchecked: d)
    }

    /// The response Escape (or closing the dialog otherwise) gives; it need not be a button.
    public func setCloseResponse(_ id: String) { adw_message_dialog_set_close_response(cast(pointer), id) }

    /// Lets the user choose a response or not (Add stays off while the address is not one).
    public func setResponseEnabled(_ id: String, _ enabled: Bool) {
        adw_message_dialog_set_response_enabled(cast(pointer), id, enabled.gboolean)
    }

    public func setExtraChild(_ child: some WidgetWrapper) {
        adw_message_dialog_set_extra_child(cast(pointer), child.pointer)
    }

    /// The response id the user chose ("cancel", "add", …).
    @discardableResult
    public func onResponse(_ handler: @escaping @MainActor (String) -> Void) -> gulong {
        on("response") { (response: UnsafeMutableRawPointer?) in
            handler(response.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "")
        }
    }
}

/// The About window.
@MainActor
public enum AboutWindow {
    public struct Info {
        public var name, icon, developer, version, comments, translators: String
        public init(name: String, icon: String, developer: String, version: String, comments: String, translators: String) {
            self.name = name
            self.icon = icon
            self.developer = developer
            self.version = version
            self.comments = comments
            self.translators = translators
        }
    }

    /// Shows an AdwAboutWindow for a GPL-3.0 application.
    public static func present(_ info: Info, parent: Window?) {
        let about = adw_about_window_new()!
        adw_about_window_set_application_name(cast(about), info.name)
        adw_about_window_set_application_icon(cast(about), info.icon)
        adw_about_window_set_developer_name(cast(about), info.developer)
        adw_about_window_set_version(cast(about), info.version)
        adw_about_window_set_comments(cast(about), info.comments)
        adw_about_window_set_license_type(cast(about), GTK_LICENSE_GPL_3_0)
        adw_about_window_set_translator_credits(cast(about), info.translators)
        let w = Window(unchecked: about)
        w.setTransientFor(parent)
        w.present()
    }
}
