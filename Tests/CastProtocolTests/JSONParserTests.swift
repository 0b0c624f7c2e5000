// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Synchronization
import Testing

@_spi(Reference) @testable import CastProtocol

@Suite struct JSONParsing {
    func parse(_ text: String) throws(CastProtocolError) -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }

    @Test func scalarsAndContainers() throws {
        #expect(
            try parse(#" { "a" : [1, -2, 3.5, -0.25e2, 1E3, true, false, null, "s"], "b": {} } "#)
                == ["a": [1, -2, 3.5, -25.0, 1000.0, true, false, nil, "s"], "b": [:]])
        #expect(try parse("[]") == [])
        #expect(try parse("0") == 0)
        #expect(try parse("-0") == .int(0))
    }

    @Test func integersBeyondInt64BecomeDoubles() throws {
        #expect(try parse("9223372036854775807") == .int(Int64.max))
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func escapes() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u00e9\u4E2D\uD83D\uDE00""#) == .string("é中😀"))
        // Lone surrogates are replaced, not fatal.
        #expect(try parse(#""\uD83D x""#) == .string("\u{FFFD} x"))
        #expect(try parse(#""\uDE00""#) == .string("\u{FFFD}"))
        #expect(try parse("\"فارسی 中文\"") == .string("فارسی 中文"))
    }

    @Test(arguments: [
        "", " ", "{", "[1,", "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "[1,]", "tru", "nul", "01", "1.", "-", "1e", ".5",
        "\"abc", "\"\\x\"", "\"\\u12G4\"", "\"a\u{01}b\"", "{1:2}", "[1]]", "NaN", "Infinity", "1e999", "'a'",
    ])
    func rejectsInvalidJSON(text: String) {
        #expect(throws: CastProtocolError.self) { try parse(text) }
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let ok = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        _ = try parse(ok)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try parse(deep)
            Issue.record("accepted 100,000 levels")
        } catch {
            #expect(error.description.contains("nesting deeper than 256 levels"))
        }
    }

    @Test func duplicateKeysKeepTheLast() throws {
        #expect(try parse(#"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test func agreesWithFoundationOnTheFixtures() throws {
        for name in Fixtures.all() {
            let text = try Fixtures.text(name)
            let ours = try parse(text)
            let theirs = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            #expect(ours.semanticallyEquals(theirs), "\(name)")
        }
    }
}

@Suite struct JSONNumbers {
    @Test func numbersCompareByValue() {
        #expect(JSONValue.int(1) == .double(1.0))
        #expect(JSONValue.double(1.5) != .int(1))
        #expect(Set<JSONValue>([.int(2), .double(2.0)]).count == 1)
        #expect(JSONValue.object(["level": .double(1.0)]) == ["level": 1])
    }

    /// Found by the fuzzer: a float with no fraction is written as `1` by the encoder and must
    /// still be the same value after the round trip.
    @Test func integralFloatsSurviveTheRoundTrip() throws {
        let text = #"{"type":"SOMETHING_NEW","volume":{"level":1.0}}"#
        let first = try CastJSON.decode(MediaMessage.self, from: text, namespace: "m")
        let again = try CastJSON.decode(MediaMessage.self, from: CastJSON.encode(first), namespace: "m")
        #expect(first == again)
    }
}

/// Inputs the fuzzer once crashed on (Fixtures/regressions/*.bin) must now decode, or fail
/// cleanly, and round-trip to an equal value in every namespace family.
@Suite struct FuzzRegressions {
    static let files: [String] = {
        let dir = Fixtures.root.appendingPathComponent("regressions")
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".bin") }.sorted()
    }()

    /// Decodes `bytes` as an `M`. When that works, the value must survive encode → decode
    /// unchanged (a failure there is recorded, not skipped); when it does not, the refusal is
    /// a typed `CastProtocolError` that names the namespace. Returns whether it decoded.
    func roundTrip<M: CastJSONMessage>(_: M.Type, _ bytes: [UInt8]) -> Bool {
        let first: M
        do {
            first = try CastJSON.decode(M.self, fromUTF8: bytes, namespace: "fuzz")
        } catch {
            #expect("\(error)".contains("fuzz"), "a refusal says where: \(error)")
            return false
        }
        do {
            let again = try CastJSON.decode(M.self, from: CastJSON.encode(first), namespace: "fuzz")
            #expect(first == again, "\(M.self) changed in the round trip")
        } catch {
            Issue.record("\(M.self) decoded, but its own encoding does not: \(error)")
        }
        return true
    }

    @Test func thereAreRegressionInputs() { #expect(!Self.files.isEmpty) }

    @Test(arguments: files)
    func replays(file: String) throws {
        let bytes = Array(try Data(contentsOf: Fixtures.root.appendingPathComponent("regressions/\(file)")))
        let decoded = [
            roundTrip(MediaMessage.self, bytes), roundTrip(ReceiverMessage.self, bytes),
            roundTrip(ConnectionMessage.self, bytes), roundTrip(HeartbeatMessage.self, bytes),
        ]
        // Every regression input is a JSON object with a `type`: each family reads it (known
        // or as `.unknown`), so a refusal here means the fix regressed.
        #expect(decoded == [true, true, true, true], "\(file) decoded as [media, receiver, connection, heartbeat]: \(decoded)")
    }
}

