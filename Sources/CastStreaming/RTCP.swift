// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

/// What a receiver reports of one packet loss: a frame (low 8 bits) and either one packet with
/// a bitmask of the eight after it (least significant bit = the next one), or `allPackets`.
public struct LossField: Sendable, Equatable {
    public static let allPackets: UInt16 = 0xFFFF
    public var frameID: UInt8
    public var packetID: UInt16
    public var bitmask: UInt8
    public init(frameID: UInt8, packetID: UInt16, bitmask: UInt8 = 0) {
        self.frameID = frameID
        self.packetID = packetID
        self.bitmask = bitmask
    }

    /// The packet ids this field names (`allPackets` stays as it is).
    public var packetIDs: [UInt16] {
        if packetID == Self.allPackets { return [Self.allPackets] }
        return [packetID] + (0..<8).compactMap { bit in bitmask & (1 << bit) != 0 ? packetID &+ UInt16(bit + 1) : nil }
    }
}

/// Cast feedback (RTCP payload-specific feedback, subtype 15, "CAST"): every frame up to and
/// including the checkpoint has arrived, these packets are missing, and (the "CST2" part)
/// these later frames have arrived too, as offsets from the checkpoint (2 or more).
public struct CastFeedback: Sendable, Equatable {
    public var receiverSSRC: UInt32
    public var senderSSRC: UInt32
    public var checkpointFrameID: UInt8
    public var playoutDelayMs: UInt16
    public var lossFields: [LossField]
    public var feedbackCount: UInt8
    public var ackedOffsets: [Int]
    public init(
        receiverSSRC: UInt32, senderSSRC: UInt32, checkpointFrameID: UInt8, playoutDelayMs: UInt16, lossFields: [LossField] = [],
        feedbackCount: UInt8 = 0, ackedOffsets: [Int] = []
    ) {
        self.receiverSSRC = receiverSSRC
        self.senderSSRC = senderSSRC
        self.checkpointFrameID = checkpointFrameID
        self.playoutDelayMs = playoutDelayMs
        self.lossFields = lossFields
        self.feedbackCount = feedbackCount
        self.ackedOffsets = ackedOffsets
    }
}

/// A report block: how one stream is received.
public struct ReportBlock: Sendable, Equatable {
    public var ssrc: UInt32
    public var fractionLost: UInt8
    public var cumulativeLost: UInt32
    public var highestSequence: UInt32
    public var jitter: UInt32
    public var lastSenderReport: UInt32
    public var delaySinceLastSenderReport: UInt32
    public init(
        ssrc: UInt32, fractionLost: UInt8, cumulativeLost: UInt32, highestSequence: UInt32, jitter: UInt32 = 0, lastSenderReport: UInt32 = 0,
        delaySinceLastSenderReport: UInt32 = 0
    ) {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost & 0xFF_FFFF
        self.highestSequence = highestSequence
        self.jitter = jitter
        self.lastSenderReport = lastSenderReport
        self.delaySinceLastSenderReport = delaySinceLastSenderReport
    }
}

/// The RTCP packets Cast Streaming uses; one datagram holds several (a compound packet).
public enum RTCPPacket: Sendable, Equatable {
    /// The sender's clock: NTP time and the RTP time of the same instant, packets and bytes sent.
    case senderReport(ssrc: UInt32, ntp: UInt64, rtpTimestamp: UInt32, packets: UInt32, octets: UInt32)
    case receiverReport(ssrc: UInt32, block: ReportBlock?)
    /// Receiver reference time (an extended report, block type 4).
    case receiverReferenceTime(ssrc: UInt32, ntp: UInt64)
    case feedback(CastFeedback)
    /// Picture loss: the receiver cannot go on without a key frame.
    case pictureLoss(receiverSSRC: UInt32, senderSSRC: UInt32)

    /// The datagram of `packets` in order.
    public static func compound(_ packets: [RTCPPacket]) -> [UInt8] { packets.flatMap(\.serialized) }

    public var serialized: [UInt8] {
        var body: [UInt8] = []
        let first: UInt8, type: UInt8
        switch self {
        case .senderReport(let ssrc, let ntp, let ts, let n, let o):
            (first, type) = (0x80, 200)
            body.appendBE(ssrc)
            body.appendBE(ntp)
            body.appendBE(ts)
            body.appendBE(n)
            body.appendBE(o)
        case .receiverReport(let ssrc, let block):
            (first, type) = (0x80 | (block == nil ? 0 : 1), 201)
            body.appendBE(ssrc)
            if let b = block {
                body.appendBE(b.ssrc)
                body.appendBE(UInt32(b.fractionLost) << 24 | b.cumulativeLost)
                for v in [b.highestSequence, b.jitter, b.lastSenderReport, b.delaySinceLastSenderReport] { body.appendBE(v) }
            }
        case .receiverReferenceTime(let ssrc, let ntp):
            (first, type) = (0x80, 207)
            body.appendBE(ssrc)
            body += [4, 0, 0, 2]
            body.appendBE(ntp)
        case .pictureLoss(let r, let s):
            (first, type) = (0x80 | 1, 206)
            body.appendBE(r)
            body.appendBE(s)
        case .feedback(let f):
            (first, type) = (0x80 | 15, 206)
            body.appendBE(f.receiverSSRC)
            body.appendBE(f.senderSSRC)
            body += Array("CAST".utf8)
            let fields = f.lossFields.prefix(255)
            body += [f.checkpointFrameID, UInt8(fields.count)]
            body.appendBE(f.playoutDelayMs)
            for l in fields {
                body.append(l.frameID)
                body.appendBE(l.packetID)
                body.append(l.bitmask)
            }
            if !f.ackedOffsets.isEmpty {
                let highest = min(f.ackedOffsets.max()! - 2, 254 * 8 - 1)
                var octets = 2
                while octets * 8 <= highest { octets += 4 }
                var bits = [UInt8](repeating: 0, count: octets)
                for o in f.ackedOffsets where o >= 2 && o - 2 < octets * 8 { bits[(o - 2) / 8] |= 1 << ((o - 2) % 8) }
                body += Array("CST2".utf8) + [f.feedbackCount, UInt8(octets)] + bits
            }
        }
        var out: [UInt8] = [first, type]
        out.appendBE(UInt16(body.count / 4))  // words after the first, less one: body words
        return out + body
    }

