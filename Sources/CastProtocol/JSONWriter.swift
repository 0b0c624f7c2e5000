/// Compact JSON with sorted keys, written without Foundation: `CastJSON.encode`, which every
/// command a sender sends and every status the simulator answers goes through.
///
/// Foundation's `JSONEncoder` on Linux costs tens of microseconds per message and, on its
/// first use in a process, milliseconds of protocol-conformance lookups (castctl's start-up).
/// This encoder builds a small tree through Codable and writes it in one pass. Its output is
/// byte for byte what `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` writes
/// for the models here (`JSONWriterTests` compares both on every fixture and on generated
/// messages): keys in code-unit order, integral doubles without ".0", the standard short
/// escapes and `\u00XX` for other control characters, everything else as UTF-8. Types
/// `JSONEncoder` treats specially (Date, Data, URL, Decimal…) make it step aside, and
/// `CastJSON.encode` falls back to `JSONEncoder`.
struct CastJSONWriter {
    struct Unsupported: Error {}

    static func encode<T: Encodable>(_ value: T) throws -> String {
        let root = Node()
        try value.encode(to: TreeEncoder(node: root, codingPath: []))
        var out: [UInt8] = []
        out.reserveCapacity(256)
        try root.write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// One value under construction. Containers are filled after they are handed out, so the
    /// tree is made of references.
    final class Node {
        enum Value {
            case unset, null, bool(Bool), int(Int64), uint(UInt64), double(Double), string(String)
            case array([Node]), object([String: Node])
        }
        var value: Value = .unset

        func write(to out: inout [UInt8]) throws {
            switch value {
            case .unset, .null: out.append(contentsOf: "null".utf8)
            case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
            case .int(let i): out.append(contentsOf: String(i).utf8)
            case .uint(let u): out.append(contentsOf: String(u).utf8)
            case .double(let d):
                guard d.isFinite else { throw Unsupported() }
                var text = d.description
                if text.hasSuffix(".0") { text.removeLast(2) }
                out.append(contentsOf: text.utf8)
            case .string(let s): Self.writeString(s, to: &out)
            case .array(let items):
                out.append(UInt8(ascii: "["))
                for (i, item) in items.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    try item.write(to: &out)
                }
                out.append(UInt8(ascii: "]"))
            case .object(let members):
                out.append(UInt8(ascii: "{"))
                let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                for (i, key) in keys.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    Self.writeString(key, to: &out)
                    out.append(UInt8(ascii: ":"))
                    try members[key]!.write(to: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
        }

        static func writeString(_ s: String, to out: inout [UInt8]) {
            out.append(UInt8(ascii: "\""))
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
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            self.stringValue = String(intValue)
            self.intValue = intValue
        }
    }

    /// Stores one encodable value into `node`.
    static func store<T: Encodable>(_ value: T, into node: Node, codingPath: [any CodingKey]) throws {
        switch value {
        case let v as String: node.value = .string(v)
        case let v as Int: node.value = .int(Int64(v))
        case let v as Double: node.value = .double(v)
        case let v as Bool: node.value = .bool(v)
        case let v as JSONValue: store(json: v, into: node)
        default:
            // Foundation gives these types their own representations; leave them to it.
            let name = String(reflecting: T.self)
            if name.hasPrefix("Foundation.") || name.hasPrefix("FoundationEssentials.") { throw Unsupported() }
            try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
        }
    }

    /// JSONValue is the free-form tree; written directly instead of through its Codable path.
    static func store(json: JSONValue, into node: Node) {
        switch json {
        case .null: node.value = .null
        case .bool(let b): node.value = .bool(b)
        case .int(let i): node.value = .int(i)
        case .double(let d): node.value = .double(d)
        case .string(let s): node.value = .string(s)
        case .array(let items):
            node.value = .array(items.map { item in
                let child = Node()
                store(json: item, into: child)
                return child
            })
        case .object(let members):
            node.value = .object(members.mapValues { member in
                let child = Node()
                store(json: member, into: child)
                return child
            })
        }
    }

    struct TreeEncoder: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<K: CodingKey>(keyedBy type: K.Type) -> KeyedEncodingContainer<K> {
            if case .object = node.value {} else { node.value = .object([:]) }
            return KeyedEncodingContainer(Keyed<K>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array = node.value {} else { node.value = .array([]) }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(node: node, codingPath: codingPath)
        }
    }

    struct Keyed<K: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func child(_ key: K) -> Node {
            let child = Node()
            if case .object(var members) = node.value {
                node.value = .unset  // keeps `members` uniquely referenced while it changes
                members[key.stringValue] = child
                node.value = .object(members)
            }
            return child
        }

        mutating func encodeNil(forKey key: K) throws { child(key).value = .null }
        mutating func encode(_ value: Bool, forKey key: K) throws { child(key).value = .bool(value) }
        mutating func encode(_ value: String, forKey key: K) throws { child(key).value = .string(value) }
        mutating func encode(_ value: Double, forKey key: K) throws { child(key).value = .double(value) }
        mutating func encode(_ value: Int, forKey key: K) throws { child(key).value = .int(Int64(value)) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: K) throws {
            try CastJSONWriter.store(value, into: child(key), codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NK: CodingKey>(keyedBy type: NK.Type, forKey key: K) -> KeyedEncodingContainer<NK> {
            TreeEncoder(node: child(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer(forKey key: K) -> any UnkeyedEncodingContainer {
            TreeEncoder(node: child(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { TreeEncoder(node: child(K(stringValue: "super")!), codingPath: codingPath) }
        mutating func superEncoder(forKey key: K) -> any Encoder { TreeEncoder(node: child(key), codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int {
            if case .array(let items) = node.value { return items.count }
            return 0
        }

        private func next() -> Node {
            let child = Node()
            if case .array(var items) = node.value {
                node.value = .unset
                items.append(child)
                node.value = .array(items)
            }
            return child
        }

        mutating func encodeNil() throws { next().value = .null }
        mutating func encode(_ value: Bool) throws { next().value = .bool(value) }
        mutating func encode(_ value: String) throws { next().value = .string(value) }
        mutating func encode(_ value: Double) throws { next().value = .double(value) }
        mutating func encode(_ value: Int) throws { next().value = .int(Int64(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try CastJSONWriter.store(value, into: next(), codingPath: codingPath + [Key(intValue: count)])
        }

        mutating func nestedContainer<NK: CodingKey>(keyedBy type: NK.Type) -> KeyedEncodingContainer<NK> {
            TreeEncoder(node: next(), codingPath: codingPath).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            TreeEncoder(node: next(), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { TreeEncoder(node: next(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.value = .null }
        mutating func encode(_ value: Bool) throws { node.value = .bool(value) }
        mutating func encode(_ value: String) throws { node.value = .string(value) }
        mutating func encode(_ value: Double) throws { node.value = .double(value) }
        mutating func encode(_ value: Float) throws { node.value = .double(Double(value)) }
        mutating func encode(_ value: Int) throws { node.value = .int(Int64(value)) }
        mutating func encode(_ value: Int8) throws { node.value = .int(Int64(value)) }
        mutating func encode(_ value: Int16) throws { node.value = .int(Int64(value)) }
        mutating func encode(_ value: Int32) throws { node.value = .int(Int64(value)) }
        mutating func encode(_ value: Int64) throws { node.value = .int(value) }
        mutating func encode(_ value: UInt) throws { node.value = .uint(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { node.value = .uint(UInt64(value)) }
        mutating func encode(_ value: UInt16) throws { node.value = .uint(UInt64(value)) }
        mutating func encode(_ value: UInt32) throws { node.value = .uint(UInt64(value)) }
        mutating func encode(_ value: UInt64) throws { node.value = .uint(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try CastJSONWriter.store(value, into: node, codingPath: codingPath) }
    }
}
