// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
#if canImport(Glibc)
import Glibc
#endif

/// Typed reading straight from the bytes: the one-pass path for the messages on the
/// interactive path (MEDIA_STATUS above all).
///
/// A model that conforms to `JSONReadable` reads its members from the parser as they come:
/// keys are compared as bytes against the field names, numbers are converted without making
/// Strings, unknown members are checked and skipped without building anything. Nothing but
/// the model itself is allocated.
///
/// The reader is a fast path, not a second dialect: it accepts exactly what
/// `JSONParser` + `JSONTreeDecoder` accept and produces equal values. Whenever it meets
/// anything it does not handle the same way — a type mismatch, a missing field, a key with
/// an escape, invalid JSON — it gives up with a `Failure`, and `CastJSON` decodes the payload
/// again through the tree, which produces the result or the error message with its field path.
/// `FastPathEquivalenceTests` and the fuzzer compare both paths on every input they make.
///
/// The models' readers are not written by hand: scripts/gen-wire.py writes them, with the
/// direct writers, from the models' declarations into Models/Generated, so the reader, the
/// writer and the synthesized Codable form all follow from the same stored properties.
protocol JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure)
}

/// A member name as it sits in the input, without escapes.
struct JSONKey {
    let start: UnsafePointer<UInt8>
    let count: Int

    @inline(__always)
    static func ~= (pattern: StaticString, key: JSONKey) -> Bool {
        pattern.utf8CodeUnitCount == key.count && memcmp(pattern.utf8Start, key.start, key.count) == 0
    }
}

