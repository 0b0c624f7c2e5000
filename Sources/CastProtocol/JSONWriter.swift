import Synchronization

/// Compact JSON with sorted keys, written without Foundation: `CastJSON.encode`, which every
/// command a sender sends and every status the simulator answers goes through.
///
/// Its output is byte for byte what `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` writes for the models here (`JSONWriterTests` compares both on
/// every fixture and on generated messages): keys in code-unit order (a key encoded twice
/// keeps its last value), integral doubles without ".0", the standard short escapes and
/// `\u00XX` for other control characters, everything else as UTF-8. Types `JSONEncoder`
/// treats specially (Date, Data, URL, Decimal…) make it step aside, and `CastJSON.encode`
/// falls back to `JSONEncoder`.
///
/// How: values are written straight into one byte buffer as Codable hands them over. A keyed
/// container notes where each member's bytes start and end; when the value that owns the
/// container has finished encoding, its members are put in key order in place. So there is
/// no tree of nodes: the realistic MEDIA_STATUS takes a few dozen allocations instead of
/// several hundred (measured in Benchmarks/protocol, "encode MEDIA_STATUS frame"). Members
/// are noted on one stack shared by the whole message (a value's members are finished before
/// its parent notes it), and a coding path is only spelled out when someone asks for it. A
/// container asked for with `nestedContainer`/`superEncoder`, which can be filled at any later
/// time, gets its own buffer and is put in place when its parent is.
struct CastJSONWriter {
    struct Unsupported: Error {}

