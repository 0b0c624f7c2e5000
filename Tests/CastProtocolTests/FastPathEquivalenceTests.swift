// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Testing

@_spi(Reference) @testable import CastProtocol

/// The one-pass MEDIA_STATUS reader and the hand-written protobuf envelope are fast paths
/// beside reference implementations (the JSON tree + Codable, protoc's generated code). These
/// tests hold them to the references: on every fixture, on every fixture cut short, and on
/// thousands of mutations, the fast path either agrees exactly or steps aside.
@Suite struct FastPathEquivalence {
    static let mediaStatusFixtures = Fixtures.all().filter { $0.hasPrefix("media/media-status") }

    /// What the tree path makes of the bytes (or its error).
    func throughTree(_ bytes: [UInt8]) -> Result<MediaMessage, CastProtocolError> {
        Result { () throws(CastProtocolError) in try CastJSON.decodeThroughTree(MediaMessage.self, fromUTF8: bytes, namespace: "media") }
    }

    /// The fast reader's answer must equal the tree's whenever it gives one; when it gives
    /// none, `CastJSON.decode` must still equal the tree (it falls back to it).
    func check(_ bytes: [UInt8], _ label: String) {
        let tree = throughTree(bytes)
        if let fast = CastJSON.readMediaStatus(bytes) {
            #expect(tree == .success(fast), "fast path disagrees with the tree on \(label)")
        }
        let public_ = Result { () throws(CastProtocolError) in try CastJSON.decode(MediaMessage.self, fromUTF8: bytes, namespace: "media") }
        #expect(public_ == tree, "CastJSON.decode differs from the tree on \(label)")
    }

    @Test(arguments: mediaStatusFixtures)
    func fixturesTakeTheFastPathAndAgree(_ name: String) throws {
        let bytes = Array(try Fixtures.text(name).utf8)
        #expect(CastJSON.readMediaStatus(bytes) != nil, "\(name) should be read in one pass")
        check(bytes, name)
    }

