// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

/// GtkDrawingArea: the ad-break markers and the subtitle style preview.
public struct DrawingArea: WidgetWrapper {
    public let pointer: WidgetPointer
    public init(unchecked pointer: WidgetPointer) { self.pointer = pointer }
    public static var gtypeName: String { "GtkDrawingArea" }
}

final class DrawBox {
    let fn: @MainActor (Cairo, Double, Double) -> Void
    init(_ fn: @escaping @MainActor (Cairo, Double, Double) -> Void) { self.fn = fn }
}

@MainActor
extension DrawingArea {
    /// Draws the area with `draw(cairo, width, height)`; the closure lives as long as the area.
    public func setDrawFunc(_ draw: @escaping @MainActor (Cairo, Double, Double) -> Void) {
        let data = Unmanaged.passRetained(DrawBox(draw)).toOpaque()
        gtk_drawing_area_set_draw_func(
            cast(pointer),
            { _, cr, w, h, data in
                let box = Unmanaged<DrawBox>.fromOpaque(data!).takeUnretainedValue()
                MainActor.assumeIsolated { box.fn(Cairo(cr!), Double(w), Double(h)) }
            }, data,
            { data in
                if let data { Unmanaged<DrawBox>.fromOpaque(data).release() }
            })
    }
}

/// A cairo context during a draw callback (valid only inside it).
public struct Cairo {
    let cr: OpaquePointer
    init(_ cr: OpaquePointer) { self.cr = cr }

    public func setColor(_ c: RGBA) { cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha) }
    public func setLineWidth(_ w: Double) { cairo_set_line_width(cr, w) }
    public func newPath() { cairo_new_path(cr) }
    public func newSubPath() { cairo_new_sub_path(cr) }
    public func move(to x: Double, _ y: Double) { cairo_move_to(cr, x, y) }
    public func line(to x: Double, _ y: Double) { cairo_line_to(cr, x, y) }
    public func curve(to x3: Double, _ y3: Double, via x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cairo_curve_to(cr, x1, y1, x2, y2, x3, y3)
    }
    public func arc(x: Double, y: Double, radius: Double, from a1: Double, to a2: Double) {
        cairo_arc(cr, x, y, radius, a1, a2)
    }
    public func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) { cairo_rectangle(cr, x, y, w, h) }
    public func closePath() { cairo_close_path(cr) }
    public func fill() { cairo_fill(cr) }
    public func stroke() { cairo_stroke(cr) }

    /// A path with rounded corners of radius `r` (clamped to half the shorter side).
    public func roundedRectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double) {
        let r = min(radius, min(w, h) / 2)
        newSubPath()
        arc(x: x + w - r, y: y + r, radius: r, from: -Double.pi / 2, to: 0)
        arc(x: x + w - r, y: y + h - r, radius: r, from: 0, to: Double.pi / 2)
        arc(x: x + r, y: y + h - r, radius: r, from: Double.pi / 2, to: Double.pi)
        arc(x: x + r, y: y + r, radius: r, from: Double.pi, to: 3 * Double.pi / 2)
        closePath()
    }

    /// Fills the rectangle with a vertical gradient from `top` to `bottom`.
    public func fillVerticalGradient(_ x: Double, _ y: Double, _ w: Double, _ h: Double, top: RGBA, bottom: RGBA) {
        let p = cairo_pattern_create_linear(0, y, 0, y + h)
        defer { cairo_pattern_destroy(p) }
        cairo_pattern_add_color_stop_rgba(p, 0, top.red, top.green, top.blue, top.alpha)
        cairo_pattern_add_color_stop_rgba(p, 1, bottom.red, bottom.green, bottom.blue, bottom.alpha)
        cairo_set_source(cr, p)
        rectangle(x, y, w, h)
        fill()
    }

    /// Text laid out by Pango (which shapes and orders every script, Persian included).
    public func layout(_ text: String, font: Font) -> TextLayout { TextLayout(cr, text, font) }
}

/// A font for `Cairo.layout`.
public struct Font: Sendable {
    public var family: String
    /// Size in pixels.
    public var size: Double
    public var bold = false
    public var italic = false
    public init(family: String, size: Double, bold: Bool = false, italic: Bool = false) {
        self.family = family
        self.size = size
        self.bold = bold
        self.italic = italic
    }
}

/// A Pango layout bound to a cairo context.
public final class TextLayout {
    private let cr: OpaquePointer
    private let layout: OpaquePointer

    init(_ cr: OpaquePointer, _ text: String, _ font: Font) {
        self.cr = cr
        layout = pango_cairo_create_layout(cr)
        let desc = pango_font_description_new()!
        defer { pango_font_description_free(desc) }
        pango_font_description_set_family(desc, font.family)
        pango_font_description_set_absolute_size(desc, font.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(desc, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(desc, font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_layout_set_font_description(layout, desc)
        pango_layout_set_text(layout, text, -1)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// Wraps the text at `width` pixels (at word boundaries, then anywhere), lines centred.
    public func wrap(width: Double) {
        pango_layout_set_width(layout, Int32(max(1, width) * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
    }

    /// The laid-out size in pixels.
    public var size: (width: Double, height: Double) {
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        return (Double(w), Double(h))
    }

    /// Where the text's lines lie inside the layout (after wrapping and centring), in pixels.
    public var textBounds: (x: Double, y: Double, width: Double, height: Double) {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        return (Double(logical.x), Double(logical.y), Double(logical.width), Double(logical.height))
    }

    /// Paints the text with its top-left corner at (x, y) in the current colour.
    public func show(at x: Double, _ y: Double) {
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }

    /// Strokes the glyph outlines at (x, y) with `width` in the current colour.
    public func strokeOutline(at x: Double, _ y: Double, width: Double) {
        cairo_move_to(cr, x, y)
        pango_cairo_layout_path(cr, layout)
        cairo_set_line_width(cr, width)
        cairo_stroke(cr)
    }
}
