// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

// Typed wrappers for the GTK widgets CastDeck uses, with the properties and signals it needs.
// Each is a struct around the widget pointer; `gtypeName` lets Builder check the class.

public struct Label: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkLabel" }
}

@MainActor
extension Label {
    public init(_ text: String, classes: [String] = [], xalign: Float = 0) {
        self.init(unchecked: gtk_label_new(text))
        gtk_label_set_xalign(cast(pointer), xalign)
        for c in classes { addCSSClass(c) }
    }

    /// The label's text; setting the same text again does nothing (no relayout).
    public var text: String {
        get { gtk_label_get_text(cast(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set { if text != newValue { gtk_label_set_text(cast(pointer), newValue) } }
    }
}

public struct Button: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkButton" }
}

@MainActor
extension Button {
    public var label: String {
        get { gtk_button_get_label(cast(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set { if label != newValue { gtk_button_set_label(cast(pointer), newValue) } }
    }

    public var iconName: String {
        get { gtk_button_get_icon_name(cast(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set { if iconName != newValue { gtk_button_set_icon_name(cast(pointer), newValue) } }
    }

    /// The action the button activates ("win.play-again"); setting the same one does nothing.
    public var actionName: String {
        get { gtk_actionable_get_action_name(cast(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set { if actionName != newValue { gtk_actionable_set_action_name(cast(pointer), newValue) } }
    }

    @discardableResult
    public func onClicked(_ handler: @escaping @MainActor () -> Void) -> gulong { on("clicked", handler) }
}

/// GtkToggleButton. Bound to a stateful action (`action-name` + `action-target` in the .ui), GTK
/// keeps `isActive` equal to "the action's state is my target" by itself.
public struct ToggleButton: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkToggleButton" }
}

@MainActor
extension ToggleButton {
    public init(label: String) { self.init(unchecked: gtk_toggle_button_new_with_label(label)) }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(cast(pointer)).isTrue }
        nonmutating set { if isActive != newValue { gtk_toggle_button_set_active(cast(pointer), newValue.gboolean) } }
    }

    public var iconName: String {
        get { gtk_button_get_icon_name(cast(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set { if iconName != newValue { gtk_button_set_icon_name(cast(pointer), newValue) } }
    }

    /// Makes this button one of a group in which one button is active at a time.
    public func join(_ group: ToggleButton) { gtk_toggle_button_set_group(cast(pointer), cast(group.pointer)) }

    /// Left-aligns the label (list-like buttons in a popover).
    public func alignLabelStart() {
        if let child = gtk_button_get_child(cast(pointer)), Label(unchecked: child).isA("GtkLabel") {
            gtk_label_set_xalign(cast(child), 0)
        }
    }

    /// Ends the label with "…" past `chars` characters of width (names that come from outside).
    public func ellipsizeLabel(maxWidthChars chars: Int32) {
        if let child = gtk_button_get_child(cast(pointer)), Label(unchecked: child).isA("GtkLabel") {
            gtk_label_set_ellipsize(cast(child), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(cast(child), chars)
        }
    }

    @discardableResult
    public func onToggled(_ handler: @escaping @MainActor () -> Void) -> gulong { on("toggled", handler) }
}

public struct MenuButton: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkMenuButton" }
}

@MainActor
extension MenuButton {
    public func setPopover(_ popover: Popover) { gtk_menu_button_set_popover(cast(pointer), popover.pointer) }
}

public struct Popover: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkPopover" }
}

/// GtkScale (a GtkRange): the seek bar and the volume slider.
public struct Scale: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkRange" }
}

@MainActor
extension Scale {
    public var value: Double {
        get { gtk_range_get_value(cast(pointer)) }
        nonmutating set { gtk_range_set_value(cast(pointer), newValue) }
    }

    public func setRange(_ lower: Double, _ upper: Double) { gtk_range_set_range(cast(pointer), lower, upper) }

    @discardableResult
    public func onValueChanged(_ handler: @escaping @MainActor () -> Void) -> gulong { on("value-changed", handler) }
}

public struct ProgressBar: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkProgressBar" }
}

@MainActor
extension ProgressBar {
    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(cast(pointer)) }
        nonmutating set { gtk_progress_bar_set_fraction(cast(pointer), min(1, max(0, newValue))) }
    }
}

public struct Picture: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkPicture" }
}

@MainActor
extension Picture {
    /// Shows the image file at `path` (nil clears it).
    public func setFile(_ path: String?) { gtk_picture_set_filename(cast(pointer), path) }
}

public struct Image: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkImage" }
}

@MainActor
extension Image {
    public func setFile(_ path: String) { gtk_image_set_from_file(cast(pointer), path) }
    public func setIconName(_ name: String) { gtk_image_set_from_icon_name(cast(pointer), name) }
    public var pixelSize: Int32 {
        get { gtk_image_get_pixel_size(cast(pointer)) }
        nonmutating set { gtk_image_set_pixel_size(cast(pointer), newValue) }
    }
}

public struct Box: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkBox" }
}

@MainActor
extension Box {
    public init(vertical: Bool, spacing: Int32 = 0, classes: [String] = []) {
        self.init(unchecked: gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing))
        for c in classes { addCSSClass(c) }
    }

    public func append(_ children: any WidgetWrapper...) {
        for c in children { gtk_box_append(cast(pointer), c.pointer) }
    }

    public func removeAll() {
        while let c = gtk_widget_get_first_child(pointer) { gtk_box_remove(cast(pointer), c) }
    }

    public func remove(_ child: some WidgetWrapper) { gtk_box_remove(cast(pointer), child.pointer) }
}

public struct Stack: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkStack" }
}

@MainActor
extension Stack {
    public var visibleChildName: String? {
        get { gtk_stack_get_visible_child_name(cast(pointer)).map { String(cString: $0) } }
        nonmutating set { if let newValue { gtk_stack_set_visible_child_name(cast(pointer), newValue) } }
    }

