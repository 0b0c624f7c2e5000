// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import XCTest

@testable import CastStreaming

/// RTP packets, frame crypto, frame ids: round trips and hostile bytes.
final class PacketTests: XCTestCase {
    let key: [UInt8] = Array(0..<16), mask: [UInt8] = Array(repeating: 0xA5, count: 16)

    func testRTPRoundTripWithReferenceAndPlayoutDelay() throws {
        let p = RTPPacket(
            payloadType: 96, sequence: 0xBEEF, rtpTimestamp: 0x1234_5678, ssrc: 0xCAFE_F00D, isKeyFrame: true, frameID: 0x81, packetID: 2, maxPacketID: 2,
            referenceFrameID: 0x81, playoutDelayMs: 400, payload: [1, 2, 3])
        let bytes = p.serialized
        XCTAssertEqual(Array(bytes[0..<2]), [0x80, 0x80 | 96], "version 2, marker on the last packet")
        XCTAssertEqual(bytes[12], 0x80 | 0x40 | 1, "key, reference id, one extension")
        XCTAssertEqual(try RTPPacket(parsing: bytes), p)
        var q = p
        (q.isKeyFrame, q.packetID, q.referenceFrameID, q.playoutDelayMs) = (false, 0, nil, nil)
        XCTAssertEqual(q.serialized[1], 96, "no marker before the last packet")
        XCTAssertEqual(try RTPPacket(parsing: q.serialized), q)
        XCTAssertFalse(RTPPacket.isRTCP(bytes))
    }

    func testHostileRTPIsRefused() {
        let good = RTPPacket(
            payloadType: 96, sequence: 1, rtpTimestamp: 1, ssrc: 1, isKeyFrame: false, frameID: 1, packetID: 0, maxPacketID: 0, referenceFrameID: 0,
            payload: []
        ).serialized
        for n in 0..<good.count { XCTAssertThrowsError(try RTPPacket(parsing: Array(good.prefix(n))), "truncated to \(n)") }
        var v1 = good
        v1[0] = 0x40
        XCTAssertThrowsError(try RTPPacket(parsing: v1))
        var beyond = good
        beyond[15] = 5  // packet id 5 of a frame whose last is 0
        XCTAssertThrowsError(try RTPPacket(parsing: beyond))
        var ext = good
        ext[12] |= 3  // three extensions announced, none there
        XCTAssertThrowsError(try RTPPacket(parsing: ext))
    }

    func testPacketizerCutsAtTheMTUAndReassembles() throws {
        let frame = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let packets = RTPPacketizer.packets(of: frame, frameID: 300, referenceFrameID: 299, isKey: false, rtpTimestamp: 9, ssrc: 5, payloadType: 96)
        XCTAssertEqual(packets.count, (5000 + RTPPacketizer.payloadRoom - 1) / RTPPacketizer.payloadRoom)
        XCTAssertTrue(packets.allSatisfy { $0.serialized.count <= CastStreamingIDs.maxPacketSize })
        XCTAssertTrue(packets.allSatisfy { $0.frameID == 44 && $0.referenceFrameID == 43 && Int($0.maxPacketID) == packets.count - 1 })
        XCTAssertEqual(packets.flatMap(\.payload), frame)
    }

    func testFrameCryptoNonceAndRoundTrip() throws {
        let c = try FrameCrypto(key: key, ivMask: mask)
        var expected = mask
        expected[8] ^= 0x01
        expected[9] ^= 0x02
        expected[10] ^= 0x03
        expected[11] ^= 0x04
        XCTAssertEqual(c.nonce(frameID: 0x0102_0304), expected, "the frame id, big endian, in bytes 8 to 11")
        let plain = [UInt8](repeating: 0x42, count: 100)
        let sealed = c.crypt(plain, frameID: 7)
        XCTAssertNotEqual(sealed, plain)
        XCTAssertNotEqual(sealed, c.crypt(plain, frameID: 8), "each frame has its own key stream")
        XCTAssertEqual(c.crypt(sealed, frameID: 7), plain)
        XCTAssertThrowsError(try FrameCrypto(key: [1, 2], ivMask: mask))
    }

    /// AES-128-CTR against FIPS SP 800-38A F.5.1 (first block), so the key stream is AES's.
    func testFrameCryptoMatchesTheAESCounterModeVector() throws {
        let k = hex("2b7e151628aed2a6abf7158809cf4f3c")
        var iv = hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
        // Frame 0 leaves the mask as it is, so the mask is the counter block.
        let c = try FrameCrypto(key: k, ivMask: iv)
        XCTAssertEqual(c.crypt(hex("6bc1bee22e409f96e93d7e117393172a"), frameID: 0), hex("874d6191b620e3261bef6864990db6ce"))
        iv[11] ^= 1
        XCTAssertEqual(try FrameCrypto(key: k, ivMask: iv).crypt(hex("874d6191b620e3261bef6864990db6ce"), frameID: 1), hex("6bc1bee22e409f96e93d7e117393172a"))
    }

    func testFrameIDsWidenNearTheReference() {
        XCTAssertEqual(FrameIDs.expand(5, near: 3), 5)
        XCTAssertEqual(FrameIDs.expand(0xFE, near: 0x102), 0xFE, "just before a wrap of the low byte")
        XCTAssertEqual(FrameIDs.expand(0x02, near: 0xFE), 0x102, "just after")
        XCTAssertEqual(FrameIDs.expand(0xFF, near: 0), 0xFF, "frame -1 before the first frame widens past it")
    }

    func hex(_ s: String) -> [UInt8] {
        stride(from: 0, to: s.count, by: 2).map { i in
            UInt8(s[s.index(s.startIndex, offsetBy: i)..<s.index(s.startIndex, offsetBy: i + 2)], radix: 16)!
        }
    }
}
