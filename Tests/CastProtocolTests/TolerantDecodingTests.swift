// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Testing

@testable import CastProtocol

func media(_ text: String) throws(CastProtocolError) -> MediaMessage {
    try CastJSON.decode(MediaMessage.self, from: text, namespace: CastNamespace.mediaURN)
}

func receiver(_ text: String) throws(CastProtocolError) -> ReceiverMessage {
    try CastJSON.decode(ReceiverMessage.self, from: text, namespace: CastNamespace.receiverURN)
}

@Suite struct TolerantDecoding {
    @Test func unknownFieldsAreIgnored() throws {
        let m = try media(
            #"{"type":"MEDIA_STATUS","requestId":3,"futureField":{"x":1},"status":[{"mediaSessionId":1,"playerState":"PAUSED","newThing":[1,2],"media":{"contentId":"a","brandNew":true}}]}"#
        )
        guard case .mediaStatus(let s) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.status.first?.playerState == .paused)
        #expect(s.status.first?.media?.contentId == "a")
    }

    @Test func unknownEnumValuesAreKeptNotFatal() throws {
        let text =
            #"{"type":"MEDIA_STATUS","requestId":0,"status":[{"mediaSessionId":1,"playerState":"WARPING","idleReason":"SOLAR_FLARE","repeatMode":"REPEAT_FOREVER","media":{"contentId":"a","streamType":"HOLOGRAM","metadata":{"metadataType":42,"title":"t"},"tracks":[{"trackId":1,"type":"SMELL","subtype":"AROMA"}],"textTrackStyle":{"edgeType":"GLOW","fontStyle":"WIDE","fontGenericFamily":"GOTHIC","windowType":"OVAL"}}}]}"#
        guard case .mediaStatus(let m) = try media(text), let s = m.status.first else {
            Issue.record("not a status")
            return
        }
        #expect(s.playerState == .unknown("WARPING"))
        #expect(!s.playerState.isKnown)
        #expect(s.idleReason == .unknown("SOLAR_FLARE"))
        #expect(s.repeatMode == .unknown("REPEAT_FOREVER"))
        #expect(s.media?.streamType == .unknown("HOLOGRAM"))
        #expect(s.media?.metadata?.metadataType == .unknown(42))
        #expect(s.media?.tracks?.first?.type == .unknown("SMELL"))
        #expect(s.media?.textTrackStyle?.edgeType == .unknown("GLOW"))
        // Written back exactly as received.
        let again = CastJSON.encode(MediaMessage.mediaStatus(m))
        #expect(try json(again).semanticallyEquals(try json(text)))
    }

    @Test func numbersArriveAsIntOrFloat() throws {
        let m = try media(
            #"{"type":"MEDIA_STATUS","requestId":5.0,"status":[{"mediaSessionId":1.0,"playerState":"PLAYING","currentTime":12,"playbackRate":2,"supportedMediaCommands":12303.0,"activeTrackIds":[1.0,2],"volume":{"level":1,"muted":false},"media":{"contentId":"x","duration":60,"metadata":{"metadataType":1.0,"images":[{"url":"u","width":480.0,"height":720}]}}}]}"#
        )
        guard case .mediaStatus(let s) = m, let st = s.status.first else {
            Issue.record("\(m)")
            return
        }
        #expect(s.requestId == 5)
        #expect(st.mediaSessionId == 1)
        #expect(st.currentTime == 12)
        #expect(st.playbackRate == 2)
        #expect(st.supportedMediaCommands == .allBasicMedia)
        #expect(st.activeTrackIds == [1, 2])
        #expect(st.media?.metadata?.metadataType == .movie)
        #expect(st.media?.metadata?.images?.first?.width == 480)
    }

    @Test func customDataIsAnyJSON() throws {
        let m = try media(#"{"type":"PLAY","requestId":1,"mediaSessionId":1,"customData":{"a":[1,2.5,"x",null,true,{"b":{}}]}}"#)
        guard case .play(let p) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(p.customData == ["a": [1, 2.5, "x", nil, true, ["b": [:]]]])
        let scalar = try media(#"{"type":"PLAY","requestId":1,"mediaSessionId":1,"customData":"just a string"}"#)
        guard case .play(let q) = scalar else {
            Issue.record("\(scalar)")
            return
        }
        #expect(q.customData == "just a string")
    }

    @Test func namespacesAsObjectsOrStrings() throws {
        let m = try receiver(
            #"{"type":"RECEIVER_STATUS","requestId":1,"status":{"applications":[{"appId":"CC1AD845","sessionId":"s","transportId":"t","namespaces":["urn:x-cast:com.google.cast.media",{"name":"urn:x-cast:x.y"}]}]}}"#
        )
        guard case .receiverStatus(let s) = m else {
            Issue.record("\(m)")
            return
        }
        let app = try #require(s.status.runningApp)
        #expect(app.handles(CastNamespace.mediaURN))
        #expect(app.handles("urn:x-cast:x.y"))
        #expect(!app.handles("urn:x-cast:other"))
    }

    @Test func tvShowAirdateInEitherSpelling() throws {
        let a = try JSONDecoder().decode(MediaMetadata.self, from: Data(#"{"metadataType":2,"originalAirDate":"2011-04-17"}"#.utf8))
        #expect(a.originalAirdate == "2011-04-17")
        #expect(CastJSON.encode(a).contains("\"originalAirdate\""))
    }

    @Test func duplicateRequestIdInBothSpellings() throws {
        for spelling in ["DUPLICATE_REQUEST_ID", "DUPLICATE_REQUESTID"] {
            guard case .invalidRequest(let e) = try media(#"{"type":"INVALID_REQUEST","requestId":2,"reason":"\#(spelling)"}"#) else {
                Issue.record("not an error")
                continue
            }
            #expect(e.reason == .duplicateRequestID)
        }
    }

    @Test func unknownTypeIsKeptWithItsPayload() throws {
        let m = try media(#"{"type":"LOAD_BY_ENTITY","requestId":9,"entity":"x"}"#)
        #expect(m == .unknown(type: "LOAD_BY_ENTITY", payload: ["type": "LOAD_BY_ENTITY", "requestId": 9, "entity": "x"]))
        #expect(m.requestId == 9)
    }
}

@Suite struct ClearErrors {
    @Test(arguments: [
        ("[1,2,3]", "not a JSON object"),
        ("\"PING\"", "not a JSON object"),
        ("{not json", "not valid JSON"),
        (#"{"requestId":1}"#, "“type” is missing"),
        (#"{"type":"LOAD","requestId":1}"#, "“media” is missing"),
        (#"{"type":"LOAD","requestId":"one","media":{"contentId":"a"}}"#, "“requestId” is not an integer"),
        (#"{"type":"SEEK","requestId":1.5,"mediaSessionId":1}"#, "“requestId” is not an integer"),
        (#"{"type":"PLAY","requestId":1} trailing"#, "not valid JSON (unexpected data after the JSON value at byte 30)"),
    ])
    func badJSONSaysWhatIsWrong(text: String, expected: String) {
        do {
            _ = try media(text)
            Issue.record("decoded \(text)")
        } catch {
            guard case .invalidJSON(let ns, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(ns == CastNamespace.mediaURN)
            #expect(reason.contains(expected), "\(reason)")
            #expect(error.description.contains(CastNamespace.mediaURN))
        }
    }

    @Test func binaryPayloadOnAJSONNamespace() {
        let m = CastMessage(sourceID: "a", destinationID: "b", namespace: CastNamespace.mediaURN, payload: .binary([1, 2]))
        #expect(throws: CastProtocolError.unexpectedPayloadType(namespace: CastNamespace.mediaURN)) { try m.decoded() }
    }

    @Test func customNamespacesPassThroughAsTheyCame() throws {
        let ns = "urn:x-cast:com.google.cast.sample.helloworld"
        let text = CastMessage(source: "s", destination: "t", namespace: ns, utf8: "hello, not even JSON")
        #expect(try text.decoded() == .custom(namespace: ns, payload: .string("hello, not even JSON")))
        let bin = CastMessage(sourceID: "s", destinationID: "t", namespace: ns, payload: .binary([0, 255, 7]))
        #expect(try bin.decoded() == .custom(namespace: ns, payload: .binary([0, 255, 7])))
    }

    @Test(arguments: ["urn:x-cast:", "urn:x-cast:a b", "x-cast:com.x", "urn:x-cast:" + String(repeating: "a", count: 118), ""])
    func invalidCustomNamespaces(ns: String) {
        #expect(throws: CastProtocolError.invalidNamespace(ns)) { try CastNamespace.validatedCustom(ns) }
    }

    @Test func validCustomNamespace() throws {
        #expect(try CastNamespace.validatedCustom("urn:x-cast:com.example.game") == .custom("urn:x-cast:com.example.game"))
        #expect(try CastNamespace.validatedCustom(CastNamespace.mediaURN) == .media)
    }
}
