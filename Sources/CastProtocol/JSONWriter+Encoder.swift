// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The Encoder and containers Codable hands CastJSONWriter's values through; the writer's overview is in JSONWriter.swift.
extension CastJSONWriter {
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
