// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import NIOCore
import NIOSSL

/// A virtual connection: a sender id on one socket talking to one receiver endpoint.
struct VirtualConnection: Hashable {
    /// The sender's `source_id`, e.g. `sender-0`.
    var sender: String
    /// `receiver-0` or an app's transport id.
    var peer: String
}

/// One TLS socket from a sender, with its virtual connections and heartbeat bookkeeping.
/// Confined to the receiver's event loop.
final class SenderConnection {
    let id: Int
    let channel: any Channel
    let openedAt = NIODeadline.now()
    var lastInbound = NIODeadline.now()
    var messagesIn = 0
    var virtualConnections: Set<VirtualConnection> = []
    var heartbeat: RepeatedTask?
    var closing = false

    init(id: Int, channel: any Channel) {
        self.id = id
        self.channel = channel
    }

    /// Sender ids on this socket connected to `peer`.
    func senders(connectedTo peer: String) -> [String] {
        virtualConnections.filter { $0.peer == peer }.map(\.sender).sorted()
    }
}

@available(*, unavailable)
extension SenderConnection: Sendable {}

/// The last handler of a sender's pipeline: hands messages to the receiver core and
/// reports errors and the end of the socket.
final class SenderChannelHandler: ChannelInboundHandler {
    typealias InboundIn = CastMessage

    private let core: ReceiverCore
    private var connection: SenderConnection?

    init(core: ReceiverCore) {
        self.core = core
    }

    func channelActive(context: ChannelHandlerContext) {
        connection = core.register(channel: context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let connection else { return }
        core.handle(unwrapInboundIn(data), from: connection)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let connection { core.unregister(connection) }
        connection = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Many senders (pychromecast among them) close without a TLS close_notify: that is
        // an ordinary goodbye, not bad input.
        if let e = error as? NIOSSLError, case .uncleanShutdown = e {
            context.close(promise: nil)
            return
        }
        let reason: String
        switch error {
        case let e as CastProtocolError: reason = e.description
        case let e as NIOSSLError: reason = "TLS failed (\(e))"
        case let e as ByteToMessageDecoderError: reason = "unreadable input (\(e))"
        default: reason = "\(error)"
        }
        core.connectionFailed(connection, reason: reason)
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension SenderChannelHandler: Sendable {}
