// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastProtocol
import GtkInterop

extension StyleEditor {
    /// A sample frame (sky, hills) with one subtitle line drawn the way the style asks.
    func drawPreview(_ cr: Cairo, _ w: Double, _ h: Double) {
        cr.fillVerticalGradient(
            0, 0, w, h, top: RGBA(red: 0.35, green: 0.6, blue: 0.9),
            bottom: RGBA(red: 0.85, green: 0.9, blue: 1.0))
        cr.setColor(RGBA(red: 0.3, green: 0.6, blue: 0.3))
        cr.move(to: 0, h * 0.7)
        cr.curve(to: w, h * 0.65, via: w * 0.3, h * 0.55, w * 0.6, h * 0.85)
        cr.line(to: w, h)
        cr.line(to: 0, h)
        cr.closePath()
        cr.fill()

        let s = style
        let family: String = {
            if let f = s.fontFamily, !f.isEmpty { return f }
            switch s.fontGenericFamily ?? .sansSerif {
            case .serif, .monospacedSerif: return "serif"
            case .monospacedSansSerif: return "monospace"
            case .cursive, .casual: return "cursive"
            default: return "sans-serif"
            }
        }()
        let fs = s.fontStyle ?? .normal
        let font = Font(
            family: family, size: 18 * (s.fontScale ?? 1),
            bold: fs == .bold || fs == .boldItalic, italic: fs == .italic || fs == .boldItalic)
        let layout = cr.layout(tr("The quick brown fox jumps over the lazy dog"), font: font)
        // Long lines wrap as a receiver wraps them, instead of running off the frame.
        layout.wrap(width: w - 48)
        let bounds = layout.textBounds
        let (tw, th) = (bounds.width, bounds.height)
        // The layout spans the frame less its margins; its lines are centred inside it.
        let origin = 24.0
        let x = origin + bounds.x
        let y = max(8, h - 22 - th)
        let pad = 6.0

        if (s.windowType ?? .none) != .none {
            cr.setColor(Self.rgba(s.windowColor, "#00000000"))
            let r = s.windowType == .roundedCorners ? (s.windowRoundedCornerRadius ?? 8) : 0
            cr.roundedRectangle(x - 3 * pad, y - 3 * pad, tw + 6 * pad, th + 6 * pad, radius: r)
            cr.fill()
        }
        cr.setColor(Self.rgba(s.backgroundColor, "#000000FF"))
        cr.rectangle(x - pad, y - pad / 2, tw + 2 * pad, th + pad)
        cr.fill()
        let edge = Self.rgba(s.edgeColor, "#000000FF")
        switch s.edgeType ?? .none {
        case .outline:
            cr.setColor(edge)
            layout.strokeOutline(at: origin, y, width: 3)
        case .dropShadow, .raised, .depressed:
            let off = (s.edgeType == .depressed) ? -1.5 : 2.0
            cr.setColor(edge)
            layout.show(at: origin + off, y + off)
        default:
            break
        }
        cr.setColor(Self.rgba(s.foregroundColor, "#FFFFFFFF"))
        layout.show(at: origin, y)
    }
}
