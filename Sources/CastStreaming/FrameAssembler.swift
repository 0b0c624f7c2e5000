// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// A frame the receiver has all packets of, still encrypted.
public struct AssembledFrame: Sendable, Equatable {
    public var frameID: UInt32
    public var isKey: Bool
    public var referenceFrameID: UInt32
    public var rtpTimestamp: UInt32
    public var data: [UInt8]
}

/// The receiver's side of one stream: collects packets into frames, hands frames out in order
/// (a frame only once every frame before it is out, or skipped for a key frame), and says what
/// to report: the checkpoint (the last frame out), the later frames already complete, and the
/// packets missing. Time comes in as seconds from the caller, so tests need no clock.
public struct FrameAssembler: Sendable {
    private struct Partial {
        var isKey: Bool
        var referenceFrameID: UInt32
        var rtpTimestamp: UInt32
        var maxPacketID: UInt16
        var packets: [UInt16: [UInt8]] = [:]
        var firstSeen: Double
        var isComplete: Bool { packets.count == Int(maxPacketID) + 1 }
    }

    public let senderSSRC: UInt32
    /// The last frame handed out or skipped; nil before the first.
    public private(set) var checkpoint: UInt32?
    /// The highest frame id any packet has carried.
    public private(set) var latest: UInt32?
    private var partial: [UInt32: Partial] = [:]
    /// Set when a frame could not be completed in time: only a key frame may follow.
    public private(set) var waitingForKeyFrame = false
    /// Packets dropped as hostile or stale: wrong SSRC, frame ids far from the present.
    public private(set) var rejected = 0

    /// The most packets a frame may have: 4096 full packets are 6 MB, more than any frame of a
    /// screen; a hostile sender announcing more would otherwise make the receiver hold 64 K
    /// packets for each of 128 frames.
    public static let maxPacketsPerFrame = 4096

    public init(senderSSRC: UInt32) { self.senderSSRC = senderSSRC }

    /// The full id of the next frame expected.
    private var next: UInt32 { checkpoint.map { $0 &+ 1 } ?? 0 }

    /// Takes one (decrypted-later) packet. False when it is not this stream's or is stale.
    @discardableResult
    public mutating func add(_ p: RTPPacket, now: Double) -> Bool {
        guard p.ssrc == senderSSRC, Int(p.maxPacketID) < Self.maxPacketsPerFrame else {
            rejected += 1
            return false
        }
        let id = FrameIDs.expand(p.frameID, near: latest ?? next)
        // Stale (already out) or absurdly far ahead (more than Cast lets be in flight).
        guard id >= next, id - next < 128 else {
            if id >= next { rejected += 1 }
            return false
        }
        var f =
            partial[id]
            ?? Partial(
                isKey: p.isKeyFrame, referenceFrameID: p.referenceFrameID.map { FrameIDs.expand($0, near: id) } ?? id, rtpTimestamp: p.rtpTimestamp,
                maxPacketID: p.maxPacketID, firstSeen: now)
        guard f.maxPacketID == p.maxPacketID, f.packets[p.packetID] == nil else { return false }
        f.packets[p.packetID] = p.payload
        partial[id] = f
        if latest.map({ id > $0 }) ?? true { latest = id }
        return true
    }

    /// The frames that can go out now, in order. A frame missing packets for longer than
    /// `patience` seconds while later ones arrive is given up: the stream then waits for a
    /// complete key frame (the caller asks the sender for one, `waitingForKeyFrame`).
    public mutating func takeReady(now: Double, patience: Double) -> [AssembledFrame] {
        var out: [AssembledFrame] = []
        while true {
            let head = partial[next]
            if let head, head.isComplete, !waitingForKeyFrame || head.isKey {
                out.append(release(next, head))
                continue
            }
            if !waitingForKeyFrame, let since = head?.firstSeen ?? partial.values.map(\.firstSeen).min(), now - since > patience {
                waitingForKeyFrame = true
            }
            // Skip to the first complete key frame after the checkpoint, once one has come.
            guard waitingForKeyFrame, let key = partial.filter({ $0.value.isKey && $0.value.isComplete }).keys.min(), let f = partial[key] else { break }
            partial = partial.filter { $0.key > key }
            out.append(release(key, f))
        }
        return out
    }

    private mutating func release(_ id: UInt32, _ f: Partial) -> AssembledFrame {
        partial[id] = nil
        checkpoint = id
        waitingForKeyFrame = false
        let data = (0...f.maxPacketID).flatMap { f.packets[$0] ?? [] }
        return AssembledFrame(frameID: id, isKey: f.isKey, referenceFrameID: f.referenceFrameID, rtpTimestamp: f.rtpTimestamp, data: data)
    }

    /// What to tell the sender: the checkpoint's low bits, complete frames after it (offsets),
    /// and the missing packets of incomplete frames up to the latest (whole frames never seen
    /// as `allPackets`), at most `maxFields` fields.
    public func feedback(receiverSSRC: UInt32, playoutDelayMs: UInt16, count: UInt8, maxFields: Int = 64) -> CastFeedback {
        var fields: [LossField] = []
        var acked: [Int] = []
        if let latest, latest >= next {
            for id in next...latest {
                let low = UInt8(truncatingIfNeeded: id)
                guard let f = partial[id] else {
                    fields.append(LossField(frameID: low, packetID: LossField.allPackets))
                    continue
                }
                if f.isComplete {
                    if let c = checkpoint { acked.append(Int(id &- c)) }
                    continue
                }
                // A frame's missing packets: those below the highest received one, and (for a
                // frame older than the latest) those after it too.
                let highest = f.packets.keys.max() ?? 0
                let last = id < latest ? f.maxPacketID : highest
                var missing = (0...last).filter { f.packets[$0] == nil }
                while let base = missing.first {
                    var mask: UInt8 = 0
                    missing.removeFirst()
                    while let n = missing.first, n - base <= 8 {
                        mask |= 1 << (n - base - 1)
                        missing.removeFirst()
                    }
                    fields.append(LossField(frameID: low, packetID: base, bitmask: mask))
                }
                if fields.count >= maxFields { break }
            }
        }
        return CastFeedback(
            receiverSSRC: receiverSSRC, senderSSRC: senderSSRC, checkpointFrameID: UInt8(truncatingIfNeeded: checkpoint ?? 0xFFFF_FFFF),
            playoutDelayMs: playoutDelayMs, lossFields: Array(fields.prefix(maxFields)), feedbackCount: count, ackedOffsets: acked.filter { $0 >= 2 })
    }
}
