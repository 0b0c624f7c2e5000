// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import NIOCore
import NIOPosix

/// What the receiver's RTCP means for the encoder.
public enum StreamingSenderEvent: Sendable, Equatable {
    /// Send a key frame next (the receiver lost the picture).
    case keyFrameWanted
    /// The receiver's latest loss report on the video stream, the fraction of packets lost
    /// (0–255 = 0–100 %).
    case loss(UInt8)
    /// No RTCP from the receiver for `seconds`: it has gone (or the network dropped everything).
    case receiverSilent(seconds: Int)
    /// Half a second went by (the sender report's timer): whoever watches the events may act on
    /// time alone, even when the receiver says nothing (sound alone, or nothing sent yet).
    case tick
}

/// The sender's Cast Streaming session: one UDP socket toward the receiver's `udpPort` that
/// carries every accepted stream (a video and/or an audio `StreamSender`), a sender report for
/// each every half second, and the receiver's RTCP handed to every stream (each acts only on
/// the packets naming its own SSRCs) and turned into retransmissions and events. Key-frame
/// and loss events come from the video stream; the audio stream is repaired by
/// retransmission alone. Its state lives on the socket's event loop; `send` may be called
/// from anywhere.
public final class StreamingSender: @unchecked Sendable {
    public let events: AsyncStream<StreamingSenderEvent>
    private let continuation: AsyncStream<StreamingSenderEvent>.Continuation
    private var endpoint: UDPEndpoint?
    private let loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    private let receiver: SocketAddress
    private var video: StreamSender?
    private var audio: StreamSender?
    private var audioClock = AudioClock()
    private let started = Date()
    private var lastRTCP: Date?
    private var reports: RepeatedTask?
    private var silentAfter: Double
    /// Whether the receiver took the video stream / the audio stream.
    public let sendsVideo: Bool
    public let sendsAudio: Bool

    private init(receiver: SocketAddress, video: StreamSender?, audio: StreamSender?, silentAfter: Double) {
        self.receiver = receiver
        self.video = video
        self.audio = audio
        self.silentAfter = silentAfter
        (sendsVideo, sendsAudio) = (video != nil, audio != nil)
        (events, continuation) = AsyncStream.makeStream(of: StreamingSenderEvent.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Opens the socket and starts reporting. `host` and `port` are the receiver's address and
    /// the ANSWER's `udpPort`; `streams` the accepted streams with the receiver's SSRC for each
    /// (at most one video and one audio).
    public static func start(
        host: String, port: Int, streams: [(stream: OfferedStream, receiverSSRC: UInt32)], silentAfter: Double = 5
    ) async throws(CastStreamingError) -> StreamingSender {
        let address: SocketAddress
        do { address = try SocketAddress.makeAddressResolvingHost(host, port: port) } catch {
            throw CastStreamingError("the receiver's address \(host):\(port) cannot be used (\(error))")
        }
        var video: StreamSender?, audio: StreamSender?
        for (s, r) in streams {
            switch s.kind {
            case .video: video = try StreamSender(stream: s, receiverSSRC: r)
            case .audio: audio = try StreamSender(stream: s, receiverSSRC: r)
            }
        }
        let session = StreamingSender(receiver: address, video: video, audio: audio, silentAfter: silentAfter)
        let any = address.protocol == .inet6 ? "::" : "0.0.0.0"
        let endpoint = try await UDPEndpoint.bind(host: any, port: 0, loop: session.loop) { [weak session] bytes, _ in session?.receive(bytes) }
        session.loop.execute {
            session.endpoint = endpoint
            session.reports = session.loop.scheduleRepeatedTask(initialDelay: .milliseconds(100), delay: .milliseconds(500)) { [weak session] _ in
                session?.report()
            }
        }
        return session
    }

    /// Sends one encoded video frame now; its RTP time is the time since the session started.
    public func send(frame data: [UInt8], isKey: Bool) {
        loop.execute { [self] in
            guard let endpoint, video != nil else { return }
            let time = rtpNow(clockRate: video!.stream.clockRate)
            for d in video!.send(frame: data, isKey: isKey, rtpTimestamp: time) { endpoint.send(d, to: receiver) }
        }
    }

    /// Sends one Opus packet of `samples` samples now. Every audio frame stands alone (a key
    /// frame); its RTP time advances by the samples sent, not by the clock (`AudioClock`).
    public func send(audio data: [UInt8], samples: Int) {
        loop.execute { [self] in
            guard let endpoint, audio != nil else { return }
            let time = audioClock.next(samples: samples, wallTime: Date().timeIntervalSince(started), rate: audio!.stream.clockRate)
            for d in audio!.send(frame: data, isKey: true, rtpTimestamp: time) { endpoint.send(d, to: receiver) }
        }
    }

    /// Packets sent again because the receiver asked (for tests and the summary line).
    public var retransmitted: Int {
        get async { (try? await loop.submit { (self.video?.retransmitted ?? 0) + (self.audio?.retransmitted ?? 0) }.get()) ?? 0 }
    }

    public func close() {
        loop.execute { [self] in
            reports?.cancel()
            endpoint?.close()
            continuation.finish()
        }
    }

    private func rtpNow(clockRate: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: Int64(Date().timeIntervalSince(started) * Double(clockRate)))
    }

    private func receive(_ bytes: [UInt8]) {
        guard RTPPacket.isRTCP(bytes), let packets = try? RTCPPacket.parse(bytes) else { return }
        lastRTCP = Date()
        let now = Date().timeIntervalSince(started)
        if let actions = audio?.handle(packets, now: now) {
            for d in actions.retransmit { endpoint?.send(d, to: receiver) }
        }
        if let actions = video?.handle(packets, now: now) {
            for d in actions.retransmit { endpoint?.send(d, to: receiver) }
            if actions.keyFrameWanted { continuation.yield(.keyFrameWanted) }
            if let lost = actions.fractionLost { continuation.yield(.loss(lost)) }
        }
    }

    private func report() {
        guard let endpoint else { return }
        continuation.yield(.tick)
        let ntp = NTPTime.now()
        if let video, video.nextFrameID > 0 {
            endpoint.send(video.senderReport(ntp: ntp, rtpTimestamp: rtpNow(clockRate: video.stream.clockRate)), to: receiver)
        }
        if let audio, audio.nextFrameID > 0, let time = audioClock.now(wallTime: Date().timeIntervalSince(started), rate: audio.stream.clockRate) {
            endpoint.send(audio.senderReport(ntp: ntp, rtpTimestamp: time), to: receiver)
        }
        guard (video?.nextFrameID ?? 0) > 0 || (audio?.nextFrameID ?? 0) > 0 else { return }
        let quiet = Date().timeIntervalSince(lastRTCP ?? started)
        if quiet >= silentAfter { continuation.yield(.receiverSilent(seconds: Int(quiet))) }
    }
}
