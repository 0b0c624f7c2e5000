// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
/// The media status and the common media commands written straight to bytes.
///
/// `CastJSONWriter` writes any Encodable, but Codable's machinery costs more than the
/// writing: a keyed container per object (generic metadata looked up at run time), a key
/// String per member, exclusivity checks on every access to its frames, and a sort of each
/// object's members. The simulator answers every command with a MEDIA_STATUS and a sender
/// sends a command for every click, so these models write themselves: members in the key
/// order the generic writer sorts them into, nil members left out as `encodeIfPresent`
/// leaves them out. Their `write(to:)` is generated from the model's declaration
/// (Models/Generated, scripts/gen-wire.py), which sorts the members once, at generation. The output is byte for byte the generic writer's (and so JSONEncoder's):
/// `JSONWriterTests` compares them on every fixture, on mutated fixtures and on values with
/// every field set; a debug build also checks, member by member, that keys come in order.
protocol JSONWritable {
    func write(to out: inout JSONOut) throws
}

/// A byte buffer being written as JSON, and where the writer is in the object at hand.
struct JSONOut {
    var bytes: [UInt8] = []
    /// No member written yet in the innermost open object.
    private var first = true
    /// The message's `type`, written in its place among the top-level members.
    private var pendingType: String?
    #if DEBUG
    private var lastKey: [UInt8] = []
    #endif

    /// What an enclosing object needs back when an inner one closes.
    struct Enclosing {
        fileprivate var first: Bool
        fileprivate var pendingType: String?
        #if DEBUG
        fileprivate var lastKey: [UInt8]
        #endif
    }

    mutating func open() -> Enclosing {
        #if DEBUG
        let saved = Enclosing(first: first, pendingType: pendingType, lastKey: lastKey)
        lastKey = []
        #else
        let saved = Enclosing(first: first, pendingType: pendingType)
        #endif
        bytes.append(UInt8(ascii: "{"))
        first = true
        pendingType = nil
        return saved
    }

    /// Opens the message object; `type` is written among its members in key order.
    mutating func openMessage(type: String) -> Enclosing {
        let saved = open()
        pendingType = type
        return saved
    }

    mutating func close(_ saved: Enclosing) {
        if pendingType != nil { writeType() }
        bytes.append(UInt8(ascii: "}"))
        first = saved.first
        pendingType = saved.pendingType
        #if DEBUG
        lastKey = saved.lastKey
        #endif
    }

    private mutating func writeType() {
        guard let type = pendingType else { return }
        pendingType = nil
        writeKey("type")
        CastJSONWriter.writeString(type, to: &bytes)
    }

    /// Writes the separator and `"key":`; keys are plain ASCII names that need no escape.
    mutating func key(_ key: StaticString) {
        if pendingType != nil, Self.precedes("type", key) { writeType() }
        writeKey(key)
    }

    private mutating func writeKey(_ key: StaticString) {
        let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        #if DEBUG
        precondition(lastKey.isEmpty || lastKey.lexicographicallyPrecedes(name), "JSONOut: \(key) written out of key order")
        lastKey = Array(name)
        #endif
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private static func precedes(_ a: StaticString, _ b: StaticString) -> Bool {
        UnsafeBufferPointer(start: a.utf8Start, count: a.utf8CodeUnitCount)
            .lexicographicallyPrecedes(UnsafeBufferPointer(start: b.utf8Start, count: b.utf8CodeUnitCount))
    }

    // MARK: members (nil: left out)

    mutating func member(_ k: StaticString, _ v: String?) {
        guard let v else { return }
        key(k)
        CastJSONWriter.writeString(v, to: &bytes)
    }

    mutating func member(_ k: StaticString, _ v: Int?) {
        guard let v else { return }
        key(k)
        CastJSONWriter.writeInt(Int64(v), to: &bytes)
    }

    mutating func member(_ k: StaticString, _ v: Double?) throws {
        guard let v else { return }
        key(k)
        try CastJSONWriter.writeDouble(v, to: &bytes)
    }

    mutating func member(_ k: StaticString, _ v: Bool?) {
        guard let v else { return }
        key(k)
        bytes.append(contentsOf: (v ? "true" : "false").utf8)
    }

    mutating func member(_ k: StaticString, _ v: JSONValue?) throws {
        guard let v else { return }
        key(k)
        try CastJSONWriter.write(json: v, to: &bytes)
    }

    mutating func member<E: OpenStringEnum>(_ k: StaticString, _ v: E?) {
        guard let v else { return }
        key(k)
        CastJSONWriter.writeString(v.rawValue, to: &bytes)
    }

    mutating func member<T: JSONWritable>(_ k: StaticString, _ v: T?) throws {
        guard let v else { return }
        key(k)
        try v.write(to: &self)
    }

    mutating func member<T: JSONWritable>(_ k: StaticString, _ v: [T]?) throws {
        guard let v else { return }
        key(k)
        bytes.append(UInt8(ascii: "["))
        for (i, element) in v.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            try element.write(to: &self)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func member(_ k: StaticString, _ v: [Int]?) {
        guard let v else { return }
        key(k)
        bytes.append(UInt8(ascii: "["))
        for (i, element) in v.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            CastJSONWriter.writeInt(Int64(element), to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func member(_ k: StaticString, _ v: [String]?) {
        guard let v else { return }
        key(k)
        bytes.append(UInt8(ascii: "["))
        for (i, element) in v.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            CastJSONWriter.writeString(element, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}

extension CastJSONWriter {
    /// The media messages that have a direct writer, or nil for the generic writer. Throws
    /// when a value cannot be JSON (a non-finite number), as the generic writer does.
    static func encodeDirectly(_ message: MediaMessage) throws -> String? {
        try encodeDirectlyToBytes(message).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The same as UTF-8 bytes (valid: every string in them came from a Swift String).
    static func encodeDirectlyToBytes(_ message: MediaMessage) throws -> [UInt8]? {
        var out = JSONOut()
        out.bytes.reserveCapacity(512)
        switch message {
        case .mediaStatus(let m): try m.write(to: &out, type: message.type)
        case .play(let m), .pause(let m), .stop(let m), .skipAd(let m), .getStatus(let m), .queueNext(let m), .queuePrev(let m):
            try m.write(to: &out, type: message.type)
        case .seek(let m): try m.write(to: &out, type: message.type)
        case .setPlaybackRate(let m): try m.write(to: &out, type: message.type)
        case .load(let m): try m.write(to: &out, type: message.type)
        default: return nil
        }
        return out.bytes
    }
}
