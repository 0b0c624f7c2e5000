// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import NIOCore
import NIOPosix

/// A frame the receiver has put together and decrypted.
public struct ReceivedFrame: Sendable {
    public var stream: OfferedStream
    public var frameID: UInt32
    public var isKey: Bool
    public var rtpTimestamp: UInt32
    public var data: [UInt8]
    public var receivedAt: Date
}

/// The receiving end of a Cast Streaming session, as a device runs it: answers an OFFER with
/// the streams it can play, takes RTP on its UDP port, decrypts and assembles frames (in
/// order, `FrameAssembler`), and reports back: Cast feedback whenever a frame completes or
/// packets are missing, a receiver report and reference time every 100 ms, and a picture loss
/// while it waits for a key frame. State lives on the socket's event loop.
public final class StreamingReceiver: @unchecked Sendable {
    /// Codecs the simulator decodes (with ffmpeg).
    public static let playable: Set<String> = ["vp8", "h264", "opus"]

    private struct Stream {
        var offer: OfferedStream
        var receiverSSRC: UInt32
        var crypto: FrameCrypto
        var assembler: FrameAssembler
        var feedbackCount: UInt8 = 0
        var lastPLI = -1.0
        // Receiver report figures: the highest sequence (extended) and packets counted.
        var baseSequence: UInt32?
        var highestSequence: UInt32 = 0
        var received: UInt32 = 0
        var expectedPrior: UInt32 = 0
        var receivedPrior: UInt32 = 0
        var lastSR: (ntpMiddle: UInt32, at: Double)?
    }

    private let loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    private var endpoint: UDPEndpoint?
    private var streams: [UInt32: Stream] = [:]
    private var sender: SocketAddress?
    private let started = Date()
    private let onFrame: @Sendable (ReceivedFrame) -> Void
    private var ticker: RepeatedTask?
    private var feedbackPending = false
    /// Packets that were not RTP or RTCP of this session: wrong SSRC, malformed, stale.
    public private(set) var rejectedPackets = 0

    private init(onFrame: @escaping @Sendable (ReceivedFrame) -> Void) { self.onFrame = onFrame }

    /// The ANSWER for `offer` and, when it takes any stream, the running session on a fresh UDP
    /// port of `host`. It takes the first offered video and audio stream of a codec it plays
    /// (of `playable`).
    public static func answer(
        _ offer: StreamingOffer, host: String, playable: Set<String> = playable, onFrame: @escaping @Sendable (ReceivedFrame) -> Void
    ) async
        -> (StreamingAnswer, StreamingReceiver?)
    {
        var chosen: [OfferedStream] = []
        for kind in [OfferedStream.Kind.video, .audio] {
            if let s = offer.streams.first(where: { $0.kind == kind && playable.contains($0.codecName) }) { chosen.append(s) }
        }
        guard !chosen.isEmpty else {
            let codecs = Set(offer.streams.map(\.codecName)).sorted().joined(separator: ", ")
            return (StreamingAnswer(seqNum: offer.seqNum, udpPort: nil, sendIndexes: [], ssrcs: [], error: "no offered codec can be played (\(codecs))"), nil)
        }
        let session = StreamingReceiver(onFrame: onFrame)
        var ssrcs: [UInt32] = []
        for s in chosen {
            guard let crypto = try? FrameCrypto(key: s.aesKey, ivMask: s.aesIvMask) else { continue }
            let mine = UInt32.random(in: 1...UInt32.max)
            ssrcs.append(mine)
            session.streams[s.ssrc] = Stream(offer: s, receiverSSRC: mine, crypto: crypto, assembler: FrameAssembler(senderSSRC: s.ssrc))
        }
        do {
            let endpoint = try await UDPEndpoint.bind(host: host, port: 0, loop: session.loop) { [weak session] bytes, from in
                session?.receive(bytes, from: from)
            }
            session.loop.execute {
                session.endpoint = endpoint
                session.ticker = session.loop.scheduleRepeatedTask(initialDelay: .milliseconds(100), delay: .milliseconds(100)) { [weak session] _ in
                    session?.tick()
                }
            }
            var answer = StreamingAnswer(seqNum: offer.seqNum, udpPort: endpoint.localPort, sendIndexes: chosen.map(\.index), ssrcs: ssrcs)
            (answer.maxWidth, answer.maxHeight, answer.maxFrameRate) = (1920, 1080, 60)
            (answer.minBitRate, answer.maxBitRate) = (300_000, 10_000_000)
            return (answer, session)
        } catch {
            return (StreamingAnswer(seqNum: offer.seqNum, udpPort: nil, sendIndexes: [], ssrcs: [], error: error.description), nil)
        }
    }

    public func close() {
        loop.execute { [self] in
            ticker?.cancel()
            endpoint?.close()
        }
    }

