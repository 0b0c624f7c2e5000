import CGtk
@_exported import GLibInterop

/// Thin helpers for the GTK calls the app uses. Widgets stay C pointers; these only remove
/// the casting noise and the variadic calls Swift cannot import.
public typealias Widget = UnsafeMutablePointer<GtkWidget>

@MainActor
public enum Gtk {
    /// Names a widget for screen readers and AT-SPI tests (the label property).
    public static func setAccessibleName(_ w: Widget, _ name: String) {
        cgtk_accessible_set_label(w, name)
    }

    public static func setAccessibleDescription(_ w: Widget, _ text: String) {
        cgtk_accessible_set_description(w, text)
    }

    public static func label(_ text: String, classes: [String] = [], xalign: Float = 0) -> Widget {
        let l = gtk_label_new(text)!
        gtk_label_set_xalign(cast(l), xalign)
        for c in classes { gtk_widget_add_css_class(l, c) }
        return l
    }

    public static func setText(_ label: Widget, _ text: String) {
        let current = gtk_label_get_text(cast(label)).map { String(cString: $0) }
        if current != text { gtk_label_set_text(cast(label), text) }
    }

    public static func box(_ orientation: GtkOrientation, spacing: Int32 = 0, classes: [String] = []) -> Widget {
        let b = gtk_box_new(orientation, spacing)!
        for c in classes { gtk_widget_add_css_class(b, c) }
        return b
    }

    public static func append(_ box: Widget, _ children: Widget...) {
        for c in children { gtk_box_append(cast(box), c) }
    }

    /// An icon button that screen readers announce by `name`; the tooltip says the same.
    public static func iconButton(_ icon: String, name: String, classes: [String] = []) -> Widget {
        let b = gtk_button_new_from_icon_name(icon)!
        setAccessibleName(b, name)
        gtk_widget_set_tooltip_text(b, name)
        for c in classes { gtk_widget_add_css_class(b, c) }
        return b
    }

    public static func setIcon(_ button: Widget, _ icon: String) {
        gtk_button_set_icon_name(cast(button), icon)
    }

    public static func setVisible(_ w: Widget, _ visible: Bool) {
        if gtk_widget_get_visible(w).isTrue != visible { gtk_widget_set_visible(w, visible.gboolean) }
    }

    public static func setSensitive(_ w: Widget, _ sensitive: Bool) {
        if gtk_widget_get_sensitive(w).isTrue != sensitive { gtk_widget_set_sensitive(w, sensitive.gboolean) }
    }

    public static func setClass(_ w: Widget, _ cls: String, _ on: Bool) {
        if on { gtk_widget_add_css_class(w, cls) } else { gtk_widget_remove_css_class(w, cls) }
    }

    public static func margins(_ w: Widget, _ m: Int32) {
        gtk_widget_set_margin_top(w, m); gtk_widget_set_margin_bottom(w, m)
        gtk_widget_set_margin_start(w, m); gtk_widget_set_margin_end(w, m)
    }

    /// Loads a CSS file for the whole display.
    public static func loadCSS(path: String) {
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_path(provider, path)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), cast(provider),
                                                   UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }

    /// Shows a toast with `text` in an AdwToastOverlay.
    public static func toast(_ overlay: Widget, _ text: String, timeout: UInt32 = 5) {
        let t = adw_toast_new(text)!
        adw_toast_set_timeout(t, timeout)
        adw_toast_overlay_add_toast(cast(overlay), t)
    }
}

/// A GtkBuilder loaded from a .ui file, with typed lookups that fail loudly with the object id.
@MainActor
public final class Builder {
    private let builder: OpaquePointer

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

    public func widget(_ id: String) -> Widget {
        guard let w = cgtk_builder_widget(cast(builder), id) else {
            fatalError("UI definition has no object with id '\(id)'")
        }
        return w
    }

    public func object(_ id: String) -> UnsafeMutableRawPointer? {
        gtk_builder_get_object(cast(builder), id).map { UnsafeMutableRawPointer($0) }
    }
}
