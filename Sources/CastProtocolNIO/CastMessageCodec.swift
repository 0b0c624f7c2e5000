// SPDX-License-Identifier: GPL-3.0-or-later
// CastProtocol's framing as one SwiftNIO handler, shared by the sender (CastClient) and the
// simulated receiver (CastReceiver), which may not import each other. CastProtocol itself
// stays free of NIO so the fuzzer and the decode benchmark build it alone.
import CastProtocol
import NIOCore

/// Turns the TLS byte stream into `CastMessage`s with CastProtocol's streaming
/// `CastFrameDecoder`, and `CastMessage`s written into length-prefixed frames (4-byte length +
/// protobuf body). A frame over 64 KiB, an empty frame or a body that is not a valid
/// CastMessage makes the stream unusable: the typed `CastProtocolError` goes down the
/// pipeline, where the connection logs it and closes that one connection, and nothing more
/// is read from it.
///
/// One handler rather than NIO's ByteToMessageHandler and MessageToByteHandler: the frame
/// decoder keeps its own buffer, so theirs was a second one, and every handler type in a
/// pipeline costs a short process a scan of the binary's conformance records when its first
/// channel is set up (NIO asks each handler whether it is inbound and whether outbound).
public final class CastFramingHandler: ChannelDuplexHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = CastMessage
    public typealias OutboundIn = CastMessage
    public typealias OutboundOut = ByteBuffer

    private var frames = CastFrameDecoder()
    private var failed = false

    public init() {}

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { frames.append($0) }
        do {
            while let message = try frames.nextMessage() {
                context.fireChannelRead(wrapInboundOut(message))
            }
        } catch {
            failed = true
            context.fireErrorCaught(error)
        }
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame: [UInt8]
        do {
            frame = try unwrapOutboundIn(data).framed()
        } catch {
            promise?.fail(error)
            context.fireErrorCaught(error)
            return
        }
        var out = context.channel.allocator.buffer(capacity: frame.count)
        out.writeBytes(frame)
        context.write(wrapOutboundOut(out), promise: promise)
    }
}

@available(*, unavailable)
extension CastFramingHandler: Sendable {}