    static func encode<T: Encodable>(_ value: T) throws -> String {
        let out = Output()
        out.bytes.reserveCapacity(1024)
        out.entries.reserveCapacity(64)
        try store(value, into: out, parent: nil, key: nil)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Where bytes go: the message's buffer, or a deferred container's own.
    final class Output {
        var bytes: [UInt8] = []
        /// The members noted so far by the frames still open, innermost last.
        var entries: [Entry] = []
        /// Reused while putting members in order.
        var scratch: [UInt8] = []
    }

    /// One member of an object or element of an array: its bytes in `Output.bytes`, or, for a
    /// deferred container, in its own output.
    struct Entry {
        var key: String
        var start: Int
        var end: Int
        var deferred: Frame?
    }

    /// One value being encoded, and the container it asked for (Codable lets it ask again
    /// for the same kind). `parent` and `key` spell out the coding path when asked.
    final class Frame {
        enum Kind { case none, keyed, unkeyed, single }

        let out: Output
        let parent: Frame?
        let key: (any CodingKey)?
        var kind = Kind.none
        /// Where this value's bytes begin in `out.bytes`, and its members in `out.entries`.
        var start: Int
        var base: Int
        var count = 0

        init(out: Output, parent: Frame?, key: (any CodingKey)?) {
            self.out = out
            self.parent = parent
            self.key = key
            self.start = out.bytes.count
            self.base = out.entries.count
        }

        var codingPath: [any CodingKey] {
            var path: [any CodingKey] = []
            var f: Frame? = self
            while let frame = f {
                if let key = frame.key { path.append(key) }
                f = frame.parent
            }
            return path.reversed()
        }

        /// Makes this value a container of `kind`; another kind than before starts it over
        /// (JSONEncoder keeps the last one too).
        func become(_ kind: Kind) {
            guard self.kind != kind else { return }
            if self.kind != .none {
                out.bytes.removeSubrange(start...)
                out.entries.removeSubrange(base...)
                count = 0
            }
            self.kind = kind
        }

        /// Notes the bytes written since `from` as the member `key`.
        @inline(__always) func add(_ key: String, from: Int) {
            out.entries.append(Entry(key: key, start: from, end: out.bytes.count, deferred: nil))
            count += 1
        }

        /// A member whose container is filled through its own output, finished with this one.
        func addDeferred(_ key: String, codingKey: (any CodingKey)?) -> Frame {
            let inner = Frame(out: Output(), parent: self, key: codingKey)
            out.entries.append(Entry(key: key, start: out.bytes.count, end: out.bytes.count, deferred: inner))
            count += 1
            return inner
        }

        /// Replaces the raw member bytes from `start` with the finished JSON value.
        func finish() throws {
            switch kind {
            case .none:
                // A value that encoded nothing: JSONEncoder writes an empty object, or, for
                // the message itself, fails (and `CastJSON.encode` does what it does then).
                if parent == nil, key == nil { throw Unsupported() }
                if out.bytes.count == start { out.bytes.append(contentsOf: "{}".utf8) }
                return
            case .single:
                if out.bytes.count == start { out.bytes.append(contentsOf: "null".utf8) }
                return
            case .keyed, .unkeyed:
                break
            }
            let range = base..<(base + count)
            for i in range {
                if let d = out.entries[i].deferred { try d.finish() }
            }
            var tmp = out.scratch
            out.scratch = []
            tmp.removeAll(keepingCapacity: true)
            if kind == .unkeyed {
                tmp.append(UInt8(ascii: "["))
                for i in range {
                    if i > base { tmp.append(UInt8(ascii: ",")) }
                    append(out.entries[i], to: &tmp)
                }
                tmp.append(UInt8(ascii: "]"))
            } else {
                // Sorted by key, then by when encoded, so the last of equal keys is the one kept.
                out.entries[range].sort { a, b in
                    let order = CastJSONWriter.compare(a.key, b.key)
                    return order == 0 ? a.start < b.start : order < 0
                }
                tmp.append(UInt8(ascii: "{"))
                var first = true
                for i in range {
                    if i + 1 < range.upperBound, out.entries[i + 1].key == out.entries[i].key { continue }
                    if !first { tmp.append(UInt8(ascii: ",")) }
                    first = false
                    CastJSONWriter.writeString(out.entries[i].key, to: &tmp)
                    tmp.append(UInt8(ascii: ":"))
                    append(out.entries[i], to: &tmp)
                }
                tmp.append(UInt8(ascii: "}"))
            }
            out.entries.removeSubrange(range)
            count = 0
            out.bytes.replaceSubrange(start..., with: tmp)
            out.scratch = tmp
        }

        private func append(_ e: Entry, to tmp: inout [UInt8]) {
            if let d = e.deferred {
                tmp.append(contentsOf: d.out.bytes)
            } else {
                out.bytes.withUnsafeBufferPointer { tmp.append(contentsOf: UnsafeBufferPointer(rebasing: $0[e.start..<e.end])) }
            }
        }
    }

    /// Code-unit order of two keys: negative, zero or positive.
    static func compare(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                let n = min(pa.count, pb.count)
                var i = 0
                while i < n {
                    if pa[i] != pb[i] { return Int(pa[i]) - Int(pb[i]) }
                    i += 1
                }
                return pa.count - pb.count
            }
        }
    }

    /// Encodes `value` at the end of `out`, then puts its container in order.
    static func store<T: Encodable>(_ value: T, into out: Output, parent: Frame?, key: (any CodingKey)?) throws {
        // Metatype comparisons, not casts: they cost a pointer comparison.
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self), to: &out.bytes)
        } else if T.self == Int.self {
            writeInt(Int64(unsafeBitCast(value, to: Int.self)), to: &out.bytes)
        } else if T.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self), to: &out.bytes)
        } else if T.self == Bool.self {
            out.bytes.append(contentsOf: (unsafeBitCast(value, to: Bool.self) ? "true" : "false").utf8)
        } else if let json = value as? JSONValue {
            try write(json: json, to: &out.bytes)
        } else {
            // Foundation gives these types their own representations; leave them to it.
            if isFoundationType(T.self) { throw Unsupported() }
            let frame = Frame(out: out, parent: parent, key: key)
            try value.encode(to: ValueEncoder(frame: frame))
            try frame.finish()
        }
    }

    /// Whether `type` is one of Foundation's (Date, Data, URL, Decimal…), by its name; the
    /// answer is kept per type. The name comes from `_typeName`, which reads it from the
    /// metadata: `String(reflecting:)` would first try casts to the description protocols, and
    /// each cast of a type not seen before scans every conformance record in the binary (in a
    /// short `castctl` process that was a third of its CPU time).
    static func isFoundationType(_ type: Any.Type) -> Bool {
        let id = ObjectIdentifier(type)
        if let known = foundationTypes.withLock({ $0[id] }) { return known }
        let name = _typeName(type, qualified: true)
        let answer = name.hasPrefix("Foundation.") || name.hasPrefix("FoundationEssentials.")
        foundationTypes.withLock { $0[id] = answer }
        return answer
    }

    private static let foundationTypes = Mutex<[ObjectIdentifier: Bool]>([:])

    // MARK: scalars

    static func writeInt(_ i: Int64, to out: inout [UInt8]) {
        if i >= 0, i < 10 {
            out.append(UInt8(ascii: "0") + UInt8(i))
            return
        }
        out.append(contentsOf: String(i).utf8)
    }

    static func writeDouble(_ d: Double, to out: inout [UInt8]) throws {
        guard d.isFinite else { throw Unsupported() }
        out.append(contentsOf: d.description.utf8)
        // Integral values without ".0", as JSONEncoder writes them.
        let n = out.count
        if n >= 2, out[n - 2] == UInt8(ascii: "."), out[n - 1] == UInt8(ascii: "0") { out.removeLast(2) }
    }

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        // Most strings need no escape: copy them whole.
        let plain = s.withUTF8 { bytes -> Bool in
            for b in bytes where b < 0x20 || b == 0x22 || b == 0x5C { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            return
        }
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// JSONValue is the free-form tree; written directly instead of through its Codable path.
    static func write(json: JSONValue, to out: inout [UInt8]) throws {
        switch json {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): writeInt(i, to: &out)
        case .double(let d): try writeDouble(d, to: &out)
        case .string(let s): writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try write(json: item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let sorted = members.storage.sorted { compare($0.key, $1.key) < 0 }
            for (i, member) in sorted.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                try write(json: member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    // MARK: Codable

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            self.stringValue = String(intValue)
            self.intValue = intValue
        }
    }

    struct ValueEncoder: Encoder {
        let frame: Frame
        var codingPath: [any CodingKey] { frame.codingPath }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<K: CodingKey>(keyedBy type: K.Type) -> KeyedEncodingContainer<K> {
            frame.become(.keyed)
            return KeyedEncodingContainer(Keyed<K>(frame: frame))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            frame.become(.unkeyed)
            return Unkeyed(frame: frame)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            frame.become(.single)
            return Single(frame: frame)
        }
    }

    struct Keyed<K: CodingKey>: KeyedEncodingContainerProtocol {
        let frame: Frame
        var codingPath: [any CodingKey] { frame.codingPath }

        @inline(__always) private func scalar(_ key: K, _ write: (inout [UInt8]) throws -> Void) rethrows {
            let from = frame.out.bytes.count
            try write(&frame.out.bytes)
            frame.add(key.stringValue, from: from)
        }

        mutating func encodeNil(forKey key: K) throws { scalar(key) { $0.append(contentsOf: "null".utf8) } }
        mutating func encode(_ value: Bool, forKey key: K) throws { scalar(key) { $0.append(contentsOf: (value ? "true" : "false").utf8) } }
        mutating func encode(_ value: String, forKey key: K) throws { scalar(key) { CastJSONWriter.writeString(value, to: &$0) } }
        mutating func encode(_ value: Double, forKey key: K) throws { try scalar(key) { try CastJSONWriter.writeDouble(value, to: &$0) } }
        mutating func encode(_ value: Int, forKey key: K) throws { scalar(key) { CastJSONWriter.writeInt(Int64(value), to: &$0) } }
        mutating func encode<T: Encodable>(_ value: T, forKey key: K) throws {
            let from = frame.out.bytes.count
            try CastJSONWriter.store(value, into: frame.out, parent: frame, key: key)
            frame.add(key.stringValue, from: from)
        }

        mutating func nestedContainer<NK: CodingKey>(keyedBy type: NK.Type, forKey key: K) -> KeyedEncodingContainer<NK> {
            ValueEncoder(frame: frame.addDeferred(key.stringValue, codingKey: key)).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer(forKey key: K) -> any UnkeyedEncodingContainer {
            ValueEncoder(frame: frame.addDeferred(key.stringValue, codingKey: key)).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            ValueEncoder(frame: frame.addDeferred("super", codingKey: Key(stringValue: "super")))
        }
        mutating func superEncoder(forKey key: K) -> any Encoder {
            ValueEncoder(frame: frame.addDeferred(key.stringValue, codingKey: key))
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let frame: Frame
        var codingPath: [any CodingKey] { frame.codingPath }
        var count: Int { frame.count }

        @inline(__always) private func scalar(_ write: (inout [UInt8]) throws -> Void) rethrows {
            let from = frame.out.bytes.count
            try write(&frame.out.bytes)
            frame.add("", from: from)
        }

        mutating func encodeNil() throws { scalar { $0.append(contentsOf: "null".utf8) } }
        mutating func encode(_ value: Bool) throws { scalar { $0.append(contentsOf: (value ? "true" : "false").utf8) } }
        mutating func encode(_ value: String) throws { scalar { CastJSONWriter.writeString(value, to: &$0) } }
        mutating func encode(_ value: Double) throws { try scalar { try CastJSONWriter.writeDouble(value, to: &$0) } }
        mutating func encode(_ value: Int) throws { scalar { CastJSONWriter.writeInt(Int64(value), to: &$0) } }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let from = frame.out.bytes.count
            try CastJSONWriter.store(value, into: frame.out, parent: frame, key: Key(intValue: count))
            frame.add("", from: from)
        }

        mutating func nestedContainer<NK: CodingKey>(keyedBy type: NK.Type) -> KeyedEncodingContainer<NK> {
            ValueEncoder(frame: frame.addDeferred("", codingKey: Key(intValue: count))).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            ValueEncoder(frame: frame.addDeferred("", codingKey: Key(intValue: count))).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { ValueEncoder(frame: frame.addDeferred("", codingKey: Key(intValue: count))) }
    }

    struct Single: SingleValueEncodingContainer {
        let frame: Frame
        var codingPath: [any CodingKey] { frame.codingPath }

        /// A single value replaces whatever was written for it before.
        @inline(__always) private func set(_ write: (inout [UInt8]) throws -> Void) rethrows {
            frame.out.bytes.removeSubrange(frame.start...)
            try write(&frame.out.bytes)
        }

        mutating func encodeNil() throws { set { $0.append(contentsOf: "null".utf8) } }
        mutating func encode(_ value: Bool) throws { set { $0.append(contentsOf: (value ? "true" : "false").utf8) } }
        mutating func encode(_ value: String) throws { set { CastJSONWriter.writeString(value, to: &$0) } }
        mutating func encode(_ value: Double) throws { try set { try CastJSONWriter.writeDouble(value, to: &$0) } }
        mutating func encode(_ value: Float) throws { try set { try CastJSONWriter.writeDouble(Double(value), to: &$0) } }
        mutating func encode(_ value: Int) throws { set { CastJSONWriter.writeInt(Int64(value), to: &$0) } }
        mutating func encode(_ value: Int8) throws { set { CastJSONWriter.writeInt(Int64(value), to: &$0) } }
        mutating func encode(_ value: Int16) throws { set { CastJSONWriter.writeInt(Int64(value), to: &$0) } }
        mutating func encode(_ value: Int32) throws { set { CastJSONWriter.writeInt(Int64(value), to: &$0) } }
        mutating func encode(_ value: Int64) throws { set { CastJSONWriter.writeInt(value, to: &$0) } }
        mutating func encode(_ value: UInt) throws { set { $0.append(contentsOf: String(value).utf8) } }
        mutating func encode(_ value: UInt8) throws { set { $0.append(contentsOf: String(value).utf8) } }
        mutating func encode(_ value: UInt16) throws { set { $0.append(contentsOf: String(value).utf8) } }
        mutating func encode(_ value: UInt32) throws { set { $0.append(contentsOf: String(value).utf8) } }
        mutating func encode(_ value: UInt64) throws { set { $0.append(contentsOf: String(value).utf8) } }
        mutating func encode<T: Encodable>(_ value: T) throws {
            frame.out.bytes.removeSubrange(frame.start...)
            if T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self || T.self == JSONValue.self {
                try CastJSONWriter.store(value, into: frame.out, parent: frame.parent, key: frame.key)
                return
            }
            if CastJSONWriter.isFoundationType(T.self) { throw Unsupported() }
            // The value's own containers are this value's, as in JSONEncoder: a keyed container
            // asked for afterwards adds to the object it wrote (how `.unknown` messages write
            // their payload and then their type).
            frame.kind = .none
            try value.encode(to: ValueEncoder(frame: frame))
        }
    }
}
