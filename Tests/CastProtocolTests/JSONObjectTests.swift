// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// JSONObject: a JSON object's members in order, each name once, compared like a dictionary.
import Foundation
import Testing

@testable import CastProtocol

@Suite struct JSONObjectTests {
    func parse(_ text: String) throws -> JSONObject {
        try #require(try JSONValue(parsing: Array(text.utf8)).objectValue)
    }

    @Test func keepsTheDocumentOrder() throws {
        let object = try parse(#"{"zeta": 1, "alpha": 2, "mid": [1, {"b": 1, "a": 2}]}"#)
        #expect(object.keys == ["zeta", "alpha", "mid"])
        #expect(object["mid"]?.arrayValue?[1].objectValue?.keys == ["b", "a"])
        #expect(object.map(\.key) == ["zeta", "alpha", "mid"])
    }

    @Test func aRepeatedNameKeepsItsFirstPlaceAndLastValue() throws {
        let small = try parse(#"{"a": 1, "b": 2, "a": 3, "c": 4, "b": 5}"#)
        #expect(small.keys == ["a", "b", "c"])
        #expect(small["a"] == 3 && small["b"] == 5 && small["c"] == 4)
        // Above the pairwise limit the same rule holds (a hash table finds the repeats).
        var text = "{"
        for i in 0..<200 { text += "\"k\(i % 50)\": \(i)," }
        text += "\"last\": true}"
        let large = try parse(text)
        #expect(large.count == 51)
        #expect(large.keys.prefix(3) == ["k0", "k1", "k2"])
        #expect(large["k0"] == 150 && large["k49"] == 199 && large["last"] == true)
        let literal: JSONObject = ["x": 1, "y": 2, "x": 3]
        #expect(literal.keys == ["x", "y"] && literal["x"] == 3)
    }

    @Test func equalityAndHashingIgnoreOrder() throws {
        let a = try parse(#"{"a": 1, "b": [true, null], "c": {"d": "e"}}"#)
        let b = try parse(#"{"c": {"d": "e"}, "b": [true, null], "a": 1.0}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(JSONValue.object(a).hashValue == JSONValue.object(b).hashValue)
        #expect(a != (try parse(#"{"a": 1, "b": [true, null], "c": {"d": "f"}}"#)))
        #expect(a != (try parse(#"{"a": 1, "b": [true, null]}"#)))
        // Large objects compare through a table, with the same answers.
        let members = (0..<100).map { ("k\($0)", JSONValue.int(Int64($0))) }
        let forward = JSONObject(members: members), backward = JSONObject(members: members.reversed())
        #expect(forward == backward && forward.hashValue == backward.hashValue)
        var changed = backward
        changed["k7"] = 8
        #expect(forward != changed)
    }

    @Test func settingRemovingAndAppending() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["b"] = "two"
        object["c"] = nil
        object["d"] = [1]
        object["a"] = nil
        #expect(object.keys == ["b", "d"])
        #expect(object["b"] == "two" && object["d"] == [1] && object["a"] == nil)
        #expect(object.dictionary == ["b": "two", "d": [1]])
        #expect(JSONObject(["b": 1, "a": 2]).keys == ["a", "b"])
    }

    @Test func namesCompareAsCodeUnits() throws {
        // "é" precomposed (U+00E9) and decomposed (e + U+0301) are different names, as RFC 8259
        // §8.3 advises; a Swift dictionary would have merged them.
        let object = try parse("{\"\u{E9}\": 1, \"e\u{301}\": 2}")
        #expect(object.count == 2)
        #expect(object["\u{E9}"] == 1 && object["e\u{301}"] == 2)
    }

    @Test func writtenWithSortedNamesLikeJSONEncoder() throws {
        let object = try parse(#"{"b": 1, "a": {"z": null, "y": 2}}"#)
        #expect(CastJSON.encode(JSONValue.object(object)) == #"{"a":{"y":2,"z":null},"b":1}"#)
        let foundation = String(decoding: try JSONEncoder.sorted.encode(JSONValue.object(object)), as: UTF8.self)
        #expect(foundation == #"{"a":{"y":2,"z":null},"b":1}"#)
    }

    @Test func aHostileObjectWithManyMembersParses() throws {
        var text = "{"
        for i in 0..<20_000 { text += "\"m\(i)\":\(i)," }
        text += "\"m0\":-1}"
        let object = try parse(text)
        #expect(object.count == 20_000)
        #expect(object["m0"] == -1 && object["m19999"] == 19999)
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}
