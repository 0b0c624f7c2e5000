// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import NIOCore
import NIOPosix

/// What the receiver's RTCP means for the encoder.
public enum StreamingSenderEvent: Sendable, Equatable {
    /// Send a key frame next (the receiver lost the picture).
    case keyFrameWanted
    /// The receiver's latest loss report, the fraction of packets lost (0–255 = 0–100 %).
    case loss(UInt8)
    /// No RTCP from the receiver for `seconds`: it has gone (or the network dropped everything).
    case receiverSilent(seconds: Int)
}

/// The sender's Cast Streaming session for one video stream (audio joins it the same way):
/// a UDP socket toward the receiver's `udpPort`, the stream's `StreamSender`, a sender report
/// every half second, and the receiver's feedback turned into retransmissions and events.
/// Its state lives on the socket's event loop; `send` may be called from anywhere.
public final class StreamingSender: @unchecked Sendable {
    public let events: AsyncStream<StreamingSenderEvent>
    private let continuation: AsyncStream<StreamingSenderEvent>.Continuation
    private var endpoint: UDPEndpoint?
    private let loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    private let receiver: SocketAddress
    private var video: StreamSender
    private let started = Date()
    private var lastRTCP: Date?
    private var reports: RepeatedTask?
    private var silentAfter: Double

    private init(receiver: SocketAddress, video: StreamSender, silentAfter: Double) {
        self.receiver = receiver
        self.video = video
        self.silentAfter = silentAfter
        (events, continuation) = AsyncStream.makeStream(of: StreamingSenderEvent.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Opens the socket and starts reporting. `host` and `port` are the receiver's address and
    /// the ANSWER's `udpPort`.
    public static func start(
        host: String, port: Int, video: OfferedStream, receiverSSRC: UInt32, silentAfter: Double = 5
    ) async throws(CastStreamingError)
        -> StreamingSender
    {
        let address: SocketAddress
        do { address = try SocketAddress.makeAddressResolvingHost(host, port: port) } catch {
            throw CastStreamingError("the receiver's address \(host):\(port) cannot be used (\(error))")
        }
        let session = StreamingSender(receiver: address, video: try StreamSender(stream: video, receiverSSRC: receiverSSRC), silentAfter: silentAfter)
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

    /// Sends one encoded frame now; its RTP time is the time since the session started.
    public func send(frame data: [UInt8], isKey: Bool) {
        loop.execute { [self] in
            guard let endpoint else { return }
            for d in video.send(frame: data, isKey: isKey, rtpTimestamp: rtpNow()) { endpoint.send(d, to: receiver) }
        }
    }

    /// Packets sent again because the receiver asked (for tests and the summary line).
    public var retransmitted: Int {
        get async { (try? await loop.submit { self.video.retransmitted }.get()) ?? 0 }
    }

    public func close() {
        loop.execute { [self] in
            reports?.cancel()
            endpoint?.close()
            continuation.finish()
        }
    }

    private func rtpNow() -> UInt32 {
        UInt32(truncatingIfNeeded: Int64(Date().timeIntervalSince(started) * Double(video.stream.clockRate)))
    }

    private func receive(_ bytes: [UInt8]) {
        guard RTPPacket.isRTCP(bytes), let packets = try? RTCPPacket.parse(bytes) else { return }
        lastRTCP = Date()
        let actions = video.handle(packets, now: Date().timeIntervalSince(started))
        for d in actions.retransmit { endpoint?.send(d, to: receiver) }
        if actions.keyFrameWanted { continuation.yield(.keyFrameWanted) }
        if let lost = actions.fractionLost { continuation.yield(.loss(lost)) }
    }

    private func report() {
        guard let endpoint, video.nextFrameID > 0 else { return }
        endpoint.send(video.senderReport(ntp: NTPTime.now(), rtpTimestamp: rtpNow()), to: receiver)
        let quiet = Date().timeIntervalSince(lastRTCP ?? started)
        if quiet >= silentAfter { continuation.yield(.receiverSilent(seconds: Int(quiet))) }
    }
}
