// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// The payload of a Cast message: UTF-8 text (JSON on every Google namespace) or bytes.
public enum CastPayload: Sendable, Hashable {
    case string(String)
    case binary([UInt8])
}

/// One CASTV2 message: the envelope of every exchange between a sender and a receiver.
///
/// This is the Swift face of the `CastMessage` protobuf. Encoding follows proto2 rules,
/// so the required `protocol_version` and `payload_type` are written even when they are 0,
/// as Chromium-derived receivers insist.
public struct CastMessage: Sendable, Hashable {
    /// `CASTV2_1_0` (0) is what every sender and receiver sends.
    public var protocolVersion: Int
    public var sourceID: String
    public var destinationID: String
    public var namespace: String

    /// The payload. A text payload read from the wire is kept as the UTF-8 bytes it came as
    /// (checked when the message was parsed), and so is one the direct JSON writers wrote
    /// (JSONWriter+Models.swift); the String is made only when asked for here.
    /// Decoding (`decoded()`) reads the bytes directly: making the String meant the standard
    /// library's byte-by-byte UTF-8 check over the whole payload, a fifth of decoding a
    /// MEDIA_STATUS (callgrind).
    public var payload: CastPayload {
        get {
            switch body {
            case .payload(let p): p
            case .utf8Text(let bytes): .string(String(decoding: bytes, as: UTF8.self))
            }
        }
        set { body = .payload(newValue) }
    }

    enum Body: Sendable {
        case payload(CastPayload)
        /// Text as its UTF-8 bytes, known to be valid: read from the wire (and checked), or
        /// written from Strings by the direct JSON writers.
        case utf8Text([UInt8])
    }

    /// How the payload is held (`decoded()` reads it without going through `payload`).
    private(set) var body: Body

    public init(
        protocolVersion: Int = 0, sourceID: String, destinationID: String, namespace: String,
        payload: CastPayload
    ) {
        self.protocolVersion = protocolVersion
        self.sourceID = sourceID
        self.destinationID = destinationID
        self.namespace = namespace
        self.body = .payload(payload)
    }

    /// A text message (JSON on Google namespaces).
    public init(source: String, destination: String, namespace: String, utf8: String) {
        self.init(sourceID: source, destinationID: destination, namespace: namespace, payload: .string(utf8))
    }

    /// A text message whose bytes are known to be valid UTF-8 (no String is made of them).
    init(source: String, destination: String, namespace: String, validUTF8 bytes: [UInt8]) {
        self.protocolVersion = 0
        self.sourceID = source
        self.destinationID = destination
        self.namespace = namespace
        self.body = .utf8Text(bytes)
    }

    /// The text payload, or nil for a binary message.
    public var utf8: String? {
        if case .string(let s) = payload { return s }
        return nil
    }

    /// Calls `body` with the text payload's UTF-8 bytes, without making a String; nil for a
    /// binary message.
    public func withUTF8Payload<R>(_ read: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        switch body {
        case .utf8Text(let bytes): return try bytes.withUnsafeBufferPointer(read)
        case .payload(.string(var text)): return try text.withUTF8(read)
        case .payload(.binary): return nil
        }
    }

    // Equal messages carry equal payloads whichever way they are held: a text payload compares
    // as the String it is (as `CastPayload` does), not byte for byte.
    public static func == (a: CastMessage, b: CastMessage) -> Bool {
        a.protocolVersion == b.protocolVersion && a.sourceID == b.sourceID && a.destinationID == b.destinationID
            && a.namespace == b.namespace && a.payload == b.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(protocolVersion)
        hasher.combine(sourceID)
        hasher.combine(destinationID)
        hasher.combine(namespace)
        hasher.combine(payload)
    }