    /// True while a page transition is animating.
    public var isTransitionRunning: Bool { gtk_stack_get_transition_running(cast(pointer)).isTrue }

    @discardableResult
    public func onTransitionRunningChanged(_ handler: @escaping @MainActor () -> Void) -> gulong {
        on("notify::transition-running", handler)
    }
}

/// GtkSpinner. While spinning it redraws every frame, so leave it spinning only as long as
/// the wait is short.
public struct Spinner: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkSpinner" }
}

@MainActor
extension Spinner {
    public var isSpinning: Bool {
        get { gtk_spinner_get_spinning(cast(pointer)).isTrue }
        nonmutating set { if isSpinning != newValue { gtk_spinner_set_spinning(cast(pointer), newValue.gboolean) } }
    }
}

public struct Revealer: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkRevealer" }
}

@MainActor
extension Revealer {
    public var revealsChild: Bool {
        get { gtk_revealer_get_reveal_child(cast(pointer)).isTrue }
        nonmutating set { if revealsChild != newValue { gtk_revealer_set_reveal_child(cast(pointer), newValue.gboolean) } }
    }
    /// True once the reveal transition has finished showing the child.
    public var isChildRevealed: Bool { gtk_revealer_get_child_revealed(cast(pointer)).isTrue }
    public func setChild(_ child: some WidgetWrapper) { gtk_revealer_set_child(cast(pointer), child.pointer) }

    @discardableResult
    public func onChildRevealedChanged(_ handler: @escaping @MainActor () -> Void) -> gulong {
        on("notify::child-revealed", handler)
    }
}

public struct ScrolledWindow: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkScrolledWindow" }
}

@MainActor
extension ScrolledWindow {
    public func setChild(_ child: some WidgetWrapper) { gtk_scrolled_window_set_child(cast(pointer), child.pointer) }
}

