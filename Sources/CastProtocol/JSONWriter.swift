// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
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
}
