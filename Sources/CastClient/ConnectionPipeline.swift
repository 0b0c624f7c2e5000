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
    /// A message the fast path did not take, with its decoded form.
    case message(CastMessage, Result<NamespacedMessage, CastProtocolError>)
    case closed(DisconnectReason)
}

/// The last handler: decodes each message, lets `LinkState` apply it at once when it can,
/// hands the rest and the end of the connection to an AsyncStream, and reports the TLS
/// handshake through a promise.
final class CastBridgeHandler: ChannelInboundHandler {
    typealias InboundIn = CastMessage

    private let input: AsyncStream<ConnectionInput>.Continuation
    private let link: LinkState
    private let handshake: EventLoopPromise<Void>
    private var handshakeDone = false
    private var error: DisconnectReason?
    private var closed = false

    init(input: AsyncStream<ConnectionInput>.Continuation, link: LinkState, handshake: EventLoopPromise<Void>) {
        self.input = input
        self.link = link
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
        let raw = unwrapInboundIn(data)
        if case .queued(let decoded) = link.arrive(raw) {
            input.yield(.message(raw, decoded))
        }
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
