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

    /// A member name: as `parseString`, but the long names of the Cast messages
    /// (`KnownNames`) are not made again for every message.
    @inline(__always)
    mutating func parseName() throws(Failure) -> String {
        let start = index + 1
        let end = endOfPlainRun(from: start)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return try parseString() }
        index = end + 1
        return KnownNames.name(bytes.baseAddress! + start, count: end - start) ?? string(at: start, count: end - start)
    }

    mutating func parseString() throws(Failure) -> String {
        let start = index + 1  // after the opening quote
        // Fast path: no escapes.
        index = endOfPlainRun(from: start)
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let s = string(at: start, count: index - start)
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

    /// The String of `count` bytes of text from `start`, which hold no escapes. Short ASCII
    /// text becomes an inline String directly (`SmallASCIIString`); anything else is copied
    /// once into the String's own storage and checked there.
    @inline(__always)
    func string(at start: Int, count: Int) -> String {
        let text = bytes.baseAddress! + start
        if smallStrings, let s = SmallASCIIString.make(text, count: count, readable: bytes.count - start) { return s }
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
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

    @inline(__always)
    mutating func parseNumber() throws(Failure) -> JSONValue {
        if let q = quickNumber() { return q.fractionDigits == 0 ? .int(q.integer) : .double(q.double) }
        let (start, isInteger) = try scanNumber()
        if isInteger, let v = integerValue(from: start) { return .int(v) }
        return .double(try doubleValue(from: start))
    }

    /// A number read in one pass, for the common case: no exponent, at most 18 digits, and at
    /// most 15 when it has a fraction. `integer` is the value when `fractionDigits` is 0 (an
    /// integer), `double` the value either way.
    struct QuickNumber {
        var magnitude: Int64
        var negative: Bool
        var fractionDigits: Int

        var integer: Int64 { negative ? -magnitude : magnitude }

        /// Correctly rounded: a mantissa below 2^53 and a power of ten up to 10^22 are exact
        /// doubles, so one IEEE division rounds once (Clinger's fast path, as `doubleValue`).
        var double: Double {
            let d = fractionDigits == 0 ? Double(magnitude) : Double(magnitude) / JSONParser.exactPowersOfTen[fractionDigits]
            return negative ? -d : d
        }
    }

    /// Reads the number at `index` in one pass when it is of the common kind (`QuickNumber`)
    /// and moves past it; nil, with `index` where it was, for anything else — including what
    /// is not a number at all — which `scanNumber` and `doubleValue` then read or refuse.
    /// Scanning the grammar and then reading the digits again was most of a number's cost.
    @inline(__always)
    mutating func quickNumber() -> QuickNumber? {
        let n = bytes.count
        var i = index
        var negative = false
        if i < n, bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < n, isDigit(bytes[i]) else { return nil }
        var magnitude: Int64 = 0
        var digits = 1
        if bytes[i] == UInt8(ascii: "0") {
            i += 1  // a leading zero is the whole integer part
        } else {
            while i < n, isDigit(bytes[i]) {
                magnitude = magnitude &* 10 &+ Int64(bytes[i] &- 0x30)
                i += 1
            }
            digits = i - index - (negative ? 1 : 0)
        }
        var fraction = 0
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < n, isDigit(bytes[i]) {
                magnitude = magnitude &* 10 &+ Int64(bytes[i] &- 0x30)
                i += 1
            }
            fraction = i - fractionStart
            guard fraction > 0 else { return nil }
        }
        if i < n, bytes[i] | 0x20 == UInt8(ascii: "e") { return nil }
        // Up to 18 digits the wrapping arithmetic above cannot have wrapped.
        guard digits + fraction <= (fraction == 0 ? 18 : 15) else { return nil }
        index = i
        return QuickNumber(magnitude: magnitude, negative: negative, fractionDigits: fraction)
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

    static let exactPowersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { r, _ in r * 10 } }

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
    fileprivate var storage: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 32) {
        storage = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    @inline(__always)
    func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Doubles the room: out of line, so that `push` stays small enough to inline.
    @inline(never)
    private func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }

    /// The elements from `start` to the top, in order, taken off the stack.
    ///
    /// The array is made with `reserveCapacity` and filled by `append`, not with
    /// `Array(unsafeUninitializedCapacity:)`: that initializer allocates through a generic
    /// function of the standard library that looks the array's storage class up in the
    /// runtime's metadata cache on every call (~450 instructions, a tenth of parsing an
    /// untyped tree), where `reserveCapacity` is specialized here and finds it in a cached
    /// accessor.
    func popArray(from start: Int) -> [Element] {
        let n = count - start
        var array: [Element] = []
        array.reserveCapacity(n)
        for i in start..<count { array.append((storage + i).move()) }
        count = start
        return array
    }

    /// Drops the elements from `start` to the top.
    func removeAll(from start: Int) {
        (storage + start).deinitialize(count: count - start)
        count = start
    }
}

