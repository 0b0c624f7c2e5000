// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import XCTest

@testable import CastStreaming

/// The sound's stream: its OFFER and what an ANSWER may take, RTP times counted in samples,
/// and a session carrying video and audio on one socket with the RTCP of each stream kept apart.
final class AudioStreamTests: XCTestCase {
    func audio(index: Int = 1, ssrc: UInt32 = 33) -> OfferedStream {
        var s = OfferedStream(
            index: index, kind: .audio, codecName: "opus", payloadType: CastStreamingIDs.audioPayloadType, ssrc: ssrc, targetDelayMs: 400,
            aesKey: FrameCrypto.randomBytes(), aesIvMask: FrameCrypto.randomBytes(), clockRate: CastStreamingIDs.audioClockRate, bitRate: 128_000)
        s.channels = 2
        return s
    }

    func video(ssrc: UInt32 = 11) -> OfferedStream {
        OfferedStream(
            index: 0, kind: .video, codecName: "vp8", payloadType: 96, ssrc: ssrc, targetDelayMs: 400, aesKey: FrameCrypto.randomBytes(),
            aesIvMask: FrameCrypto.randomBytes(), clockRate: 90000, bitRate: 3_000_000)
    }

    func testTheAudioOfferCarriesOpusFieldsAndRoundTrips() throws {
        var picture = video()
        picture.maxFrameRate = 30
        let offer = StreamingOffer(seqNum: 4, streams: [picture, audio()])
        let json = try JSONValue(parsing: Array(CastJSON.encode(offer.json).utf8))
        let a = try XCTUnwrap(json["offer"]?["supportedStreams"]?.arrayValue?[1])
        XCTAssertEqual(a["type"]?.stringValue, "audio_source")
        XCTAssertEqual(a["codecName"]?.stringValue, "opus")
        XCTAssertEqual(a["rtpPayloadType"]?.intValue, 127)
        XCTAssertEqual(a["timeBase"]?.stringValue, "1/48000")
        XCTAssertEqual(a["channels"]?.intValue, 2)
        XCTAssertEqual(a["bitRate"]?.intValue, 128_000)
        XCTAssertEqual(a["aesKey"]?.stringValue?.count, 32)
        XCTAssertEqual(try StreamingOffer(json: json), offer)
    }

    func testWhatTheAnswerTakesDecidesWhatIsSent() throws {
        let streams = [video(), audio()]
        let both = try MirrorSession.accepted(streams, by: StreamingAnswer(seqNum: 1, udpPort: 9, sendIndexes: [1, 0], ssrcs: [7, 8]))
        XCTAssertEqual(both.map(\.stream.kind), [.audio, .video])
        XCTAssertEqual(both.map(\.receiverSSRC), [7, 8])
        let pictureOnly = try MirrorSession.accepted(streams, by: StreamingAnswer(seqNum: 1, udpPort: 9, sendIndexes: [0], ssrcs: [8]))
        XCTAssertEqual(pictureOnly.map(\.stream.kind), [.video])
        XCTAssertThrowsError(try MirrorSession.accepted(streams, by: StreamingAnswer(seqNum: 1, udpPort: 9, sendIndexes: [], ssrcs: []))) {
            XCTAssertEqual("\($0)", "The device accepted none of the offered streams (VP8 video and Opus audio).")
        }
        XCTAssertThrowsError(try MirrorSession.accepted(streams, by: StreamingAnswer(seqNum: 1, udpPort: 9, sendIndexes: [1], ssrcs: [7])))
        XCTAssertThrowsError(try MirrorSession.accepted([audio()], by: StreamingAnswer(seqNum: 1, udpPort: 9, sendIndexes: [5], ssrcs: [7]))) {
            XCTAssertEqual("\($0)", "The device accepted none of the offered streams (Opus audio).")
        }
        XCTAssertThrowsError(try MirrorSession.accepted(streams, by: StreamingAnswer(seqNum: 1, udpPort: nil, sendIndexes: [], ssrcs: [], error: "busy"))) {
            XCTAssertEqual("\($0)", "The device refused mirroring: busy.")
        }
    }

