// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Testing

@testable import LocalMedia

/// The XML reader XSPF playlists go through: what a well-formed document gives, and a
/// clear refusal (with its line) for everything that is not well-formed or not allowed.
@Suite("XML events")
struct XMLEventsTests {
    func events(_ text: String) throws -> [XMLEvents.Event] {
        var out: [XMLEvents.Event] = []
        try XMLEvents.read(text) { out.append($0) }
        return out
    }

    func failure(_ text: String) -> String? {
        do {
            try XMLEvents.read(text) { _ in }
            return nil
        } catch {
            return error.description
        }
    }

    @Test func elementsAttributesTextAndReferences() throws {
        let doc = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <x:playlist version='1' xmlns:x="http://xspf.org/ns/0/" a = "1 &lt; 2 &amp; &#x263A;">
              <title>Tom &amp; Jerry &#233;t&#xE9; <![CDATA[<raw> & ]]>end</title><empty/>
            </x:playlist>
            """
        #expect(
            try events(doc) == [
                .start(name: "x:playlist", attributes: ["version": "1", "xmlns:x": "http://xspf.org/ns/0/", "a": "1 < 2 & ☺"]),
                .text("\n  "),
                .start(name: "title", attributes: [:]),
                .text("Tom & Jerry été <raw> & end"),
                .end(name: "title"),
                .start(name: "empty", attributes: [:]),
                .end(name: "empty"),
                .text("\n"),
                .end(name: "x:playlist"),
            ])
    }

    @Test(arguments: [
        ("<a><b></a>", "line 1: </a> closes <b>"),
        ("<a>\n<b>", "line 2: <b> is not closed"),
        ("<a/><b/>", "a second root element"),
        ("hello <a/>", "text outside the root element"),
        ("<a>&nbsp;</a>", "the entity &nbsp; is not defined"),
        ("<a>AT&T</a>", "“&” that starts no reference"),
        ("<a>&#0;</a>", "is not a character XML allows"),
        ("<a>&#xD800;</a>", "is not a character XML allows"),
        ("<!DOCTYPE a><a/>", "declarations (<!DOCTYPE, <!ENTITY) are not read"),
        ("<a b=c/>", "an attribute value must be quoted"),
        ("<a b=\"1\" b=\"2\"/>", "repeats the attribute b"),
        ("<a b=\"<\"/>", "“<” inside an attribute value"),
        ("<a b=\"1\"c=\"2\"/>", "must be separated by spaces"),
        ("<a><!-- never closed</a>", "a comment is not closed"),
        ("<a><![CDATA[ x </a>", "a CDATA section is not closed"),
        ("", "there is no root element"),
        ("<1a/>", "expected a name"),
    ])
    func refusals(document: String, reason: String) {
        let message = failure(document)
        #expect(message?.contains(reason) == true, "\(document): \(message ?? "accepted")")
    }

    @Test func nestingIsCapped() {
        let deep = String(repeating: "<a>", count: 65) + String(repeating: "</a>", count: 65)
        #expect(failure(deep)?.contains("more than 64 deep") == true)
        let fine = String(repeating: "<a>", count: 64) + String(repeating: "</a>", count: 64)
        #expect(failure(fine) == nil)
    }

    @Test func everyPrefixOfADocumentIsRefusedOrRead() {
        // Cut anywhere, the reader answers (an error or events) and never traps.
        let doc = #"<?xml version="1.0"?><playlist><trackList><track><location>a%20b.mp3</location><title>&quot;Q&quot;</title></track></trackList></playlist>"#
        let bytes = Array(doc.utf8)
        for n in 0..<bytes.count {
            #expect(failure(String(decoding: bytes[..<n], as: UTF8.self)) != nil, "prefix of \(n) bytes was accepted")
        }
        #expect(failure(doc) == nil)
    }
}
