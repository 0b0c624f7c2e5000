// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import NIOCore

/// Turns the TLS byte stream into `CastMessage`s with CastProtocol's streaming
/// `CastFrameDecoder`. A frame over 64 KiB, an empty frame or a body that is not a valid
/// CastMessage makes the stream unusable: the error goes down the pipeline, where the
/// connection handler logs it and closes that one connection.
final class CastMessageByteDecoder: ByteToMessageDecoder {
    typealias InboundOut = CastMessage

    private var decoder = CastFrameDecoder()

    func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if let bytes = buffer.readBytes(length: buffer.readableBytes), !bytes.isEmpty {
            decoder.append(bytes)
        }
        while let message = try decoder.nextMessage() {
            context.fireChannelRead(wrapInboundOut(message))
        }
        return .needMoreData
    }

    func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        _ = try decode(context: context, buffer: &buffer)
        return .needMoreData
    }
}

@available(*, unavailable)
extension CastMessageByteDecoder: Sendable {}

/// Frames outgoing `CastMessage`s (4-byte length + protobuf body).
final class CastMessageEncoder: MessageToByteEncoder {
    typealias OutboundIn = CastMessage

    func encode(data: CastMessage, out: inout ByteBuffer) throws {
        out.writeBytes(try data.framed())
    }
}

@available(*, unavailable)
extension CastMessageEncoder: Sendable {}