    /// Every packet of a compound datagram that Cast uses; others (SDES, APP, receiver logs)
    /// are skipped. A datagram that is not RTCP, or whose lengths run past its end, throws.
    public static func parse(_ d: [UInt8]) throws(CastStreamingError) -> [RTCPPacket] {
        var out: [RTCPPacket] = []
        var at = 0
        while at < d.count {
            guard d.count - at >= 4, d[at] >> 6 == 2 else { throw CastStreamingError("an RTCP datagram has a packet that is not RTCP version 2") }
            let length = (Int(d[at + 2]) << 8 | Int(d[at + 3]) + 1) * 4
            guard d.count - at >= length else { throw CastStreamingError("an RTCP packet runs past the end of its datagram") }
            let count = d[at] & 0x1F, type = d[at + 1]
            var r = ByteReader(Array(d[at + 4..<at + length]))
            at += length
            switch type {
            case 200 where r.remaining >= 24:
                out.append(.senderReport(ssrc: r.u32(), ntp: r.u64(), rtpTimestamp: r.u32(), packets: r.u32(), octets: r.u32()))
            case 201 where r.remaining >= 4:
                let ssrc = r.u32()
                var block: ReportBlock?
                if count >= 1, r.remaining >= 24 {
                    let to = r.u32(), lost = r.u32()
                    block = ReportBlock(
                        ssrc: to, fractionLost: UInt8(lost >> 24), cumulativeLost: lost & 0xFF_FFFF, highestSequence: r.u32(), jitter: r.u32(),
                        lastSenderReport: r.u32(), delaySinceLastSenderReport: r.u32())
                }
                out.append(.receiverReport(ssrc: ssrc, block: block))
            case 207 where r.remaining >= 16:
                let ssrc = r.u32()
                if r.u8() == 4, r.remaining >= 11 {
                    r.skip(3)
                    out.append(.receiverReferenceTime(ssrc: ssrc, ntp: r.u64()))
                }
            case 206 where count == 1 && r.remaining >= 8:
                out.append(.pictureLoss(receiverSSRC: r.u32(), senderSSRC: r.u32()))
            case 206 where count == 15 && r.remaining >= 16:
                out.append(.feedback(try parseFeedback(&r)))
            default:
                continue
            }
        }
        return out
    }

    private static func parseFeedback(_ r: inout ByteReader) throws(CastStreamingError) -> CastFeedback {
        let receiver = r.u32(), sender = r.u32()
        guard r.u32() == 0x4341_5354 else { throw CastStreamingError("a Cast feedback packet lacks its \"CAST\" mark") }
        let checkpoint = r.u8(), count = Int(r.u8()), delay = r.u16()
        guard r.remaining >= count * 4 else { throw CastStreamingError("a Cast feedback packet announces \(count) loss fields but is shorter") }
        var f = CastFeedback(receiverSSRC: receiver, senderSSRC: sender, checkpointFrameID: checkpoint, playoutDelayMs: delay)
        for _ in 0..<count { f.lossFields.append(LossField(frameID: r.u8(), packetID: r.u16(), bitmask: r.u8())) }
        if r.remaining >= 6, r.u32() == 0x4353_5432 {
            f.feedbackCount = r.u8()
            let octets = Int(r.u8())
            guard r.remaining >= octets else { throw CastStreamingError("a Cast feedback packet's ACK bits run past its end") }
            for i in 0..<octets {
                let byte = r.u8()
                for bit in 0..<8 where byte & (1 << bit) != 0 { f.ackedOffsets.append(i * 8 + bit + 2) }
            }
        }
        return f
    }
}

/// NTP time (seconds since 1900 in the high 32 bits, the fraction in the low) of a wall-clock date.
public enum NTPTime {
    public static func now() -> UInt64 { of(Date()) }
    public static func of(_ date: Date) -> UInt64 {
        let s = date.timeIntervalSince1970 + 2_208_988_800
        return UInt64(s) << 32 | UInt64((s - s.rounded(.down)) * 4_294_967_296)
    }
    /// The middle 32 bits, as report blocks quote the last sender report.
    public static func middle(_ ntp: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: ntp >> 16) }
}