    /// Serializes the protobuf body (without the 4-byte length).
    public func serializedBody() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bodySize)
        writeBody(into: &out)
        return out
    }

    /// The whole frame: 4-byte big-endian length followed by the body.
    public func framed() throws(CastProtocolError) -> [UInt8] {
        let size = bodySize
        guard size <= CastFraming.maxBodyLength else { throw .messageTooLarge(bytes: size) }
        var out: [UInt8] = []
        out.reserveCapacity(CastFraming.headerLength + size)
        CastFraming.appendHeader(length: size, to: &out)
        writeBody(into: &out)
        return out
    }

    // The envelope is six fields, written by hand in field order, as protoc-generated code
    // writes them (proto2: the required enums are written even when 0). The schema is
    // Proto/cast_channel.proto; the generated `ProtoCastMessage` stays as its reference
    // (ProtobufEnvelopeTests compares both ways).

    private var wireProtocolVersion: UInt64 { (0...3).contains(protocolVersion) ? UInt64(protocolVersion) : 0 }

    private var bodySize: Int {
        func field(_ n: Int) -> Int { 1 + ProtoWire.varintSize(UInt64(n)) + n }
        var size = 3 + ProtoWire.varintSize(wireProtocolVersion)  // with payload_type (2 bytes)
        size += field(sourceID.utf8.count) + field(destinationID.utf8.count) + field(namespace.utf8.count)
        switch body {
        case .payload(.string(let s)): size += field(s.utf8.count)
        case .payload(.binary(let b)), .utf8Text(let b): size += field(b.count)
        }
        return size
    }

    private func writeBody(into out: inout [UInt8]) {
        func field(_ tag: UInt8, _ bytes: some Collection<UInt8>) {
            out.append(tag)
            ProtoWire.appendVarint(UInt64(bytes.count), to: &out)
            out.append(contentsOf: bytes)
        }
        out.append(0x08)
        ProtoWire.appendVarint(wireProtocolVersion, to: &out)
        field(0x12, sourceID.utf8)
        field(0x1A, destinationID.utf8)
        field(0x22, namespace.utf8)
        switch body {
        case .payload(.string(let s)):
            out.append(contentsOf: [0x28, 0x00])
            field(0x32, s.utf8)
        case .utf8Text(let b):
            out.append(contentsOf: [0x28, 0x00])
            field(0x32, b)
        case .payload(.binary(let b)):
            out.append(contentsOf: [0x28, 0x01])
            field(0x3A, b)
        }
    }

    /// Parses and validates a protobuf body as Chromium does: all required fields present,
    /// source, destination and namespace non-empty, and the payload field matching its type.
    /// The payload is the one copy made of the body's bytes.
    public init(serializedBody body: some Collection<UInt8>) throws(CastProtocolError) {
        let parsed: Result<ProtoWire.Envelope, ProtoWire.Failure> =
            body.withContiguousStorageIfAvailable { b in Result { () throws(ProtoWire.Failure) in try ProtoWire.Envelope(parsing: b) } }
            ?? Array(body).withUnsafeBufferPointer { b in Result { () throws(ProtoWire.Failure) in try ProtoWire.Envelope(parsing: b) } }
        let m: ProtoWire.Envelope
        switch parsed {
        case .success(let e): m = e
        case .failure(let f): throw .malformedMessage(reason: f.reason)
        }
        guard let version = m.protocolVersion, let source = m.sourceID, let destination = m.destinationID,
            let namespace = m.namespace, let payloadType = m.payloadType
        else { throw .malformedMessage(reason: ProtoWire.Failure.missingRequired.reason) }
        guard !source.isEmpty else { throw .missingField("source id") }
        guard !destination.isEmpty else { throw .missingField("destination id") }
        guard !namespace.isEmpty else { throw .missingField("namespace") }
        if payloadType == 0 {
            guard let text = m.payloadUTF8 else { throw .payloadMismatch(expected: "text") }
            self.body = .utf8Text(text)
        } else {
            guard let bytes = m.payloadBinary else { throw .payloadMismatch(expected: "binary") }
            self.body = .payload(.binary(bytes))
        }
        protocolVersion = version
        sourceID = source
        destinationID = destination
        self.namespace = namespace
    }
}

/// Protocol-buffer wire format for the CastMessage envelope.
enum ProtoWire {
    enum Failure: Error {
        case truncated, malformed, invalidUTF8, missingRequired

