// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// One TLS link to a device. The actor's executor is the channel's event loop: frames are read,
// routed (CastConnection+Inbound.swift) and answered on that one thread, and a reply resumes
// its request from there. Sending, requests and the virtual connections are here.
import CastCore
import CastProtocol
import CastProtocolNIO
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// One TLS link to a device: framing, heartbeat, virtual connections, request/response
/// matching with timeouts, and the routing table that hands every message to the controller
/// of its namespace. Sessions own one; most callers use `CastSession` instead.
///
/// Messages reach their controllers in arrival order, and a request's caller resumes only
/// after its reply went through them, so state derived from replies is current when a
/// command returns.
public actor CastConnection {
    public nonisolated let device: DeviceAddress
    public nonisolated let senderID: String
    /// The event loop this link lives on, and this actor's executor.
    nonisolated let loop: any EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }

    /// Set by the pipeline's last handler as soon as it is added (CastBridgeHandler).
    var channel: (any Channel)?
    let configuration: CastClientConfiguration
    let logger: Logger
    var nextRequestID = Int.random(in: 1...1000)
    /// Requests waiting for their replies, by request id.
    var pending: [Int: PendingRequest] = [:]
    var lastHeard = ContinuousClock.now
    var lastPing = ContinuousClock.now
    var heartbeat: Scheduled<Void>?
    var closeReason: DisconnectReason?
    var virtualConnections: Set<String> = []
    /// The routing table: namespace → its controller (the link's own namespaces are not in it).
    var routes: [String: any NamespaceController] = [:]
    /// Told about messages nothing else reads (undecodable ones, unrouted namespaces).
    var fallback: (any NamespaceController)?
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
    /// - Parameters:
    ///   - tcpTimeout: a shorter limit for the TCP connect alone (reconnect attempts use it so
    ///     that a SYN lost on a silent link does not hold the next attempt back).
    ///   - loop: the event loop the link lives on (a session passes its own, so that it, its
    ///     media client and its channels share one executor). nil: the loop the caller runs
    ///     on when it runs on one (see withNetworkThreadExecution), else the next one.
    ///   - controllers: attached before the first message can arrive.
    ///   - fallback: told about undecodable messages and namespaces no controller owns.
    public static func open(
        to device: DeviceAddress, configuration: CastClientConfiguration, tcpTimeout: Duration? = nil
    ) async throws(CastClientError) -> CastConnection {
        try await open(to: device, configuration: configuration, tcpTimeout: tcpTimeout, on: nil, controllers: [], fallback: nil)
    }

    static func open(
        to device: DeviceAddress, configuration: CastClientConfiguration, tcpTimeout: Duration?, on loop: (any EventLoop)?,
        controllers: [any NamespaceController], fallback: (any NamespaceController)?
    ) async throws(CastClientError) -> CastConnection {
        let loop = loop ?? MultiThreadedEventLoopGroup.currentEventLoop ?? MultiThreadedEventLoopGroup.singleton.next()
        let handshake = loop.makePromise(of: Void.self)
        let sslContext: NIOSSLContext
        do {
            sslContext = try Self.tlsContext.get()
        } catch {
            throw .tlsFailed(device: device.description, reason: "\(error)")
        }
        let connection = CastConnection(loop: loop, device: device, configuration: configuration)
        await connection.attach(controllers, fallback: fallback)
        // A device given by address (what discovery and `--device HOST:PORT` mostly give) is
        // connected to directly: the resolver path runs getaddrinfo on NIO's thread pool and a
        // Happy Eyeballs state machine, about a tenth of a `castctl status` process.
        let literal = try? SocketAddress(ipAddress: device.host, port: device.port)
        let channel: any Channel
        do {
            let bootstrap = ClientBootstrap(group: loop)
                .connectTimeout(.init(min(tcpTimeout ?? configuration.connectTimeout, configuration.connectTimeout)))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { ch in
                    ch.eventLoop.makeCompletedFuture {
                        let ops = ch.pipeline.syncOperations
                        try ops.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: nil))
                        try ops.addHandler(CastFramingHandler())
                        try ops.addHandler(CastBridgeHandler(connection: connection, handshake: handshake))
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
        // A device that accepts the TCP connection and never completes TLS: closing the channel
        // at the deadline fails the handshake (an awaited future cannot be cancelled).
        let started = ContinuousClock.now
        let deadline = loop.scheduleTask(in: .init(configuration.connectTimeout)) { channel.close(promise: nil) }
        do {
            try await handshake.futureResult.get()
            deadline.cancel()
        } catch {
            deadline.cancel()
            try? await channel.close()
            if ContinuousClock.now - started >= configuration.connectTimeout {
                throw .tlsFailed(
                    device: device.description, reason: "no TLS handshake within \(DisconnectReason.format(configuration.connectTimeout.seconds)) s")
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
        await connection.startHeartbeat()
        try await connection.authenticateDevice(policy: configuration.deviceAuthentication, peerCertificateDER: der)
        try await connection.connectVirtual(to: CastEndpoint.receiver)
        return connection
    }

    private init(loop: any EventLoop, device: DeviceAddress, configuration: CastClientConfiguration) {
        self.loop = loop
        self.device = device
        self.senderID = configuration.senderID
        self.configuration = configuration
        var logger = configuration.logger
        logger[metadataKey: "cast.device"] = "\(device)"
        self.logger = logger
    }

    /// True while the link is up.
    public var isOpen: Bool { closeReason == nil }

    /// Why the link ended, once it has.
    public var disconnectReason: DisconnectReason? { closeReason }

    // MARK: sending

    /// Sends one message as is.
    public func send(_ message: CastMessage) async throws(CastClientError) {
        if let closeReason { throw .connectionLost(closeReason) }
        guard let channel else { throw .notConnected }
        logger.trace("send", metadata: ["cast.message": "\(message)"])
        do {
            try await channel.writeAndFlush(message).get()
        } catch {
            throw .connectionLost(closeReason ?? .networkError(describe(error)))
        }
    }

    /// Sends a JSON message of a namespace family from our sender id.
    public func send<M: CastJSONMessage>(_ message: M, to destination: String) async throws(CastClientError) {
        try await send(CastMessage(source: senderID, destination: destination, message))
    }

    /// Writes without waiting for the write to finish (PING, PONG).
    func post(_ message: CastMessage) {
        guard closeReason == nil, let channel else { return }
        logger.trace("send", metadata: ["cast.message": "\(message)"])
        channel.writeAndFlush(message, promise: nil)
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

    // MARK: requests

    struct PendingRequest {
        var label: String
        var continuation: CheckedContinuation<NamespacedMessage, any Error>
        var match: (@Sendable (NamespacedMessage) -> Bool)?
        var timeout: Scheduled<Void>?
        var limit: Double

        func resume(_ result: Result<NamespacedMessage, any Error>) {
            timeout?.cancel()
            continuation.resume(with: result)
        }
    }

    /// Sends a request with a fresh request id and waits for the reply carrying that id
    /// (or, when `match` is given, any message it accepts).
    /// - Parameters:
    ///   - label: what the request is called in errors ("LAUNCH", "SEEK", …).
    ///   - timeout: nil = the configured request timeout.
    public func request<M: CastJSONMessage>(
        _ label: String, to destination: String, timeout: Duration? = nil,
        match: (@Sendable (NamespacedMessage) -> Bool)? = nil, _ make: @Sendable (Int) -> M
    ) async throws(CastClientError) -> NamespacedMessage {
        if let closeReason { throw .connectionLost(closeReason) }
        guard let channel else { throw .notConnected }
        nextRequestID = nextRequestID >= RequestID.max ? 1 : nextRequestID + 1
        let id = nextRequestID
        let message = CastMessage(source: senderID, destination: destination, make(id))
        let limit = timeout ?? configuration.requestTimeout
        let device = self.device
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<NamespacedMessage, any Error>) in
                    let timer = loop.scheduleTask(in: .init(limit)) { [self] in
                        assumeIsolated {
                            $0.fail(id) { label, limit in CastClientError.timeout(request: label, device: device.description, seconds: limit) }
                        }
                    }
                    pending[id] = PendingRequest(label: label, continuation: c, match: match, timeout: timer, limit: limit.seconds)
                    logger.trace("send", metadata: ["cast.message": "\(message)"])
                    channel.writeAndFlush(message).whenFailure { [self] error in
                        assumeIsolated { $0.fail(id, CastClientError.connectionLost($0.closeReason ?? .networkError(describe(error)))) }
                    }
                }
            } onCancel: {
                loop.execute { [self] in assumeIsolated { $0.fail(id, CancellationError()) } }
            }
        } catch let e as CastClientError {
            throw e
        } catch {
            throw .connectionLost(.networkError("request cancelled"))
        }
    }

    /// Fails one request (if it still waits).
    func fail(_ id: Int, _ error: any Error) {
        pending.removeValue(forKey: id)?.resume(.failure(error))
    }

    /// Fails one request with the error `make` builds from its label and limit.
    func fail(_ id: Int, _ make: (String, Double) -> any Error) {
        guard let p = pending.removeValue(forKey: id) else { return }
        p.resume(.failure(make(p.label, p.limit)))
    }
}
