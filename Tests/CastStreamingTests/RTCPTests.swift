// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import XCTest

@testable import CastStreaming

final class RTCPTests: XCTestCase {
    func testCompoundRoundTrip() throws {
        let feedback = CastFeedback(
            receiverSSRC: 2, senderSSRC: 1, checkpointFrameID: 9, playoutDelayMs: 400,
            lossFields: [LossField(frameID: 10, packetID: 3, bitmask: 0b101), LossField(frameID: 11, packetID: LossField.allPackets)], feedbackCount: 7,
            ackedOffsets: [2, 5, 40])
        let packets: [RTCPPacket] = [
            .senderReport(ssrc: 1, ntp: 0x0102_0304_0506_0708, rtpTimestamp: 90000, packets: 10, octets: 12000),
            .receiverReport(
                ssrc: 2,
                block: ReportBlock(
                    ssrc: 1, fractionLost: 26, cumulativeLost: 12, highestSequence: 70000, jitter: 3, lastSenderReport: 0x0304_0506,
                    delaySinceLastSenderReport: 65536)),
            .receiverReport(ssrc: 2, block: nil),
            .receiverReferenceTime(ssrc: 2, ntp: 42),
            .feedback(feedback),
            .pictureLoss(receiverSSRC: 2, senderSSRC: 1),
        ]
        let bytes = RTCPPacket.compound(packets)
        XCTAssertEqual(bytes.count % 4, 0)
        XCTAssertTrue(RTPPacket.isRTCP(bytes))
        XCTAssertEqual(try RTCPPacket.parse(bytes), packets)
        XCTAssertEqual(feedback.lossFields[0].packetIDs, [3, 4, 6])
    }

    func testFeedbackWireLayout() {
        let f = CastFeedback(receiverSSRC: 0x0A0B_0C0D, senderSSRC: 1, checkpointFrameID: 0x33, playoutDelayMs: 0x0190)
        let b = RTCPPacket.feedback(f).serialized
        XCTAssertEqual(Array(b[0..<4]), [0x80 | 15, 206, 0, 4], "payload-specific feedback, subtype 15, 5 words")
        XCTAssertEqual(Array(b[12..<20]), Array("CAST".utf8) + [0x33, 0, 0x01, 0x90])
    }

    func testHostileRTCP() {
        let good = RTCPPacket.compound([.pictureLoss(receiverSSRC: 2, senderSSRC: 1)])
        var long = good
        long[3] = 9  // says ten words
        XCTAssertThrowsError(try RTCPPacket.parse(long))
        XCTAssertThrowsError(try RTCPPacket.parse([0x40, 200, 0, 0]), "version 1")
        XCTAssertThrowsError(try RTCPPacket.parse(Array(good.prefix(3))))
        var noMark = RTCPPacket.feedback(CastFeedback(receiverSSRC: 1, senderSSRC: 2, checkpointFrameID: 0, playoutDelayMs: 0)).serialized
        noMark[12] = UInt8(ascii: "X")
        XCTAssertThrowsError(try RTCPPacket.parse(noMark))
        var lying = RTCPPacket.feedback(CastFeedback(receiverSSRC: 1, senderSSRC: 2, checkpointFrameID: 0, playoutDelayMs: 0)).serialized
        lying[17] = 200  // two hundred loss fields in a packet with none
        XCTAssertThrowsError(try RTCPPacket.parse(lying))
        // Packets Cast does not use (SDES here) are skipped, the rest read.
        XCTAssertEqual(try RTCPPacket.parse([0x81, 202, 0, 1, 0, 0, 0, 1] + good), [.pictureLoss(receiverSSRC: 2, senderSSRC: 1)])
    }
}
