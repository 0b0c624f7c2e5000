// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
#if canImport(Glibc)
import Glibc
#endif

/// A strict RFC 8259 JSON parser producing `JSONValue` trees.
///
/// Foundation's JSONDecoder on Linux spends most of its time scanning; this parser reads
/// the bytes once, builds the tree, and `JSONTreeDecoder` maps it onto Codable models.
/// Limits protect against hostile input: nesting deeper than `maxDepth` is an error, not a
/// stack overflow.
struct JSONParser {
    struct Failure: Error, CustomStringConvertible {
        let reason: String
        let offset: Int
        var description: String { "\(reason) at byte \(offset)" }
    }

    static let maxDepth = 256

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var p = JSONParser(bytes: bytes)
        defer { p.finish() }
        p.skipWhitespace()
        let value = try p.parseValue(depth: 0)
        p.skipWhitespace()
        guard p.index == bytes.count else { throw Failure(reason: "unexpected data after the JSON value", offset: p.index) }
        return value
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The nesting level of the container the typed reader (JSONParser+Reading.swift) is in.
    var depth = 0
    /// Set by the typed reader on entering a container, until its first member or element.
    var atContainerStart = false

    /// `SmallASCIIString.isAvailable`, read once per parse.
    let smallStrings: Bool

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        smallStrings = SmallASCIIString.isAvailable
    }

    @inline(__always)
    mutating func skipWhitespace() {
        // Most values follow their separator directly: one test, then the loop.
        guard index < bytes.count, bytes[index] <= 0x20 else { return }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func fail(_ reason: String) -> Failure { Failure(reason: reason, offset: index) }

    mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard index + n <= bytes.count else { throw fail("unexpected end of input") }
        let w = word.utf8Start
        for i in 0..<n where bytes[index + i] != w[i] { throw fail("invalid literal") }
        index += n
    }

    // Members and elements are collected on one scratch stack shared by every container of
    // the parse (nested ones above their parent's), so each container is allocated once, at
    // its final size, instead of growing as members arrive, and moved out of the stack.
    // The stacks come from this thread's `ParserScratch` when the first container is read and
    // go back to it in `finish()`, so that a parse allocates none of them.
    private var scratch: ParserScratch?

    private mutating func scratchStacks() -> ParserScratch {
        if let scratch { return scratch }
        let taken = ParserScratch.take()
        scratch = taken
        return taken
    }

    /// Gives the scratch stacks back to this thread for the next parse.
    mutating func finish() {
        if let scratch { ParserScratch.giveBack(scratch) }
        scratch = nil
    }

    /// A fingerprint of a member name: its length and its bytes (up to 15) or its first and
    /// last eight bytes, mixed. Equal names have equal marks, however each String is stored,
    /// so members whose marks all differ have different names and the object needs no other
    /// check; equal marks send it to `JSONObject`'s full check (JSONObject's pairwise String
    /// comparisons were a tenth of parsing an untyped tree).
    @inline(__always)
    func nameMark(_ name: String) -> UInt64 {
        if smallStrings, let w = SmallASCIIString.inlineWords(of: name) {
            // An inline String's words are its bytes, with the form and count in the top byte.
            return Self.mix(Int(w.1 >> 56) & 0x0F, w.0, w.1 & 0x00FF_FFFF_FFFF_FFFF)
        }
        func mark(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
            let n = text.count
            guard let base = text.baseAddress else { return Self.mix(0, 0, 0) }
            if n <= 15 {
                let (low, high) = SmallASCIIString.words(base, count: n, readable: n)
                return Self.mix(n, low, high)
            }
            let raw = UnsafeRawPointer(base)
            return Self.mix(n, raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
        }
        // A String the parser made is native, and its bytes are read in place.
        return name.utf8.withContiguousStorageIfAvailable(mark) ?? Array(name.utf8).withUnsafeBufferPointer(mark)
    }

    /// One multiplication: its top bits, which `topRunIsDistinct` looks at first, depend on
    /// every input bit. Two names with the same mark are only compared in full, so a weak mix
    /// costs a comparison, never a wrong answer.
    @inline(__always)
    static func mix(_ count: Int, _ a: UInt64, _ b: UInt64) -> UInt64 {
        (a ^ (b << 32 | b >> 32) ^ UInt64(truncatingIfNeeded: count) << 56) &* 0x9E37_79B9_7F4A_7C15
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject())
        }
        let stacks = scratchStacks()
        let stack = stacks.members
        let nameMarks = stacks.marks
        let base = stack.count
        // The two stacks are not level: a member's mark goes on before its value is read, the
        // member itself after, so each keeps its own start.
        let markBase = nameMarks.count
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try parseName()
            nameMarks.push(nameMark(key))
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            stack.push(JSONObject.Member(key: key, value: try parseValue(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                let parsed = stack.popArray(from: base)
                let distinct = nameMarks.topRunIsDistinct(from: markBase, upTo: JSONObject.smallCount)
                nameMarks.removeAll(from: markBase)
                // A repeated name keeps its first place and its last value.
                return .object(distinct ? JSONObject(distinctMembers: parsed) : JSONObject(parsedMembers: parsed))
            } else {
                throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        let stack = scratchStacks().elements
        let base = stack.count
        while true {
            skipWhitespace()
            stack.push(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(stack.popArray(from: base))
            } else {
                throw fail("expected ',' or ']'")
            }
        }
    }
}
