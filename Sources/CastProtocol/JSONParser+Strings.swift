// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// JSONParser's strings: the plain-run scan, member names, unescaping; the parser's overview is in JSONParser.swift.
extension JSONParser {
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
            case UInt8(ascii: "b"):
                out[o] = 0x08
                o += 1
            case UInt8(ascii: "f"):
                out[o] = 0x0C
                o += 1
            case UInt8(ascii: "n"):
                out[o] = 0x0A
                o += 1
            case UInt8(ascii: "r"):
                out[o] = 0x0D
                o += 1
            case UInt8(ascii: "t"):
                out[o] = 0x09
                o += 1
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
            default:
                out[o] = e
                o += 1  // \" \\ \/
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
}
