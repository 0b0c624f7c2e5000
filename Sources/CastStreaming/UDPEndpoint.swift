// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import NIOCore
import NIOPosix

/// One UDP socket: Cast Streaming sends RTP and RTCP of every stream over a single port pair
/// (the receiver's `udpPort` and the sender's own), told apart by `RTPPacket.isRTCP`.
/// Datagrams arrive on `loop`, which is also where the owner keeps its state.
///
/// NIO closes a datagram channel on a send error other than "too large" or "host
/// unreachable"; a local firewall's drop (EPERM) or a full buffer (ENOBUFS) would end the
/// stream for one lost datagram. So a channel that closes without `close()` is bound again
/// on the same port, and what is sent meanwhile is lost, as UDP may lose it anyway.
public final class UDPEndpoint: @unchecked Sendable {
    public let loop: any EventLoop
    public let localPort: Int
    private let host: String
    private let receive: @Sendable ([UInt8], SocketAddress) -> Void
    // On `loop`.
    private var channel: (any Channel)?
    private var closing = false
    /// How many times the socket was bound again after NIO closed it.
    public private(set) var rebinds = 0

    private init(loop: any EventLoop, host: String, port: Int, channel: any Channel, receive: @escaping @Sendable ([UInt8], SocketAddress) -> Void) {
        self.loop = loop
        self.host = host
        self.localPort = port
        self.channel = channel
        self.receive = receive
    }

    /// Binds `host:port` (0: any free port) on `loop`; `receive` runs there for each datagram.
    public static func bind(
        host: String, port: Int, loop: any EventLoop, receive: @escaping @Sendable ([UInt8], SocketAddress) -> Void
    ) async throws(CastStreamingError) -> UDPEndpoint {
        do {
            let channel = try await open(host: host, port: port, loop: loop, receive: receive).get()
            let endpoint = UDPEndpoint(loop: loop, host: host, port: channel.localAddress?.port ?? port, channel: channel, receive: receive)
            loop.execute { endpoint.watch(channel) }
            return endpoint
        } catch {
            throw CastStreamingError("could not open a UDP port on \(host) for Cast Streaming (\(error))")
        }
    }

    private static func open(
        host: String, port: Int, loop: any EventLoop, receive: @escaping @Sendable ([UInt8], SocketAddress) -> Void
    )
        -> EventLoopFuture<any Channel>
    {
        DatagramBootstrap(group: loop)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(.socketOption(.so_rcvbuf), value: 4 << 20)
            .channelInitializer { ch in ch.eventLoop.makeCompletedFuture { try ch.pipeline.syncOperations.addHandler(Handler(receive: receive)) } }
            .bind(host: host, port: port)
    }

    private func watch(_ ch: any Channel) {
        ch.closeFuture.whenComplete { [self] _ in
            guard !closing else { return }
            channel = nil
            rebinds += 1
            Self.open(host: host, port: localPort, loop: loop, receive: receive).whenSuccess { [self] new in
                if closing {
                    new.close(promise: nil)
                } else {
                    channel = new
                    watch(new)
                }
            }
        }
    }

    /// Sends one datagram; call on `loop`.
    public func send(_ bytes: [UInt8], to address: SocketAddress) {
        guard let channel else { return }
        channel.writeAndFlush(AddressedEnvelope(remoteAddress: address, data: channel.allocator.buffer(bytes: bytes)), promise: nil)
    }

    public func close() {
        loop.execute { [self] in
            closing = true
            channel?.close(promise: nil)
        }
    }

    private final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        let receive: @Sendable ([UInt8], SocketAddress) -> Void
        init(receive: @escaping @Sendable ([UInt8], SocketAddress) -> Void) { self.receive = receive }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let envelope = Self.unwrapInboundIn(data)
            receive(Array(envelope.data.readableBytesView), envelope.remoteAddress)
        }
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            // ICMP "port unreachable" after the peer went away surfaces here; the owner notices
            // the silence (no RTCP) instead.
        }
    }
}
