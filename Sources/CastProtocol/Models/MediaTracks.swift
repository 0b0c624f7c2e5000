// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The media namespace's data types: what a LOAD carries and a MEDIA_STATUS reports.
// Swift names follow the wire JSON; every field a receiver may omit is optional.

// wire: read write
public struct MediaTrack: Codable, Hashable, Sendable {
    public var trackId: Int
    public var type: TrackType
    /// Text tracks only.
    public var subtype: TextTrackType?
    /// URL of an out-of-band track (e.g. a WebVTT file) or an id the receiver understands.
    public var trackContentId: String?
    /// MIME type, e.g. `text/vtt`.
    public var trackContentType: String?
    public var name: String?
    /// BCP-47 tag; required for subtitles.
    public var language: String?
    public var roles: [String]?
    public var customData: JSONValue?

    public init(
        trackId: Int, type: TrackType, subtype: TextTrackType? = nil, trackContentId: String? = nil,
        trackContentType: String? = nil, name: String? = nil, language: String? = nil, roles: [String]? = nil,
        customData: JSONValue? = nil
    ) {
        self.trackId = trackId
        self.type = type
        self.subtype = subtype
        self.trackContentId = trackContentId
        self.trackContentType = trackContentType
        self.name = name
        self.language = language
        self.roles = roles
        self.customData = customData
    }
}

// wire: read write
/// How text tracks are drawn. Colors are `#RRGGBBAA` strings (see `CastColor`).
public struct TextTrackStyle: Codable, Hashable, Sendable {
    public var foregroundColor: String?
    public var backgroundColor: String?
    public var edgeType: TextTrackEdgeType?
    public var edgeColor: String?
    public var fontScale: Double?
    public var fontFamily: String?
    public var fontGenericFamily: TextTrackFontGenericFamily?
    public var fontStyle: TextTrackFontStyle?
    public var windowType: TextTrackWindowType?
    public var windowColor: String?
    /// Pixels; only for `ROUNDED_CORNERS`.
    public var windowRoundedCornerRadius: Double?
    public var customData: JSONValue?

    public init(
        foregroundColor: String? = nil, backgroundColor: String? = nil, edgeType: TextTrackEdgeType? = nil,
        edgeColor: String? = nil, fontScale: Double? = nil, fontFamily: String? = nil,
        fontGenericFamily: TextTrackFontGenericFamily? = nil, fontStyle: TextTrackFontStyle? = nil,
        windowType: TextTrackWindowType? = nil, windowColor: String? = nil, windowRoundedCornerRadius: Double? = nil,
        customData: JSONValue? = nil
    ) {
        self.foregroundColor = foregroundColor
        self.backgroundColor = backgroundColor
        self.edgeType = edgeType
        self.edgeColor = edgeColor
        self.fontScale = fontScale
        self.fontFamily = fontFamily
        self.fontGenericFamily = fontGenericFamily
        self.fontStyle = fontStyle
        self.windowType = windowType
        self.windowColor = windowColor
        self.windowRoundedCornerRadius = windowRoundedCornerRadius
        self.customData = customData
    }

    /// The style a receiver uses when none is given: white text on a translucent black box.
    public static let `default` = TextTrackStyle(
        foregroundColor: "#FFFFFFFF", backgroundColor: "#000000FF", edgeType: TextTrackEdgeType.none,
        edgeColor: "#000000FF", fontScale: 1.0, fontGenericFamily: .sansSerif, fontStyle: .normal,
        windowType: TextTrackWindowType.none, windowColor: "#00000000", windowRoundedCornerRadius: 0)
}

/// A `#RRGGBBAA` color as the Cast text-track style writes it (alpha last).
public struct CastColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBBAA` or `#RRGGBB` (opaque); nil for anything else.
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        let digits = hex.dropFirst()
        guard digits.count == 6 || digits.count == 8, let v = UInt32(digits, radix: 16) else { return nil }
        let full = digits.count == 6 ? (v << 8 | 0xFF) : v
        red = UInt8(truncatingIfNeeded: full >> 24)
        green = UInt8(truncatingIfNeeded: full >> 16)
        blue = UInt8(truncatingIfNeeded: full >> 8)
        alpha = UInt8(truncatingIfNeeded: full)
    }

    /// `#RRGGBBAA`, upper-case.
    public var hex: String {
        let v = UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
        let s = String(v, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 8 - s.count) + s
    }

    public var description: String { hex }
}

/// An ad break: where it sits in the main content and which clips it plays.
