// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
/// A `Decoder` that maps a parsed `JSONValue` tree onto Codable models.
///
/// Numbers are accepted as int or float wherever the model wants either (an integer field
/// takes `1.0` but not `1.5`), and as strings holding a number; errors are `DecodingError`s
/// with the full coding path, so `CastJSON` can say which field is wrong. It reads loosely:
/// an optional member or array element that cannot be read is left out and noted
/// (TolerantReading.swift), so one odd part does not cost the whole message.
final class JSONTreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSONValue, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch([String: JSONValue].self, .init(codingPath: codingPath, debugDescription: "expected an object"))
        }
        return KeyedDecodingContainer(TreeKeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else {
            throw DecodingError.typeMismatch([JSONValue].self, .init(codingPath: codingPath, debugDescription: "expected an array"))
        }
        return TreeUnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TreeSingleValueContainer(value: value, codingPath: codingPath)
    }
}

struct TreeCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

/// Converts one tree node to the requested type. The coding path is built only when it is
/// needed (an error, or a nested decoder), since most values are plain strings and numbers.
@inline(__always)
func unbox<T: Decodable>(_ value: JSONValue, as type: T.Type, path: [any CodingKey]) throws -> T {
    try unbox(value, as: type, parent: path, key: nil)
}

@inline(__always)
func unbox<T: Decodable>(_ value: JSONValue, as type: T.Type, parent: [any CodingKey], key: (any CodingKey)?) throws -> T {
    var path: [any CodingKey] { key.map { parent + [$0] } ?? parent }
    if T.self == JSONValue.self { return value as! T }
    if T.self == String.self {
        guard case .string(let s) = value else { throw mismatch(type, value, path) }
        return s as! T
    }
    if T.self == Int.self { return try integer(value, Int.self, path) as! T }
    if T.self == Double.self {
        guard let d = value.doubleValue ?? numberInString(value)?.doubleValue else { throw mismatch(type, value, path) }
        return d as! T
    }
    if T.self == Bool.self {
        if case .bool(let b) = value { return b as! T }
        guard let b = booleanInOtherShape(value) else { throw mismatch(type, value, path) }
        return b as! T
    }
    if T.self == Int64.self { return try integer(value, Int64.self, path) as! T }
    if T.self == Float.self {
        guard let d = value.doubleValue else { throw mismatch(type, value, path) }
        return Float(d) as! T
    }
    if T.self == Int32.self { return try integer(value, Int32.self, path) as! T }
    if T.self == UInt32.self { return try integer(value, UInt32.self, path) as! T }
    if T.self == UInt64.self { return try integer(value, UInt64.self, path) as! T }
    if T.self == UInt.self { return try integer(value, UInt.self, path) as! T }
    if T.self == Int16.self { return try integer(value, Int16.self, path) as! T }
    if T.self == Int8.self { return try integer(value, Int8.self, path) as! T }
    if T.self == UInt16.self { return try integer(value, UInt16.self, path) as! T }
    if T.self == UInt8.self { return try integer(value, UInt8.self, path) as! T }
    // Arrays keep the elements that can be read; a lone object stands for a one-element array.
    switch value {
    case .array(let elements):
        if let A = T.self as? any ElementDroppingArray.Type { return A.readKeepingWhatCanBeRead(elements, path: path) as! T }
    case .object:
        if let A = T.self as? any ElementDroppingArray.Type { return A.readKeepingWhatCanBeRead([value], path: path) as! T }
    default: break
    }
    return try T(from: JSONTreeDecoder(value: value, codingPath: path))
}

private func integer<I: FixedWidthInteger>(_ value: JSONValue, _ type: I.Type, _ path: [any CodingKey]) throws -> I {
    switch numberInString(value) ?? value {
    case .int(let i):
        if let v = I(exactly: i) { return v }
    case .double(let d):
        if let v = I(exactly: d) { return v }
    default:
        throw mismatch(type, value, path)
    }
    throw DecodingError.typeMismatch(type, .init(codingPath: path, debugDescription: "\(value.doubleValue ?? 0) is not an integer that fits in \(type)"))
}

private func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    if case .null = value {
        return .valueNotFound(type, .init(codingPath: path, debugDescription: "found null"))
    }
    return .typeMismatch(type, .init(codingPath: path, debugDescription: "found \(value.kindName)"))
}

extension JSONValue {
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func node(_ key: Key) throws -> JSONValue {
        guard let v = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
        }
        return v
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try node(key) { return true }
        return false
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try unbox(try node(key), as: type, parent: codingPath, key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(type, key)
    }

    /// An optional member: absent, null, or one that cannot be read is nil (the last is noted,
    /// TolerantReading.swift).
    private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let v = object[key.stringValue] else { return nil }
        if case .null = v { return nil }
        do {
            return try unbox(v, as: type, parent: codingPath, key: key)
        } catch {
            DroppedParts.note(error, at: path(key))
            return nil
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try unbox(try node(key), as: type, parent: codingPath, key: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try unbox(try node(key), as: type, parent: codingPath, key: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try unbox(try node(key), as: type, parent: codingPath, key: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try unbox(try node(key), as: type, parent: codingPath, key: key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try JSONTreeDecoder(value: try node(key), codingPath: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONTreeDecoder(value: try node(key), codingPath: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        JSONTreeDecoder(value: object["super"] ?? .null, codingPath: codingPath + [TreeCodingKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONTreeDecoder(value: object[key.stringValue] ?? .null, codingPath: path(key))
    }
}

struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let array: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(array: [JSONValue], codingPath: [any CodingKey]) {
        self.array = array
        self.codingPath = codingPath
    }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private func next<T>(_ type: T.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath + [TreeCodingKey(intValue: currentIndex)], debugDescription: "the array has no more elements"))
        }
        return array[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        if case .null = try next(JSONValue.self) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let v = try unbox(try next(type), as: type, parent: codingPath, key: TreeCodingKey(intValue: currentIndex))
        currentIndex += 1
        return v
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let c = try JSONTreeDecoder(value: try next(type), codingPath: codingPath + [TreeCodingKey(intValue: currentIndex)]).container(keyedBy: type)
        currentIndex += 1
        return c
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let c = try JSONTreeDecoder(value: try next([JSONValue].self), codingPath: codingPath + [TreeCodingKey(intValue: currentIndex)]).unkeyedContainer()
        currentIndex += 1
        return c
    }

    mutating func superDecoder() throws -> any Decoder {
        let d = JSONTreeDecoder(value: try next(JSONValue.self), codingPath: codingPath + [TreeCodingKey(intValue: currentIndex)])
        currentIndex += 1
        return d
    }
}

struct TreeSingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try unbox(value, as: type, path: codingPath)
    }
}
