// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// JSONParser's numbers: the one-pass common case, the grammar check, Int64 and correctly rounded doubles; the parser's overview is in JSONParser.swift.
extension JSONParser {
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
            if c == UInt8(ascii: "-") {
                negative = true
                continue
            }
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
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
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
                if e > 400 {
                    fast = false
                    break
                }
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
