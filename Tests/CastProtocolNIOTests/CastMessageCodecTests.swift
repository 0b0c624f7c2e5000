// SPDX-License-Identifier: GPL-3.0-or-later
// The NIO framing handler in an EmbeddedChannel: the bytes come in as a TLS stream would
// deliver them (one at a time, several frames at once), and a corrupt header stops it.
import CastProtocol
import CastProtocolNIO
import NIOCore
import NIOEmbedded
import Testing

@Suite struct CastMessageCodecTests {
    let ping = CastMessage(source: "sender-0", destination: "receiver-0", HeartbeatMessage.ping)
    let status = CastMessage(
        source: "receiver-0", destination: "sender-0", namespace: CastNamespace.receiverURN,
        utf8: #"{"type":"RECEIVER_STATUS","requestId":7,"status":{"volume":{"level":0.5}}}"#)

    func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(CastFramingHandler())
        return channel
    }

    func bytes(_ messages: CastMessage...) throws -> [UInt8] {
        try messages.flatMap { try $0.framed() }
    }

    func buffer(_ bytes: some Sequence<UInt8>) -> ByteBuffer { ByteBuffer(bytes: Array(bytes)) }

    @Test func dripFedBytesMakeOneMessageAtTheLastByte() throws {
        let channel = try channel()
        let frame = try bytes(status)
        for byte in frame.dropLast() {
            try channel.writeInbound(buffer([byte]))
            #expect(try channel.readInbound(as: CastMessage.self) == nil)
        }
        try channel.writeInbound(buffer([frame.last!]))
        #expect(try channel.readInbound(as: CastMessage.self) == status)
        #expect(try channel.finish().isClean)
    }

    @Test func coalescedFramesComeOutInOrder() throws {
        let channel = try channel()
        let all = try bytes(ping, status, ping)
        // Two frames and a half, then the rest: as reads coalesce on a busy link.
        let cut = all.count - 5
        try channel.writeInbound(buffer(all[..<cut]))
        #expect(try channel.readInbound(as: CastMessage.self) == ping)
        #expect(try channel.readInbound(as: CastMessage.self) == status)
        #expect(try channel.readInbound(as: CastMessage.self) == nil)
        try channel.writeInbound(buffer(all[cut...]))
        #expect(try channel.readInbound(as: CastMessage.self) == ping)
        #expect(try channel.finish().isClean)
    }

    @Test func anOversizeHeaderIsATypedError() throws {
        let channel = try channel()
        // 65,537 bytes announced: one more than a frame may carry.
        #expect(throws: CastProtocolError.frameTooLarge(length: 65_537)) {
            try channel.writeInbound(buffer([0x00, 0x01, 0x00, 0x01]))
        }
        // The stream is unusable after that: a valid frame behind it is not read.
        try channel.writeInbound(buffer(try bytes(ping)))
        #expect(try channel.readInbound(as: CastMessage.self) == nil)
        _ = try? channel.finish()
    }

    @Test func aMessageTooLargeToFrameFailsItsWrite() throws {
        let channel = try channel()
        let big = CastMessage(source: "s", destination: "d", namespace: "urn:x-cast:big", utf8: String(repeating: "x", count: 70_000))
        let written = channel.write(big)
        channel.flush()
        #expect(throws: CastProtocolError.self) { try written.wait() }
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        _ = try? channel.finish()
    }

    @Test func theEncoderWritesLengthPrefixedFrames() throws {
        let channel = try channel()
        try channel.writeOutbound(status)
        var out = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(out.readBytes(length: out.readableBytes) == (try bytes(status)))
        let length = try status.framed().count - 4
        #expect(try status.framed().prefix(4).elementsEqual([0, 0, UInt8(length >> 8), UInt8(length & 0xFF)]))
        #expect(try channel.finish().isClean)
    }
}
