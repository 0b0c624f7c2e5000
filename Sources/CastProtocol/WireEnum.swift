// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
/// A string enumeration from the wire that never fails to decode.
///
/// Receivers and firmware add values over time, so a value this library does not
/// know is kept as `.unknown(raw)` instead of failing the whole message, and is
/// written back unchanged.
public protocol OpenStringEnum: Codable, Hashable, Sendable, CustomStringConvertible {
    /// Every known case with its spelling on the wire; the first spelling of a case is the one written.
    static var wireNames: [(Self, String)] { get }
    /// A value this library does not know.
    static func unknown(_ raw: String) -> Self
}

extension OpenStringEnum {
    public init(rawValue: String) {
        if let known = Self.wireNames.first(where: { $0.1 == rawValue })?.0 {
            self = known
            return
        }
        // Some apps and firmware send known values in lower case ("buffered"): the value is
        // read as the known one (and written back in its canonical spelling).
        let upper = rawValue.uppercased()
        self = Self.wireNames.first(where: { $0.1 == upper })?.0 ?? .unknown(rawValue)
    }

    public var rawValue: String {
        if let name = Self.wireNames.first(where: { $0.0 == self })?.1 { return name }
        // Only `.unknown` is missing from the table; it round-trips its own text.
        return Self.unknownRaw(of: self) ?? ""
    }

    public var isKnown: Bool { Self.wireNames.contains(where: { $0.0 == self }) }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        if let tree = decoder as? JSONTreeDecoder, case .string(let s) = tree.value {
            self.init(rawValue: s)
            return
        }
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    /// Extracts the text of an `.unknown` value by mirroring its single payload.
    static func unknownRaw(of value: Self) -> String? {
        Mirror(reflecting: value).children.first?.value as? String
    }
}

/// An integer enumeration from the wire that never fails to decode (`metadataType`).
public protocol OpenIntEnum: Codable, Hashable, Sendable {
    static var wireValues: [(Self, Int)] { get }
    static func unknown(_ raw: Int) -> Self
}

extension OpenIntEnum {
    public init(rawValue: Int) {
        self = Self.wireValues.first(where: { $0.1 == rawValue })?.0 ?? .unknown(rawValue)
    }

    public var rawValue: Int {
        if let v = Self.wireValues.first(where: { $0.0 == self })?.1 { return v }
        return Mirror(reflecting: self).children.first?.value as? Int ?? -1
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
