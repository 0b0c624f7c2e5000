// SPDX-License-Identifier: GPL-3.0-or-later
// The NIO side of a connection: the last handler of the pipeline, which hands each frame to
// the connection actor. That actor runs on the channel's own event loop (its executor is the
// loop), so the hand-off is a plain call: no queue, no task, no thread switch.
import CastCore
import CastProtocol
import CastProtocolNIO
import NIOCore
import NIOSSL
import NIOTLS

/// The last handler: passes each decoded frame and the end of the link to its
/// `CastConnection` (synchronously, on the loop), and reports the TLS handshake through a
/// promise.
final class CastBridgeHandler: ChannelInboundHandler {
    typealias InboundIn = CastMessage

    private let connection: CastConnection
    private let handshake: EventLoopPromise<Void>
    private var handshakeDone = false
    private var error: DisconnectReason?
    private var closed = false

    init(connection: CastConnection, handshake: EventLoopPromise<Void>) {
        self.connection = connection
        self.handshake = handshake
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        connection.assumeIsolated { $0.attach(channel: channel) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tls = event as? TLSUserEvent, case .handshakeCompleted = tls, !handshakeDone {
            handshakeDone = true
            handshake.succeed(())
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let raw = unwrapInboundIn(data)
        connection.assumeIsolated { $0.receive(raw) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if self.error == nil {
            switch error {
            case let e as CastProtocolError: self.error = .corruptStream(e)
            case let e as NIOSSLError: self.error = .networkError("TLS: \(e)")
            case let e as BoringSSLError: self.error = .networkError("TLS: \(e)")
            case let e as IOError: self.error = .networkError(e.description)
            default: self.error = .networkError(String(describing: error))
            }
        }
        if !handshakeDone {
            handshakeDone = true
            handshake.fail(error)
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !handshakeDone {
            handshakeDone = true
            handshake.fail(ChannelError.eof)
        }
        if !closed {
            closed = true
            let reason = error ?? .closedByDevice
            connection.assumeIsolated { $0.linkEnded(reason) }
        }
        context.fireChannelInactive()
    }
}

@available(*, unavailable)
extension CastBridgeHandler: Sendable {}