public struct ListBox: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkListBox" }
}

@MainActor
extension ListBox {
    public func append(_ row: some WidgetWrapper) { gtk_list_box_append(cast(pointer), row.pointer) }
    public func remove(_ row: some WidgetWrapper) { gtk_list_box_remove(cast(pointer), row.pointer) }
    public func removeAll() {
        while let c = gtk_widget_get_first_child(pointer) { gtk_list_box_remove(cast(pointer), c) }
    }
}

public struct SpinButton: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkSpinButton" }
}

@MainActor
extension SpinButton {
    public init(lower: Double, upper: Double, step: Double) {
        self.init(unchecked: gtk_spin_button_new_with_range(lower, upper, step))
    }
    public var value: Double {
        get { gtk_spin_button_get_value(cast(pointer)) }
        nonmutating set { gtk_spin_button_set_value(cast(pointer), newValue) }
    }
    @discardableResult
    public func onValueChanged(_ handler: @escaping @MainActor () -> Void) -> gulong { on("value-changed", handler) }
}

/// GtkEntry (any GtkEditable).
public struct Entry: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkEditable" }
}

@MainActor
extension Entry {
    public init(placeholder: String) {
        self.init(unchecked: gtk_entry_new())
        gtk_entry_set_placeholder_text(cast(pointer), placeholder)
    }
    public var text: String {
        get { gtk_editable_get_text(cast(pointer)).map { String(cString: $0) } ?? "" }
        nonmutating set { gtk_editable_set_text(cast(pointer), newValue) }
    }
    @discardableResult
    public func onChanged(_ handler: @escaping @MainActor () -> Void) -> gulong { on("changed", handler) }
}

public struct DropDown: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkDropDown" }
}

@MainActor
extension DropDown {
    public init(strings: [String]) {
        var cstrs: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        cstrs.append(nil)
        let w: WidgetPointer = cstrs.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buf.count) {
                gtk_drop_down_new_from_strings($0)!
            }
        }
        for p in cstrs { free(p) }
        self.init(unchecked: w)
    }
    public var selected: Int {
        get { Int(gtk_drop_down_get_selected(cast(pointer))) }
        nonmutating set { gtk_drop_down_set_selected(cast(pointer), UInt32(max(0, newValue))) }
    }
    @discardableResult
    public func onSelectedChanged(_ handler: @escaping @MainActor () -> Void) -> gulong { on("notify::selected", handler) }
}

/// A colour with components in 0…1.
public struct RGBA: Equatable, Sendable {
    public var red, green, blue, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}

public struct ColorButton: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkColorButton" }
}

@MainActor
extension ColorButton {
    public init(color: RGBA, title: String) {
        var c = GdkRGBA(red: Float(color.red), green: Float(color.green), blue: Float(color.blue), alpha: Float(color.alpha))
        self.init(unchecked: gtk_color_button_new_with_rgba(&c))
        gtk_color_chooser_set_use_alpha(cast(pointer), 1)
        gtk_color_button_set_title(cast(pointer), title)
    }
    public var color: RGBA {
        var c = GdkRGBA()
        gtk_color_chooser_get_rgba(cast(pointer), &c)
        return RGBA(red: Double(c.red), green: Double(c.green), blue: Double(c.blue), alpha: Double(c.alpha))
    }
    @discardableResult
    public func onColorSet(_ handler: @escaping @MainActor () -> Void) -> gulong { on("color-set", handler) }

    /// GtkColorButton is a wrapper around an inner GtkButton, which is what assistive
    /// technology sees: the name and description go on that button too.
    public func setAccessible(name: String, description: String) {
        setAccessibleName(name)
        setAccessibleDescription(description)
        if let inner = gtk_widget_get_first_child(pointer) {
            cgtk_accessible_set_label(inner, name)
            cgtk_accessible_set_description(inner, description)
        }
    }
}