extension JSONParser {
    /// The next significant byte, without consuming it.
    @inline(__always)
    mutating func peek() throws(Failure) -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of input") }
        return bytes[index]
    }

    // MARK: containers

    /// Enters an object; then call `nextKey()` until it returns nil.
    mutating func enterObject() throws(Failure) {
        guard try peek() == UInt8(ascii: "{") else { throw fail("expected an object") }
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        index += 1
        atContainerStart = true
    }

    /// The next member's name (positioned on its value), or nil after the closing brace.
    @inline(__always)
    mutating func nextKey() throws(Failure) -> JSONKey? {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of input") }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            atContainerStart = false
            return nil
        }
        if atContainerStart {
            atContainerStart = false
        } else {
            guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or '}'") }
            index += 1
            skipWhitespace()
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
        index += 1
        let start = index
        index = endOfPlainRun(from: start)
        guard index < bytes.count else { throw fail("unterminated string") }
        // Keys with escapes or control characters are left to the tree path.
        guard bytes[index] == UInt8(ascii: "\"") else { throw fail("member name needs the full parser") }
        let key = JSONKey(start: bytes.baseAddress! + start, count: index - start)
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
        index += 1
        return key
    }

    /// Enters an array; then call `nextElement()` until it returns false.
    mutating func enterArray() throws(Failure) {
        guard try peek() == UInt8(ascii: "[") else { throw fail("expected an array") }
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        index += 1
        atContainerStart = true
    }

    /// True when another element follows (positioned on it), false after the closing bracket.
    mutating func nextElement() throws(Failure) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of input") }
        if bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            atContainerStart = false
            return false
        }
        if atContainerStart {
            atContainerStart = false
            return true
        }
        guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or ']'") }
        index += 1
        return true
    }

    /// Consumes `null` if it comes next; the tree decoder treats a null optional as absent.
    @inline(__always)
    mutating func takeNull() throws(Failure) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    // MARK: values

    mutating func readString() throws(Failure) -> String {
        guard try peek() == UInt8(ascii: "\"") else { throw fail("expected a string") }
        return try parseString()
    }

    mutating func readBool() throws(Failure) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default: throw fail("expected true or false")
        }
    }

    /// An integer field: accepts `3` and `3.0`, as the tree decoder does, not `3.5`.
    mutating func readInt() throws(Failure) -> Int {
        let c = try peek()
        guard c == UInt8(ascii: "-") || isDigit(c) else { throw fail("expected a number") }
        switch try parseNumber() {
        case .int(let v): if let i = Int(exactly: v) { return i }
        case .double(let d): if let i = Int(exactly: d) { return i }
        default: break
        }
        throw fail("not an integer")
    }

    mutating func readDouble() throws(Failure) -> Double {
        let c = try peek()
        guard c == UInt8(ascii: "-") || isDigit(c) else { throw fail("expected a number") }
        switch try parseNumber() {
        case .int(let v): return Double(v)
        case .double(let d): return d
        default: throw fail("expected a number")
        }
    }

    /// Any value, as the tree (customData and other free-form fields).
    mutating func readValue() throws(Failure) -> JSONValue {
        skipWhitespace()
        return try parseValue(depth: depth)
    }

    /// An open string enumeration: known spellings are matched as bytes, anything else is
    /// kept as `.unknown(text)`.
    mutating func readEnum<E: OpenStringEnum>(_: E.Type) throws(Failure) -> E {
        guard try peek() == UInt8(ascii: "\"") else { throw fail("expected a string") }
        let start = index + 1
        let end = endOfPlainRun(from: start)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let n = end - start
            let p = bytes.baseAddress! + start
            if n <= 15, smallStrings {
                // The spellings are short literals, stored inline: compare the two words an
                // inline String of these bytes would have, not the bytes.
                let (low, high) = SmallASCIIString.words(p, count: n, readable: bytes.count - start)
                let form = high | (SmallASCIIString.smallASCIIForm | UInt64(n)) << 56
                for (value, name) in E.wireNames {
                    if let w = SmallASCIIString.inlineWords(of: name), w.0 == low, w.1 == form {
                        index = end + 1
                        return value
                    }
                }
            } else {
                for (value, name) in E.wireNames
                where name.utf8.count == n && name.utf8.withContiguousStorageIfAvailable({ memcmp($0.baseAddress!, p, n) == 0 }) == true {
                    index = end + 1
                    return value
                }
            }
        }
        return E(rawValue: try parseString())
    }

    // Optional forms: null or absent is nil, as `decodeIfPresent` has it.
    mutating func optionalString() throws(Failure) -> String? { try takeNull() ? nil : try readString() }
    mutating func optionalBool() throws(Failure) -> Bool? { try takeNull() ? nil : try readBool() }
    mutating func optionalInt() throws(Failure) -> Int? { try takeNull() ? nil : try readInt() }
    mutating func optionalDouble() throws(Failure) -> Double? { try takeNull() ? nil : try readDouble() }
    mutating func optionalValue() throws(Failure) -> JSONValue? { try takeNull() ? nil : try readValue() }
    mutating func optionalEnum<E: OpenStringEnum>(_ type: E.Type) throws(Failure) -> E? { try takeNull() ? nil : try readEnum(type) }
    mutating func optional<T: JSONReadable>(_: T.Type) throws(Failure) -> T? { try takeNull() ? nil : try T(reading: &self) }

    // Arrays in Cast messages are short (tracks, images, ad breaks and clips, track ids), and
    // growing one from empty reallocates and moves its elements at 1, 2 and 4: room for four
    // is made with the first element instead.
    @inline(__always)
    mutating func readElements<T>(_ read: (inout JSONParser) throws(Failure) -> T) throws(Failure) -> [T] {
        try enterArray()
        var out: [T] = []
        while try nextElement() {
            let element = try read(&self)
            if out.isEmpty { out.reserveCapacity(4) }
            out.append(element)
        }
        return out
    }

    mutating func readArray<T: JSONReadable>(of _: T.Type) throws(Failure) -> [T] {
        try readElements { (r: inout JSONParser) throws(Failure) in try T(reading: &r) }
    }

    mutating func optionalArray<T: JSONReadable>(of type: T.Type) throws(Failure) -> [T]? {
        try takeNull() ? nil : try readArray(of: type)
    }

    mutating func optionalStrings() throws(Failure) -> [String]? {
        try takeNull() ? nil : try readElements { (r: inout JSONParser) throws(Failure) in try r.readString() }
    }

    mutating func optionalInts() throws(Failure) -> [Int]? {
        try takeNull() ? nil : try readElements { (r: inout JSONParser) throws(Failure) in try r.readInt() }
    }

    // MARK: skipping

    /// Checks and passes over one value without building it (an unknown member).
    mutating func skipValue() throws(Failure) {
        switch try peek() {
        case UInt8(ascii: "{"):
            try enterObject()
            while try nextKey() != nil { try skipValue() }
        case UInt8(ascii: "["):
            try enterArray()
            while try nextElement() { try skipValue() }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let (start, isInteger) = try scanNumber()
            // The tree refuses numbers out of Double's range; so must the skip.
            if !(isInteger && integerValue(from: start) != nil) { _ = try doubleValue(from: start) }
        default: throw fail("unexpected character")
        }
    }

    /// Checks a string's escapes and characters the way `parseString` does, making nothing.
    mutating func skipString() throws(Failure) {
        index += 1
        while index < bytes.count {
            index = endOfPlainRun(from: index)
            guard index < bytes.count else { break }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if b < 0x20 { throw fail("control character in a string") }
            index += 1
            if b == UInt8(ascii: "\\") {
                guard index < bytes.count else { throw fail("unterminated string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    _ = try hex4()
                default: throw fail("invalid escape")
                }
            }
        }
        throw fail("unterminated string")
    }
}
