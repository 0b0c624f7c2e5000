import AppModel
import CastProtocol
import CGtk
import GLibInterop
import GtkInterop

/// The subtitle style editor: every TextTrackStyle field, a live preview drawn locally on a
/// sample frame, Apply (sends it to the receiver) and "Use as default" (GSettings; sent with
/// every later load).
@MainActor
final class StyleEditor {
    let model: AppModel
    var window: Widget?
    var preview: Widget?
    var updating = false

    init(model: AppModel) { self.model = model }

    func present(parent: Widget?) {
        if window == nil { build(parent: parent) }
        gtk_window_present(cast(window!))
    }

    private var style: TextTrackStyle {
        get { model.draftStyle }
        set { model.draftStyle = newValue; if let preview { gtk_widget_queue_draw(preview) } }
    }

    private func build(parent: Widget?) {
        let win = adw_window_new()!
        window = win
        gtk_window_set_title(cast(win), tr("Subtitle Style"))
        gtk_window_set_default_size(cast(win), 560, 720)
        gtk_window_set_hide_on_close(cast(win), 1)
        if let parent { gtk_window_set_transient_for(cast(win), cast(parent)) }
        let outer = Gtk.box(GTK_ORIENTATION_VERTICAL)
        let header = adw_header_bar_new()!
        gtk_box_append(cast(outer), header)
        let scroll = gtk_scrolled_window_new()!
        gtk_widget_set_vexpand(scroll, 1)
        gtk_scrolled_window_set_policy(cast(scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        let content = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        Gtk.margins(content, 18)
        gtk_scrolled_window_set_child(cast(scroll), content)
        gtk_box_append(cast(outer), scroll)
        adw_window_set_content(cast(win), outer)

        let area = gtk_drawing_area_new()!
        gtk_drawing_area_set_content_height(cast(area), 150)
        gtk_widget_add_css_class(area, "style-preview")
        Gtk.setAccessibleName(area, tr("Subtitle preview"))
        Drawing.setDrawFunc(area) { [unowned self] cr, w, h in self.drawPreview(cr, Double(w), Double(h)) }
        preview = area
        gtk_box_append(cast(content), area)

        let text = group(content, tr("Text"))
        colorRow(text, tr("Text color and opacity"), \.foregroundColor, "#FFFFFFFF")
        spinRow(text, tr("Font scale"), 0.5, 3, 0.1, \.fontScale, 1)
        entryRow(text, tr("Font family"), \.fontFamily)
        choiceRow(text, tr("Generic family"), \.fontGenericFamily, [
            (.sansSerif, tr("Sans serif")), (.serif, tr("Serif")), (.monospacedSansSerif, tr("Monospace")),
            (.monospacedSerif, tr("Monospace serif")), (.casual, tr("Casual")), (.cursive, tr("Cursive")),
            (.smallCapitals, tr("Small capitals"))])
        toggleRow(text, tr("Font style"), \.fontStyle, [
            (.normal, tr("Normal")), (.bold, tr("Bold")), (.italic, tr("Italic")), (.boldItalic, tr("Bold italic"))])

        let box = group(content, tr("Background and edge"))
        colorRow(box, tr("Background color and opacity"), \.backgroundColor, "#000000FF")
        toggleRow(box, tr("Edge type"), \.edgeType, [
            (.none, tr("None")), (.outline, tr("Outline")), (.dropShadow, tr("Drop shadow")),
            (.raised, tr("Raised")), (.depressed, tr("Depressed"))])
        colorRow(box, tr("Edge color"), \.edgeColor, "#000000FF")

        let wnd = group(content, tr("Window"))
        toggleRow(wnd, tr("Window type"), \.windowType, [
            (.none, tr("None")), (.normal, tr("Normal")), (.roundedCorners, tr("Rounded corners"))])
        colorRow(wnd, tr("Window color"), \.windowColor, "#00000000")
        spinRow(wnd, tr("Corner radius"), 0, 40, 1, \.windowRoundedCornerRadius, 0)

        let buttons = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        let useDefault = gtk_button_new_with_label(tr("Use as Default"))!
        Gtk.setAccessibleName(useDefault, tr("Use as default"))
        let apply = gtk_button_new_with_label(tr("Apply"))!
        gtk_widget_add_css_class(apply, "suggested-action")
        Gtk.setAccessibleName(apply, tr("Apply"))
        Gtk.append(buttons, useDefault, apply)
        gtk_box_append(cast(content), buttons)
        apply.on("clicked") { [unowned self] in Task { await self.model.applyStyle() } }
        useDefault.on("clicked") { [unowned self] in self.model.useStyleAsDefault() }
    }

    // MARK: rows

    private func group(_ parent: Widget, _ title: String) -> Widget {
        let g = adw_preferences_group_new()!
        adw_preferences_group_set_title(cast(g), title)
        gtk_box_append(cast(parent), g)
        return g
    }

    private func row(_ group: Widget, _ title: String, _ control: Widget) {
        let r = adw_action_row_new()!
        adw_preferences_row_set_title(cast(r), title)
        gtk_widget_set_valign(control, GTK_ALIGN_CENTER)
        Gtk.setAccessibleName(control, title)
        adw_action_row_add_suffix(cast(r), control)
        adw_preferences_group_add(cast(group), r)
    }

    private func colorRow(_ group: Widget, _ title: String, _ key: WritableKeyPath<TextTrackStyle, String?>, _ fallback: String) {
        var rgba = Self.rgba(style[keyPath: key] ?? fallback)
        let button = gtk_color_button_new_with_rgba(&rgba)!
        gtk_color_chooser_set_use_alpha(cast(button), 1)
        gtk_color_button_set_title(cast(button), title)
        button.on("color-set") { [unowned self] in
            var c = GdkRGBA()
            gtk_color_chooser_get_rgba(cast(button), &c)
            self.style[keyPath: key] = Self.hex(c)
        }
        row(group, title, button)
    }

    private func spinRow(_ group: Widget, _ title: String, _ lo: Double, _ hi: Double, _ step: Double,
                         _ key: WritableKeyPath<TextTrackStyle, Double?>, _ fallback: Double) {
        let spin = gtk_spin_button_new_with_range(lo, hi, step)!
        gtk_spin_button_set_value(cast(spin), style[keyPath: key] ?? fallback)
        spin.on("value-changed") { [unowned self] in
            self.style[keyPath: key] = gtk_spin_button_get_value(cast(spin))
        }
        row(group, title, spin)
    }

    private func entryRow(_ group: Widget, _ title: String, _ key: WritableKeyPath<TextTrackStyle, String?>) {
        let entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(cast(entry), tr("Receiver default"))
        gtk_editable_set_text(cast(entry), style[keyPath: key] ?? "")
        entry.on("changed") { [unowned self] in
            let t = String(cString: gtk_editable_get_text(cast(entry)))
            self.style[keyPath: key] = t.isEmpty ? nil : t
        }
        row(group, title, entry)
    }

    /// A choice shown as linked toggle buttons (each one clickable by assistive technologies).
    private func toggleRow<V: Equatable>(_ group: Widget, _ title: String, _ key: WritableKeyPath<TextTrackStyle, V?>,
                                         _ options: [(V, String)]) {
        let box = Gtk.box(GTK_ORIENTATION_HORIZONTAL, classes: ["linked"])
        var first: Widget?
        let current = style[keyPath: key] ?? options[0].0
        for (value, label) in options {
            let b = gtk_toggle_button_new_with_label(label)!
            Gtk.setAccessibleName(b, "\(title): \(label)")
            if let first { gtk_toggle_button_set_group(cast(b), cast(first)) } else { first = b }
            gtk_toggle_button_set_active(cast(b), (value == current).gboolean)
            b.on("toggled") { [unowned self] in
                if gtk_toggle_button_get_active(cast(b)).isTrue { self.style[keyPath: key] = value }
            }
            gtk_box_append(cast(box), b)
        }
        // Title above the buttons: five choices do not fit beside a title in a narrow window.
        let r = adw_preferences_row_new()!
        adw_preferences_row_set_title(cast(r), title)
        gtk_list_box_row_set_activatable(cast(r), 0)
        let v = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        Gtk.margins(v, 12)
        gtk_box_append(cast(v), Gtk.label(title))
        gtk_widget_set_halign(box, GTK_ALIGN_START)
        gtk_box_append(cast(v), box)
        gtk_list_box_row_set_child(cast(r), v)
        adw_preferences_group_add(cast(group), r)
    }

    private func choiceRow<V: Equatable>(_ group: Widget, _ title: String, _ key: WritableKeyPath<TextTrackStyle, V?>,
                                         _ options: [(V, String)]) {
        var cstrs: [UnsafeMutablePointer<CChar>?] = options.map { strdup($0.1) }
        cstrs.append(nil)
        let dd: Widget = cstrs.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buf.count) {
                gtk_drop_down_new_from_strings($0)!
            }
        }
        for p in cstrs { free(p) }
        let current = style[keyPath: key] ?? options[0].0
        gtk_drop_down_set_selected(cast(dd), UInt32(options.firstIndex { $0.0 == current } ?? 0))
        dd.on("notify::selected") { [unowned self] in
            let i = Int(gtk_drop_down_get_selected(cast(dd)))
            if i < options.count { self.style[keyPath: key] = options[i].0 }
        }
        row(group, title, dd)
    }

