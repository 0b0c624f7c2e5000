// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// The character set of a subtitle file, as detected.
public enum TextEncoding: String, Sendable, Hashable {
    case utf8, utf8BOM = "utf8-bom", utf16LE = "utf16le", utf16BE = "utf16be", windows1252
}

/// Turns the bytes of a subtitle file into text without mojibake: a BOM decides first
/// (UTF-8, UTF-16 LE/BE); without one, UTF-16 is recognised by its zero bytes, valid
/// UTF-8 is taken as such, and anything else is Windows-1252 (a superset of Latin-1 for
/// printable text, and what most old Western SRT files are written in).
public enum TextDecoding {
    public static func decode(_ bytes: [UInt8]) -> (text: String, encoding: TextEncoding) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return (String(decoding: bytes.dropFirst(3), as: UTF8.self), .utf8BOM)
        }
        if bytes.starts(with: [0xFF, 0xFE]) { return (utf16(bytes.dropFirst(2), littleEndian: true), .utf16LE) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (utf16(bytes.dropFirst(2), littleEndian: false), .utf16BE) }
        // No BOM: mostly-ASCII UTF-16 has a zero in every other byte.
        let sample = bytes.prefix(4096)
        if sample.count >= 4 {
            var evenZeros = 0, oddZeros = 0
            for (i, b) in sample.enumerated() where b == 0 { if i % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 } }
            let pairs = sample.count / 2
            if oddZeros > pairs / 3, evenZeros < pairs / 20 { return (utf16(bytes[...], littleEndian: true), .utf16LE) }
            if evenZeros > pairs / 3, oddZeros < pairs / 20 { return (utf16(bytes[...], littleEndian: false), .utf16BE) }
        }
        if let s = String(validatingUTF8Bytes: bytes) { return (s, .utf8) }
        return (String(String.UnicodeScalarView(bytes.map(windows1252))), .windows1252)
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i + 1 < bytes.endIndex {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(littleEndian ? a | b << 8 : a << 8 | b)
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Windows-1252's 0x80–0x9F block (undefined bytes map to U+FFFD); every other byte is its Latin-1 code point.
    private static let high: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    ]

    static func windows1252(_ b: UInt8) -> Unicode.Scalar {
        if (0x80...0x9F).contains(b) { return Unicode.Scalar(high[Int(b - 0x80)])! }
        return Unicode.Scalar(b)
    }
}

extension String {
    /// Nil unless `bytes` are well-formed UTF-8.
    init?(validatingUTF8Bytes bytes: [UInt8]) {
        var it = bytes.makeIterator()
        var decoder = UTF8()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&it) {
            case .scalarValue(let s): scalars.append(s)
            case .emptyInput:
                self = String(scalars)
                return
            case .error: return nil
            }
        }
    }
}