        var reason: String {
            switch self {
            case .truncated: "the protobuf body is truncated"
            case .malformed: "the protobuf body is malformed"
            case .invalidUTF8: "a text field is not valid UTF-8"
            case .missingRequired: "a required field is missing"
            }
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (Unicode 15, table 3-7: no overlong forms, no
    /// surrogates, nothing past U+10FFFF), the same answer as `String(validating:)`. ASCII
    /// runs are passed eight bytes at a time; the standard library's check goes byte by byte.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let n = bytes.count
        var i = 0
        while i < n {
            // Thirty-two bytes a step while they are all ASCII, then eight.
            while i + 32 <= n,
                (raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
                    & 0x8080_8080_8080_8080 == 0
            {
                i += 32
            }
            while i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
            guard i < n else { return true }
            let lead = base[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            switch lead {
            case 0xC2...0xDF:
                guard i + 1 < n, base[i + 1] & 0xC0 == 0x80 else { return false }
                i += 2
            case 0xE0...0xEF:
                guard i + 2 < n else { return false }
                let second = base[i + 1]
                let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80  // E0 80..9F would be overlong
                let high: UInt8 = lead == 0xED ? 0x9F : 0xBF  // ED A0..BF are surrogates
                guard second >= low, second <= high, base[i + 2] & 0xC0 == 0x80 else { return false }
                i += 3
            case 0xF0...0xF4:
                guard i + 3 < n else { return false }
                let second = base[i + 1]
                let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80  // F0 80..8F would be overlong
                let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF  // F4 90.. is past U+10FFFF
                guard second >= low, second <= high, base[i + 2] & 0xC0 == 0x80, base[i + 3] & 0xC0 == 0x80 else { return false }
                i += 4
            default:
                return false  // a continuation byte without a lead, C0, C1, F5..FF
            }
        }
        return true
    }

    static func varintSize(_ v: UInt64) -> Int {
        var n = 1
        var v = v >> 7
        while v != 0 {
            n += 1
            v >>= 7
        }
        return n
    }

    static func appendVarint(_ v: UInt64, to out: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// The fields of one CastMessage body; nil where the body does not set them. Values of
    /// the two enums outside their definitions count as not set, as in proto2.
    struct Envelope {
        var protocolVersion: Int?
        var sourceID: String?
        var destinationID: String?
        var namespace: String?
        var payloadType: Int?
        /// Checked to be UTF-8.
        var payloadUTF8: [UInt8]?
        var payloadBinary: [UInt8]?

        init(parsing b: UnsafeBufferPointer<UInt8>) throws(Failure) {
            var i = 0
            func varint() throws(Failure) -> UInt64 {
                var result: UInt64 = 0
                var shift: UInt64 = 0
                while true {
                    guard i < b.count else { throw .truncated }
                    let byte = b[i]
                    i += 1
                    if shift == 63, byte > 1 { throw .malformed }
                    result |= UInt64(byte & 0x7F) << shift
                    if byte < 0x80 { return result }
                    shift += 7
                    guard shift <= 63 else { throw .malformed }
                }
            }
            func span() throws(Failure) -> UnsafeBufferPointer<UInt8> {
                let n = try varint()
                guard n <= UInt64(b.count - i) else { throw .truncated }
                defer { i += Int(n) }
                return UnsafeBufferPointer(rebasing: b[i..<(i + Int(n))])
            }
            func text() throws(Failure) -> String {
                let bytes = try utf8()
                return String(decoding: bytes, as: UTF8.self)
            }
            func utf8() throws(Failure) -> UnsafeBufferPointer<UInt8> {
                let bytes = try span()
                guard ProtoWire.isValidUTF8(bytes) else { throw .invalidUTF8 }
                return bytes
            }
            func skip(_ wireType: UInt64, field: UInt64, depth: Int) throws(Failure) {
                switch wireType {
                case 0: _ = try varint()
                case 1:
                    guard b.count - i >= 8 else { throw .truncated }
                    i += 8
                case 2: _ = try span()
                case 5:
                    guard b.count - i >= 4 else { throw .truncated }
                    i += 4
                case 3:
                    // A group: skip its fields up to the matching end tag.
                    guard depth < 64 else { throw .malformed }
                    while true {
                        let tag = try varint()
                        if tag & 7 == 4 {
                            guard tag >> 3 == field else { throw .malformed }
                            return
                        }
                        guard tag >> 3 != 0 else { throw .malformed }
                        try skip(tag & 7, field: tag >> 3, depth: depth + 1)
                    }
                default: throw .malformed
                }
            }
            while i < b.count {
                let tag = try varint()
                let field = tag >> 3
                let wireType = tag & 7
                guard field != 0, tag <= UInt64(UInt32.max) else { throw .malformed }
                switch (field, wireType) {
                case (1, 0):
                    let v = try varint()
                    if v <= 3 { protocolVersion = Int(v) }
                case (5, 0):
                    let v = try varint()
                    if v <= 1 { payloadType = Int(v) }
                case (2, 2): sourceID = try text()
                case (3, 2): destinationID = try text()
                case (4, 2): namespace = try text()
                case (6, 2): payloadUTF8 = Array(try utf8())
                case (7, 2): payloadBinary = Array(try span())
                // A known number with another wire type is kept as an unknown field by
                // protoc-generated parsers, so it is skipped here too.
                default: try skip(wireType, field: field, depth: 0)
                }
            }
        }
    }
}

extension CastMessage: CustomStringConvertible {
    public var description: String {
        let body: String
        switch payload {
        case .string(let s): body = s
        case .binary(let b): body = "<\(b.count) bytes>"
        }
        return "\(sourceID) → \(destinationID) [\(namespace)] \(body)"
    }
}
