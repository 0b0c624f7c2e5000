// SPDX-License-Identifier: GPL-3.0-or-later
// The NIO side of a connection: frame decoding/encoding and the bridge into Swift concurrency.
import CastCore
import CastProtocol
import CastProtocolNIO
import NIOCore
import NIOSSL
import NIOTLS

/// What the pipeline reports to the connection actor, in order.
enum ConnectionInput: Sendable {
    case message(CastMessage)
    case closed(DisconnectReason)
}

/// The last handler: hands messages and the end of the connection to an AsyncStream,
/// and reports the TLS handshake through a promise.
final class CastBridgeHandler: ChannelInboundHandler {
    typealias InboundIn = CastMessage

    private let input: AsyncStream<ConnectionInput>.Continuation
    private let handshake: EventLoopPromise<Void>
    private var handshakeDone = false
    private var error: DisconnectReason?
    private var closed = false

    init(input: AsyncStream<ConnectionInput>.Continuation, handshake: EventLoopPromise<Void>) {
        self.input = input
        self.handshake = handshake
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tls = event as? TLSUserEvent, case .handshakeCompleted = tls, !handshakeDone {
            handshakeDone = true
            handshake.succeed(())
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        input.yield(.message(unwrapInboundIn(data)))
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
            input.yield(.closed(error ?? .closedByDevice))
            input.finish()
        }
        context.fireChannelInactive()
    }
}

@available(*, unavailable)
extension CastBridgeHandler: Sendable {}