/// Numbers are read in one pass when they are of the common kind (`JSONParser.quickNumber`)
/// and in two otherwise; both must give what the standard library's conversions give, and
/// the typed reader's integers and doubles the same as the tree's.
@Suite struct OnePassNumbers {
    /// Integers and decimals around every boundary the one-pass reading has: 15 digits with a
    /// fraction, 18 without, leading zeros, negative zero, and exponents (always two passes).
    static let texts: [String] = {
        var texts = [
            "0", "-0", "0.0", "-0.0", "1", "-1", "7", "0.5", "-0.5", "12.25", "0.1", "0.3", "2.675", "1.005",
            "123456789012345", "1234567890123456", "123456789012345678", "1234567890123456789",
            "999999999999999999", "9999999999999999999", "-999999999999999999", "9223372036854775807",
            "0.000000000000001", "0.0000000000000001", "1.23456789012345", "1.234567890123456",
            "12345678901234.5", "123456789012345.6", "99999999999999.99", "4503599627370497.5",
            "1e0", "1E2", "-2.5e-3", "6.02214076e23", "1e-400", "0.1e1", "31.5", "888.0", "12815",
        ]
        for digits in 1...20 {
            let integer = String(repeating: "9", count: digits)
            texts += [integer, "-" + integer, "1" + String(repeating: "0", count: digits - 1)]
            for point in 1..<digits { texts.append(String(integer.prefix(point)) + "." + String(integer.dropFirst(point))) }
        }
        return texts
    }()

    @Test func treeNumbersMatchTheStandardLibrary() throws {
        for text in Self.texts {
            let value = try JSONValue(parsing: Array(text.utf8))
            let isInteger = !text.contains(".") && !text.lowercased().contains("e")
            if isInteger, let exact = Int64(text) {
                #expect(value == .int(exact), "\(text)")
                if case .int = value {} else { Issue.record("\(text) should be an integer, is \(value)") }
            } else {
                let expected = try #require(Double(text), "\(text)")
                guard case .double(let d) = value else {
                    Issue.record("\(text) should be a double, is \(value)")
                    continue
                }
                #expect(d.bitPattern == expected.bitPattern, "\(text): \(d) against \(expected)")
            }
            // Inside an array, followed by more input, the number ends where it should.
            #expect(try JSONValue(parsing: Array("[\(text),1]".utf8)).arrayValue?.count == 2)
        }
    }

    @Test func typedReadersAgreeWithTheTree() throws {
        for text in Self.texts {
            let tree = try JSONValue(parsing: Array(text.utf8))
            let bytes = Array(text.utf8)
            let double = bytes.withUnsafeBufferPointer { b -> Double? in
                var p = JSONParser(bytes: b)
                return try? p.readDouble()
            }
            #expect(double.map { $0.bitPattern } == tree.doubleValue.map { $0.bitPattern } || (double == 0 && tree.doubleValue == 0), "\(text)")
            let int = bytes.withUnsafeBufferPointer { b -> Int? in
                var p = JSONParser(bytes: b)
                return try? p.readInt()
            }
            #expect(int == tree.intValue, "\(text)")
        }
    }

    @Test(arguments: ["01", "-", "-a", "1.", "1.e3", "1e", "1e+", "--1", "+1", ".5", "1.5.5"])
    func malformedNumbersAreRefused(text: String) {
        #expect(throws: CastProtocolError.self) { try JSONValue(parsing: Array(text.utf8)) }
        #expect(throws: CastProtocolError.self) { try JSONValue(parsing: Array("[\(text)]".utf8)) }
    }
}

/// The parser keeps its scratch stacks per thread between parses (`ParserScratch`): parses on
/// many threads at once, a parse after one that failed half-way, and a parse after one whose
/// stacks grew large must all give exactly what a fresh parser gives.
@Suite struct ParserScratchReuse {
    static let text = #"{"a":[1,{"b":"c","d":[true,null]}],"e":{"f":{"g":"h"},"f":2},"i":"jklmnopqrstuvwxyz"}"#
    static let expected: JSONValue = ["a": [1, ["b": "c", "d": [true, nil]]], "e": ["f": 2], "i": "jklmnopqrstuvwxyz"]

    @Test func parsesOnManyThreadsAtOnceAgree() {
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            for _ in 0..<200 {
                let ok = (try? JSONValue(parsing: Array(Self.text.utf8))) == Self.expected
                // Every other thread also decodes a status, which reads through the same stacks.
                let status =
                    i % 2 == 0
                    || CastJSON.readMediaStatus(
                        Array(#"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"playerState":"IDLE","customData":{"x":[{"y":1}]}}]}"#.utf8)) != nil
                if !(ok && status) { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test func aParseAfterAFailedOneIsClean() throws {
        for broken in [#"{"a":[1,{"b":"c","d":[true,"#, #"{"a":{"b":{"c":1,"#, #"[[[{"x":1},{"y":"#] {
            #expect(throws: CastProtocolError.self) { try JSONValue(parsing: Array(broken.utf8)) }
            #expect(try JSONValue(parsing: Array(Self.text.utf8)) == Self.expected)
        }
    }

    @Test func aParseAfterAHugeOneIsClean() throws {
        let members = (0..<10_000).map { "\"k\($0)\":[\($0)]" }.joined(separator: ",")
        let huge = try JSONValue(parsing: Array("{\(members)}".utf8))
        #expect(huge.objectValue?.count == 10_000)
        #expect(try JSONValue(parsing: Array(Self.text.utf8)) == Self.expected)
    }
}