extension ScratchStack where Element == UInt64 {
    /// Whether the values from `start` to the top all differ; false also when there are more
    /// than `limit` of them (the caller then checks another way).
    func topRunIsDistinct(from start: Int, upTo limit: Int) -> Bool {
        let n = count - start
        guard n <= limit else { return false }
        if n > 6 {
            // Equal values set the same bit of 256; if no two values share a bit, they differ.
            var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            var shared = false
            for i in start..<count {
                let b = storage[i] >> 56
                let bit: UInt64 = 1 &<< (b & 63)
                switch b >> 6 {
                case 0: shared = shared || bits.0 & bit != 0; bits.0 |= bit
                case 1: shared = shared || bits.1 & bit != 0; bits.1 |= bit
                case 2: shared = shared || bits.2 & bit != 0; bits.2 |= bit
                default: shared = shared || bits.3 & bit != 0; bits.3 |= bit
                }
            }
            if !shared { return true }
        }
        var i = start + 1
        while i < count {
            let v = storage[i]
            var j = start
            while j < i {
                if storage[j] == v { return false }
                j += 1
            }
            i += 1
        }
        return true
    }
}

/// The parser's three scratch stacks, kept for this thread between parses (in a POSIX
/// thread-specific slot): making them for every parse was six allocations and six frees of
/// the ~70 a MEDIA_STATUS tree needs. A parse takes them out of the slot and puts them back
/// empty when it is done, so a parse started inside another on the same thread gets its own;
/// stacks that grew past `keptRoom` (only hostile input makes them) are not kept.
final class ParserScratch {
    let members = ScratchStack<JSONObject.Member>(capacity: 64)
    let elements = ScratchStack<JSONValue>(capacity: 64)
    let marks = ScratchStack<UInt64>(capacity: 64)

    static let keptRoom = 4096

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        // A thread that ends releases what its slot holds.
        let created = pthread_key_create(&key) { held in
            if let held { Unmanaged<ParserScratch>.fromOpaque(held).release() }
        }
        precondition(created == 0, "pthread_key_create failed (\(created))")
        return key
    }()

    static func take() -> ParserScratch {
        guard let held = pthread_getspecific(slot) else { return ParserScratch() }
        pthread_setspecific(slot, nil)
        return Unmanaged<ParserScratch>.fromOpaque(held).takeRetainedValue()
    }

    static func giveBack(_ scratch: ParserScratch) {
        // A parse that failed part-way leaves values on the stacks.
        scratch.members.removeAll(from: 0)
        scratch.elements.removeAll(from: 0)
        scratch.marks.removeAll(from: 0)
        guard max(scratch.members.capacity, scratch.elements.capacity, scratch.marks.capacity) <= keptRoom,
            pthread_getspecific(slot) == nil
        else { return }
        pthread_setspecific(slot, Unmanaged.passRetained(scratch).toOpaque())
    }
}