    @Test func truncationsAndMutationsAgree() throws {
        var rng = SplitMix64(state: 7)
        let alphabet = Array(#"{}[],:"\ -.0123456789eEtrufalsn/u00"#.utf8) + [0x00, 0x1F, 0xC3, 0xA9, 0xFF]
        for name in Self.mediaStatusFixtures {
            let original = Array(try Fixtures.text(name).utf8)
            for cut in stride(from: 0, to: original.count, by: max(1, original.count / 60)) {
                check(Array(original[..<cut]), "\(name) cut at \(cut)")
            }
            for round in 0..<400 {
                let bytes = rng.mutate(original, maxEdits: 3, alphabet: alphabet)
                check(bytes, "\(name) mutation \(round)")
            }
        }
    }

    @Test func shapesTheReaderLeavesToTheTree() throws {
        let cases = [
            #"{"\u0074ype":"MEDIA_STATUS","status":[]}"#,  // escaped key
            #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1.5,"playerState":"IDLE"}]}"#,  // not an integer
            #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1}]}"#,  // missing playerState
            #"{"type":"MEDIA_STATUS","status":null}"#,
            #"{"type":"LOAD","status":[]}"#,
            #"{"status":[],"type":"MEDIA_STATUS","type":"PING"}"#,  // duplicate type: the last wins
            #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"playerState":"IDLE","currentTime":1e400}]}"#,
            #"{"type":"MEDIA_STATUS","status":[]} x"#,
        ]
        for text in cases { check(Array(text.utf8), text) }
        // …and the forms it must read itself, equal to the tree.
        let fast = [
            #"{"status":[{"playerState":"PAUSED","mediaSessionId":2.0,"currentTime":-0,"unknown":{"a":[1,2,{"b":null}]}}],"type":"MEDIA_STATUS"}"#,
            #"{ "type" : "MEDIA_STATUS" , "requestId" : null , "status" : [ ] , "customData" : { "k" : "v\n" } }"#,
            #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":3,"playerState":"NEW_STATE","media":{"contentId":"a\/b\u00e9\ud83d\ude00\ud800x","streamType":"SOMETHING"}}]}"#,
        ]
        for text in fast {
            #expect(CastJSON.readMediaStatus(Array(text.utf8)) != nil, "\(text) should be read in one pass")
            check(Array(text.utf8), text)
        }
    }

    @Test func numbersConvertExactlyAsTheStandardLibraryDoes() throws {
        var rng = SplitMix64(state: 99)
        var texts = [
            "0", "-0", "0.1", "1e22", "1e23", "123456789012345", "1234567890123456", "9007199254740993",
            "0.000001", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "-12.5e-3", "1E+2",
        ]
        for _ in 0..<3000 {
            let digits = String(UInt64.random(in: 0...UInt64.max, using: &rng)).prefix(Int.random(in: 1...17, using: &rng))
            let point = Int.random(in: 0...digits.count, using: &rng)
            var t = String(digits.prefix(point)).isEmpty ? "0" : String(digits.prefix(point))
            if t.count > 1, t.hasPrefix("0") { t = "1" + t }
            if point < digits.count { t += "." + digits.dropFirst(point) }
            if Bool.random(using: &rng) { t += "e\(Int.random(in: -30...30, using: &rng))" }
            texts.append(Bool.random(using: &rng) ? "-" + t : t)
        }
        for t in texts {
            let bytes = Array(t.utf8)
            let parsed = try bytes.withUnsafeBufferPointer { b in
                var p = JSONParser(bytes: b)
                return try p.readDouble()
            }
            #expect(parsed == Double(t), "\(t)")
        }
    }

    // MARK: the protobuf envelope

    @Test func envelopeBytesEqualProtocsForEveryFixture() throws {
        for name in Fixtures.all() {
            let m = try Fixtures.message(name)
            var reference = ProtoCastMessage()
            reference.protocolVersion = .castv210
            reference.sourceID = m.sourceID
            reference.destinationID = m.destinationID
            reference.namespace = m.namespace
            reference.payloadType = .string
            reference.payloadUtf8 = m.utf8!
            #expect(m.serializedBody() == (try reference.serializedBytes() as [UInt8]), "\(name)")
        }
    }

    @Test func envelopeParsingAgreesWithProtocOnMutations() throws {
        var rng = SplitMix64(state: 5)
        let seeds = [
            ping().serializedBody(),
            CastMessage(sourceID: "s", destinationID: "d", namespace: CastNamespace.deviceAuthURN, payload: .binary([1, 2, 3])).serializedBody(),
            ping().serializedBody() + [0x40, 0x01, 0x48, 0x05, 0xA0, 0x06, 0x01, 0x5B, 0x08, 0x01, 0x5C],
        ]
        for seed in seeds {
            for _ in 0..<3000 {
                var body = seed
                for _ in 0...Int.random(in: 0...2, using: &rng) {
                    let i = Int.random(in: 0..<body.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: body[i] = UInt8.random(in: 0...255, using: &rng)
                    case 1: body.remove(at: i)
                    default: body.insert(UInt8.random(in: 0...255, using: &rng), at: i)
                    }
                    if body.isEmpty { body = seed }
                }
                let ours = try? CastMessage(serializedBody: body)
                let reference = try? ProtoCastMessage(serializedBytes: body)
                guard let reference, reference.isInitialized else {
                    #expect(ours == nil, "accepted what protoc refuses: \(body)")
                    continue
                }
                // protoc's parse succeeded: ours must too unless the semantic checks refuse it.
                let semanticallyValid =
                    !reference.sourceID.isEmpty && !reference.destinationID.isEmpty && !reference.namespace.isEmpty
                    && (reference.payloadType == .string ? reference.hasPayloadUtf8 : reference.hasPayloadBinary)
                if semanticallyValid {
                    #expect(
                        ours?.sourceID == reference.sourceID && ours?.namespace == reference.namespace,
                        "refused what protoc reads: \(body) \(String(describing: Result { () throws(CastProtocolError) in try CastMessage(serializedBody: body) }))"
                    )
                    if reference.payloadType == .string { #expect(ours?.utf8 == reference.payloadUtf8) }
                } else {
                    #expect(ours == nil)
                }
            }
        }
    }
}
