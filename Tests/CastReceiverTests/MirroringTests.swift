// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import CastReceiver
import CastStreaming
import Foundation
import XCTest

/// Cast Streaming's OFFER and ANSWER with the simulator over TLS (the frames themselves:
/// CastStreamingTests and Tests/System/run-mirror.sh).
final class MirroringTests: ReceiverTestCase, @unchecked Sendable {
    func video(index: Int = 0, codec: String = "vp8") -> OfferedStream {
        var s = OfferedStream(
            index: index, kind: .video, codecName: codec, payloadType: 96, ssrc: 1234, targetDelayMs: 400, aesKey: FrameCrypto.randomBytes(),
            aesIvMask: FrameCrypto.randomBytes(), clockRate: 90000, bitRate: 2_000_000)
        (s.width, s.height, s.maxFrameRate) = (1280, 720, 30)
        return s
    }

    func answer(_ s: TestSender, from transport: String) async throws -> StreamingAnswer {
        let m = try await s.next("an ANSWER") { $0.namespace == CastStreamingIDs.namespace && $0.sourceID == transport }
        return try StreamingAnswer(json: try JSONValue(parsing: Array((m.utf8 ?? "").utf8)))
    }

    func testTheMirroringAppAnswersAnOfferWithAPortAndItsSSRC() async throws {
        try await startServer { $0.apps = [ReceiverApp.chromeMirroring] }
        let s = try await sender()
        let t = try await launch(s, appId: CastStreamingIDs.mirroringApp)
        let offer = StreamingOffer(seqNum: 41, streams: [video(index: 3)])
        try await s.send(json: CastJSON.encode(offer.json), namespace: CastStreamingIDs.namespace, to: t)
        let a = try await answer(s, from: t)
        XCTAssertNil(a.error)
        XCTAssertEqual(a.seqNum, 41)
        XCTAssertEqual(a.sendIndexes, [3])
        XCTAssertEqual(a.ssrcs.count, 1)
        XCTAssertNotNil(a.udpPort)
        XCTAssertNotNil(a.maxWidth, "the receiver states its limits")
        // A second OFFER (a new size) gets a session of its own.
        try await s.send(json: CastJSON.encode(StreamingOffer(seqNum: 42, streams: [video()]).json), namespace: CastStreamingIDs.namespace, to: t)
        let b = try await answer(s, from: t)
        XCTAssertEqual(b.seqNum, 42)
        XCTAssertNotNil(b.udpPort)
    }

    func testAnOfferItCannotTakeIsRefusedWithAReason() async throws {
        try await startServer { $0.apps = [ReceiverApp.chromeMirroring] }
        let s = try await sender()
        let t = try await launch(s, appId: CastStreamingIDs.mirroringApp)
        try await s.send(json: CastJSON.encode(StreamingOffer(seqNum: 5, streams: [video(codec: "av1")]).json), namespace: CastStreamingIDs.namespace, to: t)
        let a = try await answer(s, from: t)
        XCTAssertEqual(a.seqNum, 5)
        XCTAssertNil(a.udpPort)
        XCTAssertTrue(a.error?.contains("av1") == true, a.error ?? "no error")
        // A malformed OFFER (no keys) is refused with its seqNum, and the app keeps answering.
        try await s.send(
            json: #"{"type":"OFFER","seqNum":6,"offer":{"supportedStreams":[{"index":0,"type":"video_source","codecName":"vp8","ssrc":1}]}}"#,
            namespace: CastStreamingIDs.namespace, to: t)
        let m = try await answer(s, from: t)
        XCTAssertEqual(m.seqNum, 6)
        XCTAssertNotNil(m.error)
    }

    func testOnlyAMirroringAppTakesOffers() async throws {
        try await startServer { $0.apps = [ReceiverApp(appId: "ABCD1234", namespaces: [CastStreamingIDs.namespace])] }
        let s = try await sender()
        let t = try await launch(s, appId: "ABCD1234")
        try await s.send(json: CastJSON.encode(StreamingOffer(seqNum: 1, streams: [video()]).json), namespace: CastStreamingIDs.namespace, to: t)
        do {
            _ = try await s.next("an ANSWER", timeout: 1) { $0.namespace == CastStreamingIDs.namespace }
            XCTFail("an app that is not a mirroring app answered an OFFER")
        } catch is TestSender.Timeout {}
    }
}
