// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastProtocol
import GtkInterop

/// The default subtitle style in GSettings (one key per TextTrackStyle field; "" = unset).
@MainActor
final class GSettingsStylePreferences: StylePreferences {
    let settings: Settings?
    var fallback: TextTrackStyle?

    init(settings: Settings?) { self.settings = settings }

    var defaultTextTrackStyle: TextTrackStyle? {
        get {
            guard let s = settings else { return fallback }
            guard s.bool("text-style-set") else { return nil }
            func str(_ k: String) -> String? {
                let v = s.string(k)
                return v.isEmpty ? nil : v
            }
            return TextTrackStyle(
                foregroundColor: str("text-style-foreground-color"),
                backgroundColor: str("text-style-background-color"),
                edgeType: str("text-style-edge-type").map(TextTrackEdgeType.init(rawValue:)),
                edgeColor: str("text-style-edge-color"),
                fontScale: s.double("text-style-font-scale"),
                fontFamily: str("text-style-font-family"),
                fontGenericFamily: str("text-style-font-generic-family").map(TextTrackFontGenericFamily.init(rawValue:)),
                fontStyle: str("text-style-font-style").map(TextTrackFontStyle.init(rawValue:)),
                windowType: str("text-style-window-type").map(TextTrackWindowType.init(rawValue:)),
                windowColor: str("text-style-window-color"),
                windowRoundedCornerRadius: s.double("text-style-window-corner-radius"))
        }
        set {
            guard let s = settings else {
                fallback = newValue
                return
            }
            let v = newValue ?? .default
            s.set("text-style-foreground-color", string: v.foregroundColor ?? "")
            s.set("text-style-background-color", string: v.backgroundColor ?? "")
            s.set("text-style-edge-type", string: v.edgeType?.rawValue ?? "")
            s.set("text-style-edge-color", string: v.edgeColor ?? "")
            s.set("text-style-font-scale", double: v.fontScale ?? 1)
            s.set("text-style-font-family", string: v.fontFamily ?? "")
            s.set("text-style-font-generic-family", string: v.fontGenericFamily?.rawValue ?? "")
            s.set("text-style-font-style", string: v.fontStyle?.rawValue ?? "")
            s.set("text-style-window-type", string: v.windowType?.rawValue ?? "")
            s.set("text-style-window-color", string: v.windowColor ?? "")
            s.set("text-style-window-corner-radius", double: v.windowRoundedCornerRadius ?? 0)
            s.set("text-style-set", bool: newValue != nil)
            Settings.sync()
        }
    }
}
