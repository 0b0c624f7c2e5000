// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol
import CastProtocolNIO
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// A message read from the device: the envelope and its decoded payload (or why it could not be decoded).
public struct InboundMessage: Sendable {
    public var raw: CastMessage
    public var decoded: Result<NamespacedMessage, CastProtocolError>
}

/// One TLS link to a device: framing, heartbeat, virtual connections and request/response
/// matching with timeouts. Sessions own one; most callers use `CastSession` instead.
///
/// Messages are handed to `onMessage` (or `onMessageNow`) in arrival order, and a request's
/// caller resumes only after its reply went through them, so state derived from replies is
/// current when a command returns.
public actor CastConnection {
    public nonisolated let device: DeviceAddress
    public nonisolated let senderID: String

    let channel: any Channel  // internal: CastSession+Endpoints.swift reads its addresses
    private let configuration: CastClientConfiguration
    private let logger: Logger
    private let ids = RequestIDGenerator(start: Int.random(in: 1...1000))
    /// Waiting requests and what the event loop shares (LinkState.swift).
    private let link: LinkState
    private var lastPing = ContinuousClock.now
    private var closeReason: DisconnectReason?
    private var virtualConnections: Set<String> = []
    private var tasks: [Task<Void, Never>] = []
    private let onMessage: @Sendable (InboundMessage) async -> Void
    private let onClose: @Sendable (DisconnectReason) async -> Void
    /// Device authentication of this link (CastConnection+DeviceAuth.swift).
    var deviceAuth = DeviceAuthExchange()

    /// The TLS client context every connection of the process shares (BoringSSL contexts are
    /// made for that): made once, not per connection. Cast devices present self-signed
    /// certificates; the device-authentication policy decides whether to trust one.
    static let tlsContext = Result<NIOSSLContext, any Error> {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        return try NIOSSLContext(configuration: tls)
    }

    /// Starts, on another core, the one-time work of the process's first connection: NIO's
    /// threads, the TLS context, the runtime's first look at the pipeline's handler types
    /// (each new type costs a scan of the binary's ~11,000 conformance records). A short
    /// process (castctl) calls it before parsing its command line, which then runs beside it;
    /// the connection finds it done, or waits for what is still under way. Calling it more
    /// than once does no harm. (The shipped Cast roots are not parsed here: a store parses
    /// them when a device's chain is checked, see `CastTrustStore.roots`.)
    public static func prepareFirstConnection() {
        Task.detached(priority: .userInitiated) {
            _ = MultiThreadedEventLoopGroup.singleton
            _ = tlsContext
            let handlers: [any ChannelHandler.Type] = [NIOSSLClientHandler.self, CastFramingHandler.self, CastBridgeHandler.self]
            for type in handlers {
                _ = type is any _ChannelInboundHandler.Type
                _ = type is any _ChannelOutboundHandler.Type
            }
        }
    }

    /// Connects, checks the certificate with the configured policy, opens the virtual
    /// connection to `receiver-0` and starts the heartbeat.
    /// - Parameter tcpTimeout: a shorter limit for the TCP connect alone (reconnect attempts
    ///   use it so that a SYN lost on a silent link does not hold the next attempt back).
    ///   - onMessageNow: offered each media message first, on the network thread, when no
    ///     earlier message is still on its way to `onMessage`; returning true means it was
    ///     applied (then `onMessage` does not see it). It must not block. This lets a reply
    ///     resume its request without a hop through other actors.
    public static func open(
        to device: DeviceAddress, configuration: CastClientConfiguration, tcpTimeout: Duration? = nil,
        onMessageNow: (@Sendable (InboundMessage) -> Bool)? = nil,
        onMessage: @escaping @Sendable (InboundMessage) async -> Void = { _ in },
        onClose: @escaping @Sendable (DisconnectReason) async -> Void = { _ in }
    ) async throws(CastClientError) -> CastConnection {
        let group = MultiThreadedEventLoopGroup.singleton
        let (stream, input) = AsyncStream<ConnectionInput>.makeStream()
        let link = LinkState()
        let handshake = group.next().makePromise(of: Void.self)
        let sslContext: NIOSSLContext
        do {
            sslContext = try Self.tlsContext.get()
        } catch {
            throw .tlsFailed(device: device.description, reason: "\(error)")
        }
        // A device given by address (what discovery and `--device HOST:PORT` mostly give) is
        // connected to directly: the resolver path runs getaddrinfo on NIO's thread pool and a
        // Happy Eyeballs state machine, about a tenth of a `castctl status` process.
        let literal = try? SocketAddress(ipAddress: device.host, port: device.port)
        let channel: any Channel
        do {
            // On the network thread this code runs on, if it runs on one (see
            // withNetworkThreadExecution): then replies resume it without a thread switch.
            let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.currentEventLoop ?? group)
                .connectTimeout(.init(min(tcpTimeout ?? configuration.connectTimeout, configuration.connectTimeout)))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { ch in
                    ch.eventLoop.makeCompletedFuture {
                        let ops = ch.pipeline.syncOperations
                        try ops.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: nil))
                        try ops.addHandler(CastFramingHandler())
                        try ops.addHandler(CastBridgeHandler(input: input, link: link, handshake: handshake))
                    }
                }
            if let literal {
                channel = try await bootstrap.connect(to: literal).get()
            } else {
                channel = try await bootstrap.connect(host: device.host, port: device.port).get()
            }
        } catch {
            handshake.fail(error)
            throw .connecting(to: device, failedWith: error)
        }
        do {
            try await withDeadline(configuration.connectTimeout) { try await handshake.futureResult.get() }
        } catch {
            try? await channel.close()
            if error is DeadlineExceeded {
                throw .tlsFailed(device: device.description, reason: "no TLS handshake within \(DisconnectReason.format(configuration.connectTimeout.seconds)) s")
            }
            throw .tlsFailed(device: device.description, reason: describe(error))
        }
        let der: [UInt8]? = try? await channel.nioSSL_peerCertificate().get()?.toDERBytes()
        do {
            try await configuration.certificatePolicy.verify(certificateDER: der, device: device)
        } catch {
            try? await channel.close()
            throw error
        }
        let connection = CastConnection(channel: channel, link: link, device: device, configuration: configuration, onMessage: onMessage, onClose: onClose)
        link.setFastPath(onMessageNow)
        await connection.start(stream)
        try await connection.authenticateDevice(policy: configuration.deviceAuthentication, peerCertificateDER: der)
        try await connection.connectVirtual(to: CastEndpoint.receiver)
        return connection
    }

    private init(
        channel: any Channel, link: LinkState, device: DeviceAddress, configuration: CastClientConfiguration,
        onMessage: @escaping @Sendable (InboundMessage) async -> Void, onClose: @escaping @Sendable (DisconnectReason) async -> Void
    ) {
        self.channel = channel
        self.link = link
        self.device = device
        self.senderID = configuration.senderID
        self.configuration = configuration
        self.onMessage = onMessage
        self.onClose = onClose
        var logger = configuration.logger
        logger[metadataKey: "cast.device"] = "\(device)"
        self.logger = logger
    }

    private func start(_ stream: AsyncStream<ConnectionInput>) {
        logger.debug("connected")
        link.heard()
        lastPing = .now
        tasks.append(Task { [weak self] in
            for await input in stream {
                guard let self else { return }
                await self.process(input)
            }
        })
        tasks.append(Task { [weak self] in
            // Wakes only when something is due (the next PING, or the moment the link would
            // count as silent), so an idle connection costs one wake-up per heartbeat.
            var wait = Duration.milliseconds(250)
            while !Task.isCancelled {
                try? await Task.sleep(for: wait)
                guard let self, let next = await self.heartbeatTick() else { return }
                wait = max(next, .milliseconds(50))
            }
        })
    }

    /// True while the link is up.
    public var isOpen: Bool { closeReason == nil }

    /// Why the link ended, once it has.
    public var disconnectReason: DisconnectReason? { closeReason }

    // MARK: sending

    /// Sends one message as is.
    public func send(_ message: CastMessage) async throws(CastClientError) {
        if let closeReason { throw .connectionLost(closeReason) }
        logger.trace("send", metadata: ["cast.message": "\(message)"])
        do {
            try await channel.writeAndFlush(message).get()
        } catch {
            let reason = closeReason ?? .networkError(Self.describe(error))
            throw .connectionLost(reason)
        }
    }

    /// Sends a JSON message of a namespace family from our sender id.
    public func send<M: CastJSONMessage>(_ message: M, to destination: String) async throws(CastClientError) {
        try await send(CastMessage(source: senderID, destination: destination, message))
    }

    /// Opens a virtual connection to `destination` (`receiver-0` or an app's transport id).
    public func connectVirtual(to destination: String) async throws(CastClientError) {
        let connect = ConnectRequest(
            userAgent: "CastDeck", connType: 0, origin: [:],
            senderInfo: SenderInfo(sdkType: 2, version: "1.0", platform: 6, connectionType: 1, systemVersion: "Linux"))
        try await send(ConnectionMessage.connect(connect), to: destination)
        virtualConnections.insert(destination)
    }

    /// Closes a virtual connection (the app keeps running).
    public func closeVirtual(to destination: String) async {
        guard virtualConnections.remove(destination) != nil else { return }
        try? await send(ConnectionMessage.close(CloseMessage(reasonCode: 5, origin: [:])), to: destination)
    }

    /// Whether a virtual connection to `destination` is open.
    public func hasVirtualConnection(to destination: String) -> Bool { virtualConnections.contains(destination) }

    /// Sends a request with a fresh request id and waits for the reply carrying that id
    /// (or, when `match` is given, any message it accepts).
    /// - Parameters:
    ///   - label: what the request is called in errors ("LAUNCH", "SEEK", …).
    ///   - timeout: nil = the configured request timeout.
    public nonisolated(nonsending) func request<M: CastJSONMessage>(
        _ label: String, to destination: String, timeout: Duration? = nil,
        match: (@Sendable (NamespacedMessage) -> Bool)? = nil, _ make: @Sendable (Int) -> M
    ) async throws(CastClientError) -> NamespacedMessage {
        // Runs on the caller's executor, and the reply resumes it from the event loop: no
        // hop onto this actor either way (the state it needs is in `link`).
        if let reason = link.closeReason { throw .connectionLost(reason) }
        let id = ids.next()
        let message = CastMessage(source: senderID, destination: destination, make(id))
        let limit = timeout ?? configuration.requestTimeout
        let (link, channel, logger, device) = (self.link, self.channel, self.logger, self.device)
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<NamespacedMessage, any Error>) in
                    if let reason = link.register(id, .init(label: label, continuation: c, match: match, timeout: nil, limit: limit.seconds)) {
                        c.resume(throwing: CastClientError.connectionLost(reason))
                        return
                    }
                    logger.trace("send", metadata: ["cast.message": "\(message)"])
                    // The timer and the write are set up on the channel's event loop in one
                    // hand-off (each call from another thread would wake the loop once).
                    let loop = channel.eventLoop
                    let start = {
                        link.setTimer(id, loop.scheduleTask(in: .init(limit)) {
                            link.fail(id) { label, limit in CastClientError.timeout(request: label, device: device.description, seconds: limit) }
                        })
                        channel.writeAndFlush(message).whenFailure { error in
                            link.fail(id, CastClientError.connectionLost(link.closeReason ?? .networkError(Self.describe(error))))
                        }
                    }
                    if loop.inEventLoop { start() } else { loop.execute(start) }
                }
            } onCancel: {
                link.fail(id, CancellationError())
            }
        } catch let e as CastClientError {
            throw e
        } catch {
            throw .connectionLost(.networkError("request cancelled"))
        }
    }

    // MARK: receiving

    private func process(_ input: ConnectionInput) async {
        switch input {
        case .closed(let reason):
            await finish(reason)
        case .message(let raw, let decoded):
            await handle(raw, decoded)
            link.processed()
        }
    }

    private func handle(_ raw: CastMessage, _ decoded: Result<NamespacedMessage, CastProtocolError>) async {
        if closeReason != nil { return }
        if case .success(.heartbeat(let hb)) = decoded {
            logger.trace("receive", metadata: ["cast.message": "\(raw)"])
            switch hb {
            case .ping:
                try? await send(HeartbeatMessage.pong, to: raw.sourceID)
            case .pong, .unknown:
                link.heard()
            }
            return
        }
        link.heard()
        logger.trace("receive", metadata: ["cast.message": "\(raw)"])
        if raw.namespace == CastNamespace.deviceAuthURN { return await deviceAuthReply(raw) }
        if case .success(.connection(.close)) = decoded {
            virtualConnections.remove(raw.sourceID)
        }
        await onMessage(InboundMessage(raw: raw, decoded: decoded))
        switch decoded {
        case .success(let message):
            link.resolve(message)
        case .failure(let error):
            logger.warning("unreadable message", metadata: ["cast.error": "\(error)", "cast.namespace": "\(raw.namespace)"])
            // If the broken reply names a request we wait for, fail that request now instead of timing out.
            if let json = raw.withUTF8Payload({ try? CastJSON.decode(JSONValue.self, fromUTF8: $0, namespace: raw.namespace) }),
                let id = json?["requestId"]?.intValue
            {
                link.fail(id) { label, _ in CastClientError.malformedReply(request: label, reason: error.description) }
            }
        }
    }

    /// Sends the PING that is due and notices a silent link; returns how long until the next
    /// check is needed, or nil once the link is closed.
    private func heartbeatTick() async -> Duration? {
        guard closeReason == nil else { return nil }
        let now = ContinuousClock.now
        let lastHeard = link.lastHeard
        if now - lastHeard >= configuration.heartbeatTimeout {
            logger.info("heartbeat lost")
            await close(reason: .heartbeatTimeout(seconds: configuration.heartbeatTimeout.seconds))
            return nil
        }
        if now - lastPing >= configuration.heartbeatInterval {
            lastPing = now
            try? await send(CastMessage(source: CastEndpoint.sender, destination: CastEndpoint.receiver, HeartbeatMessage.ping))
        }
        let nextPing = lastPing + configuration.heartbeatInterval
        let silentAt = lastHeard + configuration.heartbeatTimeout
        return min(nextPing, silentAt) - ContinuousClock.now
    }

    // MARK: closing

    /// Closes the link (CLOSE on every virtual connection first). Pending requests fail with `connectionLost(.closedByUser)`.
    public func close() async {
        guard closeReason == nil else { return }
        for destination in virtualConnections.sorted(by: { a, _ in a != CastEndpoint.receiver }) {
            await closeVirtual(to: destination)
        }
        await close(reason: .closedByUser)
    }

    private func close(reason: DisconnectReason) async {
        guard closeReason == nil else { return }
        await finish(reason)
        try? await channel.close()
    }

    private func finish(_ reason: DisconnectReason) async {
        guard closeReason == nil else { return }
        closeReason = reason
        logger.debug("disconnected", metadata: ["cast.reason": "\(reason)"])
        for t in tasks { t.cancel() }
        link.close(reason)
        await onClose(reason)
        if reason != .closedByUser { try? await channel.close() }
    }

    static func describe(_ error: any Error) -> String { CastClient.describe(error) }
}

func describe(_ error: any Error) -> String {
    switch error {
    // NIO's text wraps the system's ("connection reset (error set): Connection refused (errno:
    // 111)"); the system's own sentence is the part a person can act on.
    case let e as IOError: return String(cString: strerror(e.errnoCode))
    case let e as NIOConnectionError:
        if let first = e.connectionErrors.first { return describe(first.error) }
        if let dns = e.dnsAAAAError ?? e.dnsAError { return "the name could not be resolved (\(dns))" }
        return "connection failed"
    case ChannelError.connectTimeout(let t): return "no answer within \(DisconnectReason.format(Double(t.nanoseconds) / 1e9)) s"
    case ChannelError.eof: return "the device closed the connection"
    case let e as NIOSSLError: return "\(e)"
    case let e as CastClientError: return e.description
    default: return "\(error)"
    }
}

struct DeadlineExceeded: Error {}

/// Runs `operation`, throwing `DeadlineExceeded` if it does not finish within `limit`.
func withDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw DeadlineExceeded()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw DeadlineExceeded() }
        return first
    }
}