    private var now: Double { Date().timeIntervalSince(started) }

    private func receive(_ bytes: [UInt8], from: SocketAddress) {
        if RTPPacket.isRTCP(bytes) {
            guard let packets = try? RTCPPacket.parse(bytes) else { return reject() }
            for case .senderReport(let ssrc, let ntp, _, _, _) in packets where streams[ssrc] != nil {
                streams[ssrc]?.lastSR = (NTPTime.middle(ntp), now)
            }
            return
        }
        guard let packet = try? RTPPacket(parsing: bytes), var s = streams[packet.ssrc] else { return reject() }
        sender = from
        let seq = UInt32(packet.sequence)
        if s.baseSequence != nil {
            // Extend the 16-bit sequence past wrap-arounds, relative to the highest so far.
            var ext = (s.highestSequence & ~0xFFFF) | seq
            if ext + 0x8000 < s.highestSequence { ext += 0x10000 } else if ext > s.highestSequence + 0x8000, ext >= 0x10000 { ext -= 0x10000 }
            if ext > s.highestSequence { s.highestSequence = ext }
        } else {
            s.baseSequence = seq
            s.highestSequence = seq
        }
        s.received += 1
        let fresh = s.assembler.add(packet, now: now)
        if !fresh { rejectedPackets += 1 }
        streams[packet.ssrc] = s
        let frames = deliverReady(packet.ssrc)
        // Acknowledge completed frames at once; report a gap as soon as a packet after it came.
        if !frames.isEmpty || packet.packetID == packet.maxPacketID {
            sendFeedback(for: packet.ssrc)
        } else if !feedbackPending {
            feedbackPending = true
            loop.scheduleTask(in: .milliseconds(20)) { [self] in
                feedbackPending = false
                for ssrc in streams.keys { sendFeedback(for: ssrc) }
            }
        }
    }

    private func reject() { rejectedPackets += 1 }

    /// Hands out, decrypted, the frames of a stream that are ready.
    @discardableResult
    private func deliverReady(_ ssrc: UInt32) -> [AssembledFrame] {
        guard var s = streams[ssrc] else { return [] }
        let frames = s.assembler.takeReady(now: now, patience: Double(s.offer.targetDelayMs) / 1000)
        streams[ssrc] = s
        for f in frames {
            let data = s.crypto.crypt(f.data, frameID: f.frameID)
            onFrame(ReceivedFrame(stream: s.offer, frameID: f.frameID, isKey: f.isKey, rtpTimestamp: f.rtpTimestamp, data: data, receivedAt: Date()))
        }
        return frames
    }

    private func sendFeedback(for ssrc: UInt32, withReport: Bool = false) {
        guard let sender, let endpoint, var s = streams[ssrc] else { return }
        var packets: [RTCPPacket] = []
        if withReport {
            let expected = s.baseSequence.map { s.highestSequence - $0 + 1 } ?? 0
            let expectedInterval = expected - s.expectedPrior, receivedInterval = s.received - s.receivedPrior
            let lostInterval = expectedInterval > receivedInterval ? expectedInterval - receivedInterval : 0
            let fraction = expectedInterval == 0 ? 0 : UInt8(min(255, lostInterval * 256 / expectedInterval))
            (s.expectedPrior, s.receivedPrior) = (expected, s.received)
            let dlsr = s.lastSR.map { UInt32((now - $0.at) * 65536) } ?? 0
            let block = ReportBlock(
                ssrc: ssrc, fractionLost: fraction, cumulativeLost: expected > s.received ? expected - s.received : 0, highestSequence: s.highestSequence,
                lastSenderReport: s.lastSR?.ntpMiddle ?? 0, delaySinceLastSenderReport: dlsr)
            packets += [.receiverReport(ssrc: s.receiverSSRC, block: block), .receiverReferenceTime(ssrc: s.receiverSSRC, ntp: NTPTime.now())]
        }
        packets.append(.feedback(s.assembler.feedback(receiverSSRC: s.receiverSSRC, playoutDelayMs: UInt16(s.offer.targetDelayMs), count: s.feedbackCount)))
        s.feedbackCount &+= 1
        if s.assembler.waitingForKeyFrame, now - s.lastPLI > 0.3 {
            packets.append(.pictureLoss(receiverSSRC: s.receiverSSRC, senderSSRC: ssrc))
            s.lastPLI = now
        }
        streams[ssrc] = s
        endpoint.send(RTCPPacket.compound(packets), to: sender)
    }

    private func tick() {
        for ssrc in streams.keys {
            // A frame may have been given up while no packet came (all of them lost).
            deliverReady(ssrc)
            sendFeedback(for: ssrc, withReport: true)
        }
    }
}
