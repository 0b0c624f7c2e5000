// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// SmallASCIIString and the parser's Strings: inline Strings built from their words must be the
// Strings the standard library makes from the same bytes, and repeated member names must be
// found however each name was spelled or stored.
import Testing

@testable import CastProtocol

@Suite struct SmallASCIIStringTests {
    /// Every String the fast path makes, for every length and several byte patterns, is the
    /// standard library's String of the same bytes: equal, same bytes, same hash, same count,
    /// usable as a dictionary key and in further string operations.
    @Test func madeStringsAreTheStandardLibrarysStrings() throws {
        #expect(SmallASCIIString.isAvailable, "this platform's small Strings are not laid out as modelled; the parser takes the slow path")
        try #require(SmallASCIIString.isAvailable)
        let patterns: [[UInt8]] = [
            Array(0x20...0x7E),  // printable ASCII
            Array(0x00...0x1F) + Array(0x60...0x7F),  // controls and DEL are ASCII too
            Array(repeating: 0x7F, count: 16),
            Array("https://media.example.org/".utf8),
        ]
        for pattern in patterns {
            for n in 0...15 {
                for offset in [0, 1, pattern.count - 16] where offset + n <= pattern.count {
                    let text = Array(pattern[offset..<(offset + n)])
                    let expected = String(decoding: text, as: UTF8.self)
                    for readable in Set([n, 8, 16, max(n, 8)]) where readable >= n {
                        // Pad so a whole word may be read when `readable` says so.
                        let padded = text + Array(repeating: 0xEE, count: 16)
                        let made = try #require(
                            padded.withUnsafeBufferPointer {
                                SmallASCIIString.make($0.baseAddress!, count: n, readable: readable)
                            })
                        #expect(made == expected)
                        #expect(Array(made.utf8) == text)
                        #expect(made.utf8.count == n && made.count == expected.count)
                        #expect(made.hashValue == expected.hashValue)
                        #expect([made: 1][expected] == 1)
                        #expect(made + "!" == expected + "!")
                        #expect(made.uppercased() == expected.uppercased())
                    }
                }
            }
        }
    }

    @Test func longOrNonASCIITextIsLeftToTheStandardLibrary() {
        let long = Array("sixteen bytes!!!".utf8)
        #expect(long.withUnsafeBufferPointer { SmallASCIIString.make($0.baseAddress!, count: 16, readable: 16) } == nil)
        let persian = Array("فارسی".utf8)
        #expect(persian.withUnsafeBufferPointer { SmallASCIIString.make($0.baseAddress!, count: $0.count, readable: $0.count) } == nil)
        let mixed = Array("abc\u{E9}".utf8)
        #expect(mixed.withUnsafeBufferPointer { SmallASCIIString.make($0.baseAddress!, count: $0.count, readable: $0.count) } == nil)
    }

    /// Strings near the end of the input (where no whole word may be read) and at every length
    /// come out of the parser as the standard library would make them.
    @Test func parsedStringsMatchAtEveryLengthAndPlace() throws {
        for n in 0...20 {
            let text = String((0..<n).map { Character(Unicode.Scalar(UInt8(0x41 + $0 % 26))) })
            let array = try JSONValue(parsing: Array("[\"\(text)\"]".utf8))
            #expect(array == .array([.string(text)]))
            let bare = try JSONValue(parsing: Array("\"\(text)\"".utf8))
            #expect(bare.stringValue == text)
            #expect(bare.stringValue.map { Array($0.utf8) } == Array(text.utf8))
        }
        let mixed = try JSONValue(parsing: Array(#"{"name":"فارسی","lang":"fa-IR","n":"\u0041B"}"#.utf8))
        #expect(mixed["name"] == "فارسی" && mixed["lang"] == "fa-IR" && mixed["n"] == "AB")
    }

    /// A name spelled with escapes is the same name: `\u0061bcdefghij` is stored out of line
    /// (its escaped form is longer than 15 bytes) and `abcdefghij` inline, and they must still
    /// be recognised as one member. Also for long names, and names that differ only late.
    @Test func repeatedNamesAreFoundWhateverTheirSpellingOrStorage() throws {
        let escaped = try #require(try JSONValue(parsing: Array(#"{"abcdefghij":1,"x":0,"\u0061bcdefghij":2}"#.utf8)).objectValue)
        #expect(escaped.keys == ["abcdefghij", "x"])
        #expect(escaped["abcdefghij"] == 2)
        let long = try #require(
            try JSONValue(parsing: Array(#"{"supportedMediaCommands":1,"supportedMediaCommandz":2,"supportedMediaCommands":3}"#.utf8)).objectValue)
        #expect(long.keys == ["supportedMediaCommands", "supportedMediaCommandz"])
        #expect(long["supportedMediaCommands"] == 3)
        let middle = try #require(try JSONValue(parsing: Array(#"{"abcdefgh_ijklmnopq":1,"abcdefgh-ijklmnopq":2}"#.utf8)).objectValue)
        #expect(middle.count == 2)
        let escapedLong = try #require(try JSONValue(parsing: Array(#"{"currentBreakClipTime":1,"current\u0042reakClipTime":2}"#.utf8)).objectValue)
        #expect(escapedLong.keys == ["currentBreakClipTime"] && escapedLong["currentBreakClipTime"] == 2)
        let nonASCII = try #require(try JSONValue(parsing: Array(#"{"é":1,"\u00e9":2,"e":3}"#.utf8)).objectValue)
        #expect(nonASCII.keys == ["é", "e"] && nonASCII["é"] == 2)
    }
}

/// Repeated names deep inside nested objects, beside and after other nested objects: each
/// object's names are checked against its own, whatever was read inside its members.
@Suite struct RepeatedNamesInNestedObjects {
    @Test func everyLevelKeepsItsNamesOnce() throws {
        let text =
            #"{"a":1,"b":{"c":1,"d":{"e":{"f":1,"g":2},"h":[{"i":1},{"i":2,"i":3}]},"c":{"x":1,"y":2,"z":3,"w":4,"v":5,"u":6,"t":7},"k":2},"l":[1],"b":3,"m":{}}"#
        let v = try JSONValue(parsing: Array(text.utf8))
        let top = try #require(v.objectValue)
        #expect(top.keys == ["a", "b", "l", "m"])
        #expect(top["b"] == 3)
        let inner = try JSONValue(parsing: Array(#"{"c":1,"d":{"e":{"f":1,"g":2},"h":[{"i":1},{"i":2,"i":3}]},"c":{"x":1},"k":2}"#.utf8))
        #expect(inner.objectValue?.keys == ["c", "d", "k"])
        #expect(inner["c"]?["x"] == 1)
        #expect(inner["d"]?["h"]?.arrayValue?[1].objectValue?.keys == ["i"])
        #expect(inner["d"]?["h"]?.arrayValue?[1]["i"] == 3)
        // Every object of the tree has each name once, and the whole survives a round trip.
        func check(_ value: JSONValue) {
            switch value {
            case .object(let o):
                #expect(Set(o.keys).count == o.keys.count, "repeated names in \(o.keys)")
                o.values.forEach(check)
            case .array(let a): a.forEach(check)
            default: break
            }
        }
        check(v)
        #expect(try JSONValue(parsing: Array(CastJSON.encode(v).utf8)) == v)
    }
}