    // MARK: colors

    static func rgba(_ hex: String) -> GdkRGBA {
        let c = CastColor(hex: hex) ?? CastColor(red: 255, green: 255, blue: 255)
        return GdkRGBA(red: Float(c.red) / 255, green: Float(c.green) / 255, blue: Float(c.blue) / 255,
                       alpha: Float(c.alpha) / 255)
    }

    static func hex(_ c: GdkRGBA) -> String {
        func b(_ f: Float) -> UInt8 { UInt8(max(0, min(255, (f * 255).rounded()))) }
        return CastColor(red: b(c.red), green: b(c.green), blue: b(c.blue), alpha: b(c.alpha)).hex
    }

    static func components(_ hex: String?, _ fallback: String) -> (Double, Double, Double, Double) {
        let c = rgba(hex ?? fallback)
        return (Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha))
    }

    // MARK: preview

    /// A sample frame (sky, hills) with one subtitle line drawn the way the style asks.
    func drawPreview(_ cr: OpaquePointer, _ w: Double, _ h: Double) {
        let sky = cairo_pattern_create_linear(0, 0, 0, h)
        cairo_pattern_add_color_stop_rgb(sky, 0, 0.35, 0.6, 0.9)
        cairo_pattern_add_color_stop_rgb(sky, 1, 0.85, 0.9, 1.0)
        cairo_set_source(cr, sky)
        cairo_rectangle(cr, 0, 0, w, h)
        cairo_fill(cr)
        cairo_pattern_destroy(sky)
        cairo_set_source_rgb(cr, 0.3, 0.6, 0.3)
        cairo_move_to(cr, 0, h * 0.7)
        cairo_curve_to(cr, w * 0.3, h * 0.55, w * 0.6, h * 0.85, w, h * 0.65)
        cairo_line_to(cr, w, h); cairo_line_to(cr, 0, h); cairo_close_path(cr)
        cairo_fill(cr)

        let s = style
        let scale = s.fontScale ?? 1
        let family: String = {
            if let f = s.fontFamily, !f.isEmpty { return f }
            switch s.fontGenericFamily ?? .sansSerif {
            case .serif, .monospacedSerif: return "serif"
            case .monospacedSansSerif: return "monospace"
            case .cursive, .casual: return "cursive"
            default: return "sans-serif"
            }
        }()
        // Pango, not cairo's toy text API: it shapes and orders Persian (and any script) correctly.
        let fs = s.fontStyle ?? .normal
        let desc = pango_font_description_new()!
        pango_font_description_set_family(desc, family)
        pango_font_description_set_absolute_size(desc, 18 * scale * Double(PANGO_SCALE))
        pango_font_description_set_weight(desc, (fs == .bold || fs == .boldItalic) ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(desc, (fs == .italic || fs == .boldItalic) ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        let layout = pango_cairo_create_layout(cr)!
        defer { g_object_unref(layout.raw); pango_font_description_free(desc) }
        pango_layout_set_font_description(layout, desc)
        pango_layout_set_text(layout, tr("The quick brown fox jumps over the lazy dog"), -1)
        var lw: Int32 = 0, lh: Int32 = 0
        pango_layout_get_pixel_size(layout, &lw, &lh)
        let tw = Double(lw), th = Double(lh)
        let x = (w - tw) / 2
        let y = h - 22 - th
        let pad = 6.0

        if (s.windowType ?? .none) != .none {
            let c = Self.components(s.windowColor, "#00000000")
            cairo_set_source_rgba(cr, c.0, c.1, c.2, c.3)
            let r = s.windowType == .roundedCorners ? (s.windowRoundedCornerRadius ?? 8) : 0
            roundedRect(cr, x - 3 * pad, y - 3 * pad, tw + 6 * pad, th + 6 * pad, r)
            cairo_fill(cr)
        }
        let bg = Self.components(s.backgroundColor, "#000000FF")
        cairo_set_source_rgba(cr, bg.0, bg.1, bg.2, bg.3)
        cairo_rectangle(cr, x - pad, y - pad / 2, tw + 2 * pad, th + pad)
        cairo_fill(cr)
        let edge = Self.components(s.edgeColor, "#000000FF")
        switch s.edgeType ?? .none {
        case .outline:
            cairo_move_to(cr, x, y)
            pango_cairo_layout_path(cr, layout)
            cairo_set_source_rgba(cr, edge.0, edge.1, edge.2, edge.3)
            cairo_set_line_width(cr, 3)
            cairo_stroke(cr)
        case .dropShadow, .raised, .depressed:
            let off = (s.edgeType == .depressed) ? -1.5 : 2.0
            cairo_set_source_rgba(cr, edge.0, edge.1, edge.2, edge.3)
            cairo_move_to(cr, x + off, y + off)
            pango_cairo_show_layout(cr, layout)
        default:
            break
        }
        let fg = Self.components(s.foregroundColor, "#FFFFFFFF")
        cairo_set_source_rgba(cr, fg.0, fg.1, fg.2, fg.3)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }

    private func roundedRect(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) {
        let r = min(r, min(w, h) / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }
}
