// SPDX-License-Identifier: GPL-3.0-or-later
// CastProtocol's framing as SwiftNIO handlers, shared by the sender (CastClient) and the
// simulated receiver (CastReceiver), which may not import each other. CastProtocol itself
// stays free of NIO so the fuzzer and the decode benchmark build it alone.
import CastProtocol
import NIOCore

/// Turns the TLS byte stream into `CastMessage`s with CastProtocol's streaming
/// `CastFrameDecoder`. A frame over 64 KiB, an empty frame or a body that is not a valid
/// CastMessage makes the stream unusable: the typed `CastProtocolError` goes down the
/// pipeline, where the connection logs it and closes that one connection.
public final class CastMessageDecoder: ByteToMessageDecoder {
    public typealias InboundOut = CastMessage
    private var frames = CastFrameDecoder()

    public init() {}

    public func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if buffer.readableBytes > 0 {
            frames.append(buffer.readableBytesView)
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        }
        while let message = try frames.nextMessage() {
            context.fireChannelRead(wrapInboundOut(message))
        }
        return .needMoreData
    }

    public func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        _ = try decode(context: context, buffer: &buffer)
        return .needMoreData
    }
}

@available(*, unavailable)
extension CastMessageDecoder: Sendable {}

/// Writes `CastMessage`s as length-prefixed frames (4-byte length + protobuf body).
public final class CastMessageEncoder: MessageToByteEncoder {
    public typealias OutboundIn = CastMessage

    public init() {}

    public func encode(data: CastMessage, out: inout ByteBuffer) throws {
        out.writeBytes(try data.framed())
    }
}

@available(*, unavailable)
extension CastMessageEncoder: Sendable {}
