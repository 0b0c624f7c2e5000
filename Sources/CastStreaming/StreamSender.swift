// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// What the receiver's RTCP asks of the sender.
public struct SenderActions: Sendable, Equatable {
    /// Packets to send again (already numbered).
    public var retransmit: [[UInt8]] = []
    /// The receiver lost the picture (PLI) or gave a frame up: the next frame should be a key frame.
    public var keyFrameWanted = false
    /// The loss the receiver reported (RTCP fraction lost, 0–255), when it reported one.
    public var fractionLost: UInt8?
    /// The frame the receiver has everything up to.
    public var checkpoint: UInt32?
}

/// One stream's sending side, with no I/O: encrypts frames, cuts them into numbered packets,
/// keeps what was sent until the receiver acknowledges it, answers NACKs with the same packets
/// (newly numbered) and builds sender reports.
public struct StreamSender: Sendable {
    public let stream: OfferedStream
    public let receiverSSRC: UInt32
    private let crypto: FrameCrypto
    public private(set) var nextFrameID: UInt32 = 0
    private var sequence = UInt16.random(in: 0...UInt16.max)
    private var history: [UInt32: [RTPPacket]] = [:]
    /// When each frame's packets were last sent again, per packet (seconds): a packet is resent
    /// at most once per `resendGap`, however many NACKs name it.
    private var resentAt: [UInt32: [UInt16: Double]] = [:]
    public var resendGap = 0.03
    public private(set) var packetsSent: UInt32 = 0
    public private(set) var octetsSent: UInt32 = 0
    public private(set) var retransmitted = 0
    public private(set) var lastRTPTimestamp: UInt32 = 0
    /// Frames kept for retransmission; older ones are forgotten even unacknowledged.
    public var historyLimit = 120

    public init(stream: OfferedStream, receiverSSRC: UInt32) throws(CastStreamingError) {
        self.stream = stream
        self.receiverSSRC = receiverSSRC
        crypto = try FrameCrypto(key: stream.aesKey, ivMask: stream.aesIvMask)
    }

    /// The datagrams of one encoded frame.
    public mutating func send(frame data: [UInt8], isKey: Bool, rtpTimestamp: UInt32) -> [[UInt8]] {
        let id = nextFrameID
        nextFrameID &+= 1
        let encrypted = crypto.crypt(data, frameID: id)
        var packets = RTPPacketizer.packets(
            of: encrypted, frameID: id, referenceFrameID: isKey || id == 0 ? id : id &- 1, isKey: isKey, rtpTimestamp: rtpTimestamp, ssrc: stream.ssrc,
            payloadType: stream.payloadType, playoutDelayMs: id == 0 ? UInt16(stream.targetDelayMs) : nil)
        for i in packets.indices { packets[i].sequence = takeSequence() }
        history[id] = packets
        if history.count > historyLimit, let oldest = history.keys.min() { forget(through: oldest) }
        lastRTPTimestamp = rtpTimestamp
        var datagrams: [[UInt8]] = []
        for p in packets { datagrams.append(count(p)) }
        return datagrams
    }

    /// What one RTCP datagram from the receiver asks for, at `now` seconds.
    public mutating func handle(_ packets: [RTCPPacket], now: Double) -> SenderActions {
        var actions = SenderActions()
        let latest = nextFrameID &- 1
        for p in packets {
            switch p {
            case .pictureLoss(let r, let s) where r == receiverSSRC && s == stream.ssrc:
                actions.keyFrameWanted = true
            case .receiverReport(let r, let block?) where r == receiverSSRC && block.ssrc == stream.ssrc:
                actions.fractionLost = block.fractionLost
            case .feedback(let f) where f.receiverSSRC == receiverSSRC && f.senderSSRC == stream.ssrc:
                guard nextFrameID > 0 else { continue }
                let checkpoint = FrameIDs.expand(f.checkpointFrameID, near: latest)
                // Before the first frame the checkpoint is "frame -1" (0xFF), which widens past the latest.
                if checkpoint <= latest {
                    actions.checkpoint = checkpoint
                    forget(through: checkpoint)
                }
                for o in f.ackedOffsets { history[checkpoint &+ UInt32(o)] = nil }
                for field in f.lossFields {
                    let id = FrameIDs.expand(field.frameID, near: latest)
                    guard let frame = history[id] else { continue }
                    let wanted = field.packetID == LossField.allPackets ? frame.map(\.packetID) : field.packetIDs
                    for pid in wanted where Int(pid) < frame.count {
                        if let at = resentAt[id]?[pid], now - at < resendGap { continue }
                        resentAt[id, default: [:]][pid] = now
                        var packet = frame[Int(pid)]
                        packet.sequence = takeSequence()
                        retransmitted += 1
                        actions.retransmit.append(count(packet))
                    }
                }
            default:
                continue
            }
        }
        return actions
    }

    /// A sender report for the instant `ntp`, whose RTP time is `rtpTimestamp`.
    public func senderReport(ntp: UInt64, rtpTimestamp: UInt32) -> [UInt8] {
        RTCPPacket.compound([.senderReport(ssrc: stream.ssrc, ntp: ntp, rtpTimestamp: rtpTimestamp, packets: packetsSent, octets: octetsSent)])
    }

    private mutating func takeSequence() -> UInt16 {
        defer { sequence &+= 1 }
        return sequence
    }

    private mutating func count(_ p: RTPPacket) -> [UInt8] {
        packetsSent &+= 1
        octetsSent &+= UInt32(p.payload.count)
        return p.serialized
    }

    private mutating func forget(through id: UInt32) {
        for k in history.keys where k <= id {
            history[k] = nil
            resentAt[k] = nil
        }
    }
}
