// SPDX-License-Identifier: GPL-3.0-or-later

/// Makes short ASCII Strings from their bytes without the standard library's general path.
///
/// On 64-bit platforms a String of at most 15 UTF-8 bytes is stored inline in the String's
/// two words: the first holds bytes 0–7, the second bytes 8–14, and the second's top byte
/// holds the form (immortal, small, ASCII: 0xE0) and the count. Most text in a Cast message
/// is that short (member names, ids, languages, MIME types, colours), and making each one
/// through `String(decoding:as:)` or `String(unsafeUninitializedCapacity:)` costs 50–130
/// instructions: an ASCII scan, then the bytes moved into the inline form one at a time,
/// behind two calls. Here the two words are loaded and masked, and the String is those words:
/// a fifth of parsing an untyped MEDIA_STATUS tree went to making its 218 Strings (callgrind).
///
/// The layout is not public API, so it is never assumed: `isAvailable` compares the words
/// this type would make with the words of Strings the standard library made from the same
/// bytes, for every length from 0 to 15, once per process, by reading them (which is always
/// safe). Only when every one agrees does the parser build Strings this way; otherwise it uses
/// `String(unsafeUninitializedCapacity:)`. `SmallASCIIStringTests` checks the result against
/// the standard library's for every length, and the fuzzer's round trips cover the rest.
enum SmallASCIIString {
    /// The top byte of the second word of a small ASCII String: the form, then the count.
    static let smallASCIIForm: UInt64 = 0xE0

    /// Whether this process's standard library stores small ASCII Strings as modelled here.
    static let isAvailable: Bool = {
        guard MemoryLayout<String>.size == 16 else { return false }
        let alphabet: [UInt8] = Array("abcdefghijklmnoXYZ0123456789-_./".utf8)
        for n in 0...15 {
            for offset in [0, 7, 16] {
                let text = Array(alphabet[offset..<(offset + n)])
                // Made at run time from bytes, as the parser's Strings are, not from a literal.
                let made = String(decoding: text, as: UTF8.self)
                let real = unsafeBitCast(made, to: (UInt64, UInt64).self)
                let modelled = text.withUnsafeBufferPointer { b in
                    words(b.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: n, readable: n)
                }
                guard real.0 == modelled.0, real.1 == modelled.1 | (smallASCIIForm | UInt64(n)) << 56 else { return false }
            }
        }
        return true
    }()

    /// Bytes 0–7 and 8–14 of `count` (≤ 15) bytes at `text`, little-endian, zero above the end.
    /// `readable` is how many bytes may be read from `text` (at least `count`): a whole word is
    /// loaded when it stays inside.
    @inline(__always)
    static func words(_ text: UnsafePointer<UInt8>, count n: Int, readable: Int) -> (UInt64, UInt64) {
        let raw = UnsafeRawPointer(text)
        if n >= 8 {
            let low = raw.loadUnaligned(as: UInt64.self)
            // The last eight bytes, shifted down so that byte 8 comes first.
            let high = n == 8 ? 0 : raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) &>> UInt64((16 - n) * 8)
            return (low, high)
        }
        if readable >= 8 {
            return (raw.loadUnaligned(as: UInt64.self) & ((1 &<< UInt64(n * 8)) &- 1), 0)
        }
        var low: UInt64 = 0
        for i in 0..<n { low |= UInt64(text[i]) &<< UInt64(i * 8) }
        return (low, 0)
    }

    /// The String of `count` bytes at `text`, when they are at most 15 ASCII bytes; nil
    /// otherwise. Only call it when `isAvailable` is true.
    @inline(__always)
    static func make(_ text: UnsafePointer<UInt8>, count n: Int, readable: Int) -> String? {
        guard n <= 15 else { return nil }
        let (low, high) = words(text, count: n, readable: readable)
        guard (low | high) & 0x8080_8080_8080_8080 == 0 else { return nil }
        var words = (low, high | (smallASCIIForm | UInt64(n)) << 56)
        // Moved out of memory rather than bit-cast: a bit-cast value is copied, and the copy
        // of a String costs a (useless, for an inline String) retain call.
        return withUnsafeMutablePointer(to: &words) {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: String.self).move()
        }
    }

    /// A small String's two words, or nil for a String stored out of line. Reading a String's
    /// words is always safe; this tells the inline forms (ASCII or not) by their form bit.
    @inline(__always)
    static func inlineWords(of string: String) -> (UInt64, UInt64)? {
        let w = unsafeBitCast(string, to: (UInt64, UInt64).self)
        // Bit 61 of the second word marks the inline form.
        return w.1 & (1 << 61) != 0 ? w : nil
    }
}
