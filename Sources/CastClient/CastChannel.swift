// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol
import NIOCore

/// What happens to a custom channel.
public enum CastChannelEvent: Sendable, Equatable {
    /// The session connected and its app lists the namespace: messages can flow.
    case didConnect
    /// The session ended or the app no longer lists the namespace.
    case didDisconnect
    /// A message from the receiver app.
    case message(CastPayload)
}

/// An app-defined channel (a `urn:x-cast:` namespace), like GCKCastChannel / GCKGenericChannel.
///
/// Register it on a session any time (`CastSession.channel(namespace:)`). It connects when the
/// session connects and the running app lists its namespace, and disconnects when that ends.
/// Sending while not connected throws `.channelNotConnected`.
public actor CastChannel {
    public nonisolated let namespace: String
    /// The session's event loop (this actor's executor, shared with the session and its link).
    nonisolated let loop: any EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }
    private var link: (connection: CastConnection, transportID: String)?
    private let events = Broadcast<CastChannelEvent>(bufferSize: 256)

    /// Validates the namespace: `urn:x-cast:` + a name, at most 128 characters, and not
    /// one of the names Google reserves (`urn:x-cast:com.google.cast.tp.*`, receiver, media, …).
    public static func validate(_ namespace: String) throws(CastClientError) {
        do {
            _ = try CastNamespace.validatedCustom(namespace)
        } catch {
            throw .invalidNamespace(namespace)
        }
        if case .custom = CastNamespace(urn: namespace) {} else { throw .invalidNamespace(namespace) }
        let reserved = ["tp.", "receiver", "media", "remoting", "webrtc", "broadcast", "multizone"]
        let google = "urn:x-cast:com.google.cast."
        if namespace.hasPrefix(google), reserved.contains(where: { namespace.dropFirst(google.count).hasPrefix($0) }) {
            throw .invalidNamespace(namespace)
        }
    }

    init(namespace: String, loop: any EventLoop) {
        self.namespace = namespace
        self.loop = loop
    }

    /// Whether messages can be sent now.
    public var isConnected: Bool { link != nil }

    /// didConnect / didDisconnect and every received message, from now on.
    public nonisolated func updates() -> AsyncStream<CastChannelEvent> { events.stream() }

    /// Only the received messages, from now on.
    public nonisolated func messages() -> AsyncStream<CastPayload> {
        let source = events.stream()
        return AsyncStream { continuation in
            let task = Task {
                for await event in source {
                    if case .message(let payload) = event { continuation.yield(payload) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Sends a text message (JSON by convention).
    public func send(_ text: String) async throws(CastClientError) {
        try await send(payload: .string(text))
    }

    /// Sends a binary message.
    public func send(bytes: [UInt8]) async throws(CastClientError) {
        try await send(payload: .binary(bytes))
    }

    private func send(payload: CastPayload) async throws(CastClientError) {
        guard let link else { throw .channelNotConnected(namespace: namespace) }
        let message = CastMessage(sourceID: link.connection.senderID, destinationID: link.transportID, namespace: namespace, payload: payload)
        try await link.connection.send(message)
    }

    // MARK: called by CastSession

    /// The joined app lists this namespace: route it here on `connection` (same loop).
    func connect(connection: CastConnection, transportID: String) {
        let wasConnected = link != nil
        if let old = link?.connection, old !== connection { old.assumeIsolated { $0.detach(self) } }
        link = (connection, transportID)
        connection.assumeIsolated { $0.attach([self]) }
        if !wasConnected { events.send(.didConnect) }
    }

    func disconnect() {
        guard let old = link else { return }
        link = nil
        old.connection.assumeIsolated { $0.detach(self) }
        events.send(.didDisconnect)
    }
}

extension CastChannel: NamespaceController {
    nonisolated var namespaces: [String] { [namespace] }

    /// A message of the app on this namespace (messages from other sources are not for us).
    func receive(_ message: InboundMessage, from link: CastConnection) {
        guard let current = self.link, current.connection === link, message.raw.sourceID == current.transportID else { return }
        events.send(.message(message.raw.payload))
    }

    func linkEnded(_ reason: DisconnectReason, link: CastConnection) {
        // The session disconnects the channel when it lets the app go (releaseApp).
    }
}
