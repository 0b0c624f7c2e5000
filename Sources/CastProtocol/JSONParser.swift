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

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

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

    /// The index of the first byte from `start` that ends the plain run of a string: a quote,
    /// a backslash or a control character (or the end of the input). Eight bytes at a time:
    /// the classic zero-byte test on the word XORed with each character finds the first
    /// match exactly (a borrow can only mark bytes above a true match).
    @inline(__always)
    func endOfPlainRun(from start: Int) -> Int {
        let base = UnsafeRawPointer(bytes.baseAddress!)
        let n = bytes.count
        var i = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
            let w = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let quote = w ^ (ones &* 0x22)
            let backslash = w ^ (ones &* 0x5C)
            let found = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- ones &* 0x20) & ~w) & highs
            if found != 0 { return i + UInt64(littleEndian: found).trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { return i }
            i += 1
        }
        return n
    }

    func fail(_ reason: String) -> Failure { Failure(reason: reason, offset: index) }

    mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
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
    private var members: ScratchStack<JSONObject.Member>?
    private var elements: ScratchStack<JSONValue>?

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject())
        }
        let stack = members ?? ScratchStack()
        members = stack
        let base = stack.count
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try parseString()
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
                // A repeated name keeps its first place and its last value.
                return .object(JSONObject(parsedMembers: stack.popArray(from: base)))
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
        let stack = elements ?? ScratchStack()
        elements = stack
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

    mutating func parseString() throws(Failure) -> String {
        let start = index + 1  // after the opening quote
        // Fast path: no escapes.
        index = endOfPlainRun(from: start)
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index += 1
            return s
        }
        // Escapes: check the whole string and find its end first, then write the unescaped
        // text straight into the String's storage; unescaping never makes text longer.
        index = start - 1
        try skipString()
        let end = index - 1
        return String(unsafeUninitializedCapacity: end - start) { out in unescape(start..<end, into: out) }
    }

    /// Writes the text of an escaped string body (already checked by `skipString`) and returns
    /// its length. Lone or mismatched surrogates become U+FFFD.
    private func unescape(_ range: Range<Int>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var i = range.lowerBound
        var o = 0
        func hex(_ at: Int) -> UInt32 {
            var v: UInt32 = 0
            for k in at..<(at + 4) {
                let c = bytes[k]
                let d: UInt8 = c <= 0x39 ? c &- 0x30 : (c | 0x20) &- 0x61 &+ 10
                v = v << 4 | UInt32(d)
            }
            return v
        }
        func put(_ scalar: UInt32) {
            for unit in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! {
                out[o] = unit
                o += 1
            }
        }
        while i < range.upperBound {
            let runEnd = min(endOfPlainRun(from: i), range.upperBound)
            if runEnd > i {
                UnsafeMutableRawPointer(out.baseAddress! + o).copyMemory(from: bytes.baseAddress! + i, byteCount: runEnd - i)
                o += runEnd - i
                i = runEnd
            }
            guard i < range.upperBound else { break }
            let e = bytes[i + 1]  // bytes[i] is the backslash
            i += 2
            switch e {
            case UInt8(ascii: "b"): out[o] = 0x08; o += 1
            case UInt8(ascii: "f"): out[o] = 0x0C; o += 1
            case UInt8(ascii: "n"): out[o] = 0x0A; o += 1
            case UInt8(ascii: "r"): out[o] = 0x0D; o += 1
            case UInt8(ascii: "t"): out[o] = 0x09; o += 1
            case UInt8(ascii: "u"):
                var scalar = hex(i)
                i += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by \u and a low surrogate.
                    if i + 1 < range.upperBound, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                        let low = hex(i + 2)
                        i += 6
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            put(0xFFFD)
                            scalar = low
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                }
                if (0xD800..<0xE000).contains(scalar) { scalar = 0xFFFD }
                put(scalar)
            default: out[o] = e; o += 1  // \" \\ \/
            }
        }
        return o
    }

    mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    mutating func parseNumber() throws(Failure) -> JSONValue {
        let (start, isInteger) = try scanNumber()
        if isInteger, let v = integerValue(from: start) { return .int(v) }
        return .double(try doubleValue(from: start))
    }

    /// Checks the number grammar at `index` and moves past the number.
    mutating func scanNumber() throws(Failure) -> (start: Int, isInteger: Bool) {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return (start, isInteger)
    }

    /// The integer scanned from `start` to `index`, when it has at most 19 characters and
    /// fits in Int64 (larger integers are kept as doubles, as JavaScript would).
    func integerValue(from start: Int) -> Int64? {
        guard index - start <= 19 else { return nil }
        var v: Int64 = 0
        var negative = false
        for i in start..<index {
            let c = bytes[i]
            if c == UInt8(ascii: "-") { negative = true; continue }
            v = v &* 10 &+ Int64(c &- UInt8(ascii: "0"))
        }
        // 19 digits may overflow Int64: the sign flips, and the caller takes the double.
        return v >= 0 ? (negative ? -v : v) : nil
    }

    private static let exactPowersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { r, _ in r * 10 } }

    /// The number scanned from `start` to `index` as a correctly rounded double. A mantissa of
    /// at most 15 digits and a power of ten up to 22 are both exact doubles, so one IEEE
    /// multiplication or division rounds correctly (Clinger's fast path); other numbers go
    /// through the standard library's conversion.
    func doubleValue(from start: Int) throws(Failure) -> Double {
        var i = start
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var fast = true
        while i < index, isDigit(bytes[i]) {
            if mantissa != 0 || bytes[i] != UInt8(ascii: "0") { significant += 1 }
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
            i += 1
        }
        if i < index, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < index, isDigit(bytes[i]) {
                if mantissa != 0 || bytes[i] != UInt8(ascii: "0") { significant += 1 }
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
                exponent -= 1
                i += 1
            }
        }
        if i < index {  // e or E
            i += 1
            var expNegative = false
            if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            while i < index {
                e = e * 10 + Int(bytes[i] &- 0x30)
                i += 1
                if e > 400 { fast = false; break }
            }
            exponent += expNegative ? -e : e
        }
        if fast, significant <= 15, exponent >= -22, exponent <= 22 {
            var d = Double(mantissa)
            d = exponent < 0 ? d / Self.exactPowersOfTen[-exponent] : d * Self.exactPowersOfTen[exponent]
            return negative ? -d : d
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        guard let d = Double(String(decoding: text, as: UTF8.self)), d.isFinite else {
            throw Failure(reason: "number out of range", offset: start)
        }
        return d
    }

    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}

/// A stack of parsed values that hands its top run over as an array by moving it: no copy of
/// each value, no retain and release, no per-element destroy through the type's metadata (what
/// slicing an Array and removing the subrange cost: a fifth of parsing an untyped tree).
final class ScratchStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 32) {
        storage = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    func push(_ element: consuming Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = larger
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// The elements from `start` to the top, in order, taken off the stack.
    func popArray(from start: Int) -> [Element] {
        let n = count - start
        let run = storage + start
        let array = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: run, count: n)
            initialized = n
        }
        count = start
        return array
    }
}
