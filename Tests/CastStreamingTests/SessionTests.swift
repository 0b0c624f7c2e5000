// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import XCTest

@testable import CastStreaming

/// The sender's and receiver's halves against each other: loss repaired by NACKs, a frame
/// given up for a key frame, hostile packets, the OFFER/ANSWER, and a session over loopback UDP.
final class SessionTests: XCTestCase {
    func stream(ssrc: UInt32 = 11) -> OfferedStream {
        OfferedStream(
            index: 1, kind: .video, codecName: "vp8", payloadType: 96, ssrc: ssrc, targetDelayMs: 400, aesKey: FrameCrypto.randomBytes(),
            aesIvMask: FrameCrypto.randomBytes(), clockRate: 90000, bitRate: 3_000_000)
    }

    func frame(_ i: Int, size: Int = 4000) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ i &* 31) } }

    func testLostPacketsAreResentAndFramesComeOutInOrder() throws {
        let offer = stream()
        var sender = try StreamSender(stream: offer, receiverSSRC: 22)
        var assembler = FrameAssembler(senderSSRC: offer.ssrc)
        let crypto = try FrameCrypto(key: offer.aesKey, ivMask: offer.aesIvMask)
        var out: [AssembledFrame] = []
        for i in 0..<4 {
            let datagrams = sender.send(frame: frame(i), isKey: i == 0, rtpTimestamp: UInt32(i * 3000))
            // Frame 1 loses its second packet, frame 2 loses all of them.
            for (n, d) in datagrams.enumerated() where !(i == 1 && n == 1) && i != 2 {
                assembler.add(try RTPPacket(parsing: d), now: 0)
            }
            out += assembler.takeReady(now: 0, patience: 1)
        }
        XCTAssertEqual(out.map(\.frameID), [0], "frame 1 waits for its lost packet, the rest for frame 1")
        let feedback = assembler.feedback(receiverSSRC: 22, playoutDelayMs: 400, count: 0)
        XCTAssertEqual(feedback.checkpointFrameID, 0)
        XCTAssertEqual(feedback.lossFields, [LossField(frameID: 1, packetID: 1), LossField(frameID: 2, packetID: LossField.allPackets)])
        XCTAssertEqual(feedback.ackedOffsets, [3], "frame 3 is complete already")
        let actions = sender.handle(try RTCPPacket.parse(RTCPPacket.compound([.feedback(feedback)])), now: 1)
        XCTAssertEqual(actions.checkpoint, 0)
        XCTAssertEqual(actions.retransmit.count, 1 + 3, "one packet of frame 1, all three of frame 2")
        XCTAssertEqual(sender.handle([.feedback(feedback)], now: 1.001).retransmit, [], "the same NACK again right away resends nothing")
        for d in actions.retransmit { assembler.add(try RTPPacket(parsing: d), now: 0.1) }
        out += assembler.takeReady(now: 0.1, patience: 1)
        XCTAssertEqual(out.map(\.frameID), [0, 1, 2, 3])
        XCTAssertEqual(out.map { crypto.crypt($0.data, frameID: $0.frameID) }, (0..<4).map { frame($0) })
        XCTAssertEqual(out.map(\.isKey), [true, false, false, false])
    }

    func testAFrameNeverCompletedWaitsForAKeyFrameAndAsksForOne() throws {
        let offer = stream()
        var sender = try StreamSender(stream: offer, receiverSSRC: 22)
        var assembler = FrameAssembler(senderSSRC: offer.ssrc)
        var out: [AssembledFrame] = []
        for i in 0..<3 {
            let datagrams = sender.send(frame: frame(i), isKey: i == 0, rtpTimestamp: 0)
            for d in datagrams where i != 1 { assembler.add(try RTPPacket(parsing: d), now: Double(i)) }
            out += assembler.takeReady(now: Double(i), patience: 0.5)
        }
        XCTAssertEqual(out.map(\.frameID), [0])
        XCTAssertFalse(assembler.waitingForKeyFrame, "the gap before frame 2 was only just seen")
        out += assembler.takeReady(now: 2.6, patience: 0.5)
        XCTAssertEqual(out.map(\.frameID), [0])
        XCTAssertTrue(assembler.waitingForKeyFrame, "frame 1 is given up; delta frame 2 cannot be decoded without it")
        XCTAssertTrue(sender.handle([.pictureLoss(receiverSSRC: 22, senderSSRC: offer.ssrc)], now: 3).keyFrameWanted)
        XCTAssertFalse(sender.handle([.pictureLoss(receiverSSRC: 99, senderSSRC: offer.ssrc)], now: 3).keyFrameWanted, "another receiver's PLI")
        for d in sender.send(frame: frame(3), isKey: true, rtpTimestamp: 0) { assembler.add(try RTPPacket(parsing: d), now: 3) }
        out += assembler.takeReady(now: 3, patience: 0.5)
        XCTAssertEqual(out.map(\.frameID), [0, 3])
        XCTAssertFalse(assembler.waitingForKeyFrame)
    }

    func testHostilePacketsAreCountedAndChangeNothing() throws {
        let offer = stream()
        var sender = try StreamSender(stream: offer, receiverSSRC: 22)
        var assembler = FrameAssembler(senderSSRC: offer.ssrc)
        let first = try RTPPacket(parsing: sender.send(frame: frame(0, size: 10), isKey: true, rtpTimestamp: 0)[0])
        var stranger = first
        stranger.ssrc = 999
        XCTAssertFalse(assembler.add(stranger, now: 0))
        var farAhead = first
        farAhead.frameID = 200  // 200 frames ahead of the first: not a frame in flight
        XCTAssertFalse(assembler.add(farAhead, now: 0))
        var huge = first
        huge.maxPacketID = 60000  // a frame of 84 MB
        XCTAssertFalse(assembler.add(huge, now: 0))
        XCTAssertEqual(assembler.rejected, 3)
        XCTAssertTrue(assembler.add(first, now: 0))
        XCTAssertFalse(assembler.add(first, now: 0), "a duplicate")
        var otherShape = first
        otherShape.maxPacketID = 3
        XCTAssertFalse(assembler.add(otherShape, now: 0), "the same frame with another packet count")
        XCTAssertEqual(assembler.takeReady(now: 0, patience: 1).map(\.frameID), [0])
        XCTAssertFalse(assembler.add(first, now: 1), "a frame already out")
        // Feedback for someone else's stream, or naming frames never sent, resends nothing.
        let bogus = CastFeedback(
            receiverSSRC: 22, senderSSRC: offer.ssrc, checkpointFrameID: 0x80, playoutDelayMs: 0, lossFields: [LossField(frameID: 0x70, packetID: 0)])
        XCTAssertEqual(sender.handle([.feedback(bogus)], now: 0), SenderActions())
    }

    func testOfferAndAnswerRoundTrip() throws {
        var video = stream()
        (video.width, video.height, video.maxFrameRate) = (1280, 720, 30)
        let offer = StreamingOffer(seqNum: 7, streams: [video])
        let text = CastJSON.encode(offer.json)
        let read = try StreamingOffer(json: try JSONValue(parsing: Array(text.utf8)))
        XCTAssertEqual(read, offer)
        var answer = StreamingAnswer(seqNum: 7, udpPort: 40000, sendIndexes: [1], ssrcs: [22])
        (answer.maxWidth, answer.maxHeight, answer.maxFrameRate, answer.minBitRate, answer.maxBitRate) = (1920, 1080, 60, 300_000, 8_000_000)
        XCTAssertEqual(try StreamingAnswer(json: try JSONValue(parsing: Array(CastJSON.encode(answer.json).utf8))), answer)
        let refused = StreamingAnswer(seqNum: 7, udpPort: nil, sendIndexes: [], ssrcs: [], error: "no")
        XCTAssertEqual(try StreamingAnswer(json: refused.json).error, "no")
        // An ANSWER of Chrome's example shape, without a port.
        let noPort: JSONValue = ["type": "ANSWER", "seqNum": 7, "result": "ok", "answer": ["sendIndexes": [1], "ssrcs": [5]]]
        XCTAssertNil(try StreamingAnswer(json: noPort).udpPort)
        XCTAssertThrowsError(try StreamingAnswer(json: ["type": "ANSWER", "result": "ok", "answer": ["sendIndexes": [1, 2], "ssrcs": [5]]]))
        XCTAssertThrowsError(try StreamingOffer(json: ["type": "OFFER", "seqNum": 1, "offer": ["supportedStreams": [["index": 0, "type": "video_source"]]]]))
        var shortKey = video.json
        if case .object(var o) = shortKey {
            o["aesKey"] = "00"
            shortKey = .object(o)
        }
        XCTAssertThrowsError(try StreamingOffer(json: ["type": "OFFER", "seqNum": 1, "offer": ["supportedStreams": [shortKey]]]))
    }

    /// An H.264 stream names its profile and level, as in Open Screen's OFFER examples, and reads back.
    func testAnH264OfferCarriesProfileAndLevel() throws {
        var video = stream()
        (video.codecName, video.profile, video.level, video.maxFrameRate) = ("h264", "main", "4", 30)
        let json = StreamingOffer(seqNum: 2, streams: [video]).json
        let sent = json["offer"]?["supportedStreams"]?.arrayValue?.first
        XCTAssertEqual(sent?["codecName"]?.stringValue, "h264")
        XCTAssertEqual(sent?["profile"]?.stringValue, "main")
        XCTAssertEqual(sent?["level"]?.stringValue, "4")
        XCTAssertEqual(try StreamingOffer(json: try JSONValue(parsing: Array(CastJSON.encode(json).utf8))).streams, [video])
        // VP8 names neither.
        XCTAssertNil(stream().json["profile"])
    }

    func testAReceiverRefusesCodecsItCannotPlay() async {
        var h265 = stream()
        h265.codecName = "hevc"
        let (answer, session) = await StreamingReceiver.answer(StreamingOffer(seqNum: 3, streams: [h265]), host: "127.0.0.1") { _ in }
        XCTAssertNil(session)
        XCTAssertEqual(answer.seqNum, 3)
        XCTAssertNotNil(answer.error)
    }

    /// The whole way over loopback UDP: OFFER → ANSWER → frames → decrypted frames out.
    func testFramesCrossLoopbackUDP() async throws {
        let offer = StreamingOffer(seqNum: 1, streams: [stream()])
        let got = Collected()
        let (answer, receiver) = await StreamingReceiver.answer(offer, host: "127.0.0.1") { f in got.add(f) }
        let port = try XCTUnwrap(answer.udpPort)
        XCTAssertEqual(answer.sendIndexes, [1])
        let sender = try await StreamingSender.start(host: "127.0.0.1", port: port, streams: [(offer.streams[0], answer.ssrcs[0])])
        for i in 0..<10 { sender.send(frame: frame(i, size: 3000 + i * 500), isKey: i == 0) }
        for _ in 0..<500 where got.count < 10 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(got.frames.map(\.frameID), Array(0..<10))
        XCTAssertEqual(got.frames.map(\.data), (0..<10).map { frame($0, size: 3000 + $0 * 500) })
        sender.close()
        receiver?.close()
    }
}

final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [ReceivedFrame] = []
    func add(_ f: ReceivedFrame) { lock.withLock { items.append(f) } }
    var count: Int { lock.withLock { items.count } }
    var frames: [ReceivedFrame] { lock.withLock { items } }
}
