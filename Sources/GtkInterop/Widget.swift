// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk
@_exported import GLibInterop

/// The C pointer every widget wrapper holds. Only GtkInterop touches it.
public typealias WidgetPointer = UnsafeMutablePointer<GtkWidget>

/// A typed view of a GtkWidget that GTK owns (it lives in a widget tree or a builder).
/// Wrappers are plain structs around the pointer: copying one does not take a reference.
public protocol WidgetWrapper: GObjectRef {
    var pointer: WidgetPointer { get }
    /// Wraps `pointer` without checking its class; Builder checks it by GType name first.
    init(unchecked pointer: WidgetPointer)
    /// The GType names (or a parent of them) this wrapper accepts from a builder.
    static var gtypeName: String { get }
}

extension WidgetWrapper {
    public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
}

@MainActor
extension WidgetWrapper {
    /// Any widget as the common wrapper (for containers and checks).
    public var asWidget: Widget { Widget(unchecked: pointer) }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(pointer).isTrue }
        nonmutating set { if isVisible != newValue { gtk_widget_set_visible(pointer, newValue.gboolean) } }
    }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(pointer).isTrue }
        nonmutating set { if isSensitive != newValue { gtk_widget_set_sensitive(pointer, newValue.gboolean) } }
    }

    /// The name screen readers announce (and AT-SPI tests look for): the accessible label.
    public func setAccessibleName(_ name: String) { cgtk_accessible_set_label(pointer, name) }

    public func setTooltip(_ text: String?) { gtk_widget_set_tooltip_text(pointer, text) }

    /// What screen readers say after the name (e.g. why a device is not verified).
    public func setAccessibleDescription(_ text: String) { cgtk_accessible_set_description(pointer, text) }

    public func removeCSSClass(_ name: String) { gtk_widget_remove_css_class(pointer, name) }

    public func addCSSClass(_ name: String) { gtk_widget_add_css_class(pointer, name) }

    public var isRightToLeft: Bool { gtk_widget_get_direction(pointer) == GTK_TEXT_DIR_RTL }
    /// Lays the widget's text out left to right whatever the UI's direction: a time ("1:05:03")
    /// then reads in order without Unicode isolate marks, which screen readers would read out.
    public func keepLeftToRight() { gtk_widget_set_direction(pointer, GTK_TEXT_DIR_LTR) }

    public func queueDraw() { gtk_widget_queue_draw(pointer) }

    /// Centres the widget vertically in its allocation (controls in a row).
    public func setAlignCenter() { gtk_widget_set_valign(pointer, GTK_ALIGN_CENTER) }
    /// Aligns the widget to the start edge horizontally.
    public func setAlignStart() { gtk_widget_set_halign(pointer, GTK_ALIGN_START) }

    public func setMargins(_ m: Int32) {
        gtk_widget_set_margin_top(pointer, m)
        gtk_widget_set_margin_bottom(pointer, m)
        gtk_widget_set_margin_start(pointer, m)
        gtk_widget_set_margin_end(pointer, m)
    }

    public func grabFocus() { _ = gtk_widget_grab_focus(pointer) }

    /// Takes the extra width of its row.
    public var hexpand: Bool {
        get { gtk_widget_get_hexpand(pointer).isTrue }
        nonmutating set { gtk_widget_set_hexpand(pointer, newValue.gboolean) }
    }

    /// The display's scale factor for this widget: 2 on a HiDPI screen (GDK_SCALE=2 too), so an
    /// image drawn into N points needs N × scale pixels to be sharp.
    public var scaleFactor: Int { Int(gtk_widget_get_scale_factor(pointer)) }

    /// The toplevel window this widget is in, if any.
    public var window: Window? {
        guard let root = gtk_widget_get_root(pointer) else { return nil }
        return Window(unchecked: WidgetPointer(root))
    }

    /// Whether the widget is an instance of `type` (or a subclass).
    public func isA(_ typeName: String) -> Bool {
        let t = g_type_from_name(typeName)
        return t != 0 && g_type_check_instance_is_a(raw.assumingMemoryBound(to: GTypeInstance.self), t).isTrue
    }

    /// The widget this one is a child of.
    public var parentWidget: Widget? { gtk_widget_get_parent(pointer).map(Widget.init(unchecked:)) }

    /// The child widgets, first to last.
    public var children: [Widget] {
        var out: [Widget] = []
        var c = gtk_widget_get_first_child(pointer)
        while let w = c {
            out.append(Widget(unchecked: w))
            c = gtk_widget_get_next_sibling(w)
        }
        return out
    }

    /// Whether both wrap the same widget.
    public func isSame(as other: some WidgetWrapper) -> Bool { raw == other.raw }
}