    func testAudioTimesAdvanceBySamplesAndResyncAfterAStall() {
        var clock = AudioClock()
        XCTAssertNil(clock.now(wallTime: 0, rate: 48000))
        // The first packet ends now (1 s in): it began 960 samples before.
        XCTAssertEqual(clock.next(samples: 960, wallTime: 1, rate: 48000), 48000 - 960)
        // Packets arriving early or late keep their counted times.
        XCTAssertEqual(clock.next(samples: 960, wallTime: 1.001, rate: 48000), 48000)
        XCTAssertEqual(clock.next(samples: 960, wallTime: 1.09, rate: 48000), 48960)
        XCTAssertEqual(clock.now(wallTime: 1.1, rate: 48000), 49920 + 480)
        XCTAssertEqual(clock.resyncs, 0)
        // A second without packets: the next one takes the clock's time again.
        XCTAssertEqual(clock.next(samples: 960, wallTime: 2.1, rate: 48000), 100_800 - 960)
        XCTAssertEqual(clock.resyncs, 1)
        // Packets handed over in a burst run ahead of the clock, up to a second.
        for i in 1...50 { XCTAssertEqual(clock.next(samples: 960, wallTime: 2.1, rate: 48000), UInt32(100_800 - 960 + i * 960)) }
        XCTAssertEqual(clock.resyncs, 1)
        XCTAssertEqual(clock.next(samples: 960, wallTime: 2.1, rate: 48000), 100_800 - 960, "more than a second ahead")
        XCTAssertEqual(clock.resyncs, 2)
    }

    /// Video and audio on one socket: both arrive whole and in order, and each stream's
    /// feedback releases only its own history (a NACK for one SSRC never resends the other's).
    func testVideoAndAudioShareOneSocket() async throws {
        let offer = StreamingOffer(seqNum: 1, streams: [video(), audio()])
        let got = Collected()
        let (answer, receiver) = await StreamingReceiver.answer(offer, host: "127.0.0.1") { f in got.add(f) }
        let port = try XCTUnwrap(answer.udpPort)
        XCTAssertEqual(answer.sendIndexes, [0, 1])
        let taken = try MirrorSession.accepted(offer.streams, by: answer)
        let sender = try await StreamingSender.start(host: "127.0.0.1", port: port, streams: taken)
        XCTAssertTrue(sender.sendsVideo && sender.sendsAudio)
        let sound = (0..<20).map { i in [0xF8] + [UInt8](repeating: UInt8(i), count: 200) }
        for i in 0..<20 {
            if i < 5 { sender.send(frame: [UInt8](repeating: UInt8(i), count: 5000), isKey: i == 0) }
            sender.send(audio: sound[i], samples: 960)
        }
        for _ in 0..<500 where got.count < 25 { try await Task.sleep(for: .milliseconds(10)) }
        let audioFrames = got.frames.filter { $0.stream.kind == .audio }
        XCTAssertEqual(audioFrames.map(\.data), sound)
        XCTAssertEqual(got.frames.filter { $0.stream.kind == .video }.map(\.frameID), Array(0..<5))
        let times = audioFrames.map(\.rtpTimestamp)
        XCTAssertEqual(zip(times.dropFirst(), times).map { $0 &- $1 }, [UInt32](repeating: 960, count: 19))
        let resent = await sender.retransmitted
        XCTAssertEqual(resent, 0, "nothing was lost on loopback")
        sender.close()
        receiver?.close()
    }

    func testRTCPOfOneStreamDoesNotTouchTheOther() throws {
        var v = try StreamSender(stream: video(), receiverSSRC: 70)
        var a = try StreamSender(stream: audio(), receiverSSRC: 71)
        _ = v.send(frame: [1, 2, 3], isKey: true, rtpTimestamp: 0)
        _ = a.send(frame: [0xF8, 1], isKey: true, rtpTimestamp: 0)
        // The receiver asks for the audio's frame 0 again and reports loss on it.
        let nack = CastFeedback(
            receiverSSRC: 71, senderSSRC: audio().ssrc, checkpointFrameID: 0xFF, playoutDelayMs: 400,
            lossFields: [LossField(frameID: 0, packetID: LossField.allPackets)])
        let packets = try RTCPPacket.parse(RTCPPacket.compound([.feedback(nack), .pictureLoss(receiverSSRC: 71, senderSSRC: audio().ssrc)]))
        let forVideo = v.handle(packets, now: 1), forAudio = a.handle(packets, now: 1)
        XCTAssertEqual(forVideo, SenderActions())
        XCTAssertEqual(forAudio.retransmit.count, 1)
        XCTAssertEqual(try RTPPacket(parsing: forAudio.retransmit[0]).ssrc, audio().ssrc)
    }
}
