// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import XCTest

/// A deliberately small, independent Cast sender for tests: TLS over loopback, frames
/// decoded with CastProtocol's `CastFrameDecoder`, every received message kept in an
/// inbox. It answers the receiver's PINGs unless told not to.
final class TestSender: Sendable {
    struct Timeout: Error, CustomStringConvertible {
        var what: String
        var description: String { "timed out waiting for \(what)" }
    }

    let channel: any Channel
    let id: String
    private let inbox: Inbox

    final class Inbox: Sendable {
        let messages = Mutex<[CastMessage]>([])
        let answerPings = Mutex(true)
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        var decoder = CastFrameDecoder()
        let inbox: Inbox
        init(inbox: Inbox) { self.inbox = inbox }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            decoder.append(buffer.readBytes(length: buffer.readableBytes) ?? [])
            do {
                while let m = try decoder.nextMessage() {
                    if m.namespace == CastNamespace.heartbeatURN, m.utf8?.contains("PING") == true, inbox.answerPings.withLock({ $0 }) {
                        let pong = CastMessage(source: m.destinationID == "*" ? "sender-0" : m.destinationID, destination: m.sourceID, HeartbeatMessage.pong)
                        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: try pong.framed())), promise: nil)
                    }
                    inbox.messages.withLock { $0.append(m) }
                }
            } catch {
                context.close(promise: nil)
            }
        }
    }

    private init(channel: any Channel, id: String, inbox: Inbox) {
        self.channel = channel
        self.id = id
        self.inbox = inbox
    }

    static func connect(port: Int, id: String = "sender-0", group: any EventLoopGroup) async throws -> TestSender {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        let context = try NIOSSLContext(configuration: tls)
        let inbox = Inbox()
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil))
                    try channel.pipeline.syncOperations.addHandler(Handler(inbox: inbox))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return TestSender(channel: channel, id: id, inbox: inbox)
    }

    func stopAnsweringPings() { inbox.answerPings.withLock { $0 = false } }

    func sendRaw(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
    }

    func send(_ message: CastMessage) async throws {
        try await sendRaw(try message.framed())
    }

    func send<M: CastJSONMessage>(_ message: M, to destination: String) async throws {
        try await send(CastMessage(source: id, destination: destination, message))
    }

    /// Sends JSON text as-is on a namespace.
    func send(json: String, namespace: String, to destination: String) async throws {
        try await send(CastMessage(source: id, destination: destination, namespace: namespace, utf8: json))
    }

    func connect(to destination: String) async throws {
        try await send(ConnectionMessage.connect(ConnectRequest()), to: destination)
    }

    var received: [CastMessage] { inbox.messages.withLock { $0 } }

    func clear() { inbox.messages.withLock { $0.removeAll() } }

    /// Waits for (and removes) the first received message matching `predicate`.
    @discardableResult
    func next(_ what: String = "a message", timeout: Double = 10, where predicate: @Sendable (CastMessage) -> Bool) async throws -> CastMessage {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found: CastMessage? = inbox.messages.withLock { list in
                guard let i = list.firstIndex(where: predicate) else { return nil }
                return list.remove(at: i)
            }
            if let found { return found }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw Timeout(what: what)
    }

    /// The next MEDIA_STATUS carrying `requestId`.
    func mediaStatus(requestId: Int, timeout: Double = 10) async throws -> MediaStatusMessage {
        let m = try await next("MEDIA_STATUS \(requestId)", timeout: timeout) { m in
            guard case .media(.mediaStatus(let s))? = try? m.decoded() else { return false }
            return s.requestId == requestId
        }
        guard case .media(.mediaStatus(let s)) = try m.decoded() else { throw Timeout(what: "MEDIA_STATUS") }
        return s
    }

    /// The single status entry of the next MEDIA_STATUS carrying `requestId`.
    func firstStatus(requestId: Int, timeout: Double = 10) async throws -> MediaStatus {
        guard let first = try await mediaStatus(requestId: requestId, timeout: timeout).status.first else {
            throw Timeout(what: "a non-empty MEDIA_STATUS \(requestId)")
        }
        return first
    }

    /// The next media-namespace reply carrying `requestId` (status or error).
    func mediaReply(requestId: Int, timeout: Double = 10) async throws -> MediaMessage {
        let m = try await next("media reply \(requestId)", timeout: timeout) { m in
            guard case .media(let r)? = try? m.decoded() else { return false }
            return r.requestId == requestId
        }
        guard case .media(let r) = try m.decoded() else { throw Timeout(what: "media reply") }
        return r
    }

    func receiverReply(requestId: Int, timeout: Double = 10) async throws -> ReceiverMessage {
        let m = try await next("receiver reply \(requestId)", timeout: timeout) { m in
            guard case .receiver(let r)? = try? m.decoded() else { return false }
            return r.requestId == requestId
        }
        guard case .receiver(let r) = try m.decoded() else { throw Timeout(what: "receiver reply") }
        return r
    }

    /// Waits until the receiver closes the socket.
    func waitForClose(timeout: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while channel.isActive {
            guard Date() < deadline else { throw Timeout(what: "the receiver to close the socket") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func close() async {
        try? await channel.close().get()
    }
}