@MainActor
extension Box {
    /// Puts `child` right after `sibling`, one of this box's children (a part made from its
    /// own .ui file placed into another's layout).
    public func insert(_ child: some WidgetWrapper, after sibling: some WidgetWrapper) {
        gtk_box_insert_child_after(cast(pointer), child.pointer, sibling.pointer)
    }
}

/// Any widget.
public struct Widget: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkWidget" }
}

/// A GtkBuilder loaded from a compiled-in resource, a file or a string, with typed lookups by
/// object id. A missing id or an object of another class is a programming error in the .ui
/// file and stops the program with the id in the message.
@MainActor
public final class Builder {
    nonisolated(unsafe) private let builder: OpaquePointer

    /// Loads `/path/in/the/resource.ui`. Throws when the resource is missing or invalid.
    public init(resource path: String) throws {
        let b = gtk_builder_new()!
        do {
            _ = try withGError { gtk_builder_add_from_resource(b, path, $0) }
        } catch {
            g_object_unref(b.raw)
            throw error
        }
        builder = cast(b)
    }

    public init(file: String) throws {
        let b = gtk_builder_new()!
        _ = try withGError { gtk_builder_add_from_file(b, file, $0) }
        builder = cast(b)
    }

    public init(string: String) throws {
        let b = gtk_builder_new()!
        _ = try withGError { gtk_builder_add_from_string(b, string, -1, $0) }
        builder = cast(b)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(builder)) }

    /// The widget with this id, as `T`.
    public func get<T: WidgetWrapper>(_ id: String, as type: T.Type = T.self) -> T {
        guard let object = gtk_builder_get_object(cast(builder), id) else {
            fatalError("UI definition has no object with id '\(id)'")
        }
        let w = T(unchecked: WidgetPointer(OpaquePointer(object)))
        precondition(w.isA(T.gtypeName), "UI object '\(id)' is not a \(T.gtypeName)")
        // Keep the widget alive as long as GTK's tree does, independently of this builder.
        return w
    }

    /// Whether the definition has an object with this id.
    public func has(_ id: String) -> Bool { gtk_builder_get_object(cast(builder), id) != nil }

    /// A non-widget object (a menu model, a shortcuts window) as a raw GObject reference.
    public func object(_ id: String) -> UnsafeMutableRawPointer? {
        gtk_builder_get_object(cast(builder), id).map { UnsafeMutableRawPointer($0) }
    }
}

/// Process-wide GTK set-up: CSS, icons, compiled-in resources.
@MainActor
public enum Gtk {
    /// Whether a resource path exists in a registered bundle.
    public static func resourceExists(_ path: String) -> Bool {
        g_resources_get_info(path, G_RESOURCE_LOOKUP_FLAGS_NONE, nil, nil, nil).isTrue
    }

    /// The text of a resource (a .ui file), or nil when it is not registered.
    public static func resourceText(_ path: String) -> String? {
        guard let bytes = g_resources_lookup_data(path, G_RESOURCE_LOOKUP_FLAGS_NONE, nil) else { return nil }
        defer { g_bytes_unref(bytes) }
        var size: UInt = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(size)), as: UTF8.self)
    }

    /// Initialises GTK once; false without a display.
    public static func initialize() -> Bool {
        if initialized == nil { initialized = gtk_init_check().isTrue }
        return initialized!
    }
    private static var initialized: Bool?

    /// Loads a CSS file for the whole display.
    public static func loadCSS(path: String) {
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_path(provider, path)
        gtk_style_context_add_provider_for_display(
            gdk_display_get_default(), cast(provider),
            UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }

    public static func setDefaultIconName(_ name: String) { gtk_window_set_default_icon_name(name) }

    /// True when the current locale's text direction is right-to-left.
    public static var isRightToLeft: Bool { gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL }
}
