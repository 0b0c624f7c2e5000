// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
/// Any JSON value, for fields whose shape the sender or the receiver app decides
/// (`customData`, unknown messages, app-defined channel payloads).
///
/// Integers and floating-point numbers are kept apart so that a value read from the wire is
/// written back as it came (`1` stays `1`, `1.5` stays `1.5`), but JSON has one number type,
/// so equality and hashing compare numbers by value: `.int(1) == .double(1.0)`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value as a number, whichever way it was written.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    /// The value as an integer, when it is one (a float with no fraction counts).
    public var intValue: Int? {
        switch self {
        case .int(let i): Int(exactly: i)
        case .double(let d): Int(exactly: d)
        default: nil
        }
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Member lookup for objects; `nil` for anything else or a missing key.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// Same as `==`: numbers compare by value (`1 == 1.0`), everything else structurally.
    public func semanticallyEquals(_ other: JSONValue) -> Bool { self == other }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Int64(exactly: b) == a
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(i)
        case .double(let d):
            // An integral double hashes like the integer it equals.
            if let i = Int64(exactly: d) { hasher.combine(i) } else { hasher.combine(d) }
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): hasher.combine(o)
        }
    }
}

extension JSONValue {
    /// Parses JSON text (RFC 8259, strict).
    public init(parsing bytes: some Collection<UInt8>) throws(CastProtocolError) {
        let result: Result<JSONValue, JSONParser.Failure> =
            bytes.withContiguousStorageIfAvailable { buffer in
                Result { () throws(JSONParser.Failure) in try JSONParser.parse(buffer) }
            }
            ?? Array(bytes).withUnsafeBufferPointer { buffer in
                Result { () throws(JSONParser.Failure) in try JSONParser.parse(buffer) }
            }
        switch result {
        case .success(let v): self = v
        case .failure(let f): throw .invalidJSON(namespace: "JSON", reason: "the payload is not valid JSON (\(f))")
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let tree = decoder as? JSONTreeDecoder {
            self = tree.value
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else if let o = try? c.decode([String: JSONValue].self) {
            self = .object(JSONObject(o))
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(members: elements))
    }
}
