// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import CastProtocolNIO
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// A simulated Cast receiver on a TLS socket: the platform (receiver-0), the Default Media
/// Receiver and any extra apps, on a clock you choose.
///
///     var config = ReceiverConfiguration()
///     config.port = 0                       // any free port
///     config.clock = ManualClock()          // tests drive time
///     let server = CastReceiverServer(configuration: config)
///     try await server.start()
///     // connect a sender to 127.0.0.1:server.port ...
///     try await server.advanceClock(by: 15) // pre-roll over, content playing
///     await server.stop()
///
/// All receiver state lives on one event loop owned by the server, so status fan-out to
/// many senders is consistent without locks.
public final class CastReceiverServer: Sendable {
    public let configuration: ReceiverConfiguration
    let group: MultiThreadedEventLoopGroup
    /// False for the receivers of a simulated speaker group, which share one loop (GroupSimulation).
    private let ownsGroup: Bool
    let core: ReceiverCore
    let state = Mutex<(channel: (any Channel)?, port: Int?, stopped: Bool)>((nil, nil, false))
    private let setup = Mutex<SetupServer?>(nil)
    /// The TLS context made at start, kept for a listener moved to another port.
    let tls = Mutex<NIOSSLContext?>(nil)

    public init(configuration: ReceiverConfiguration) {
        self.configuration = configuration
        // One thread: all sockets and the receiver state share it.
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        ownsGroup = true
        core = ReceiverCore(loop: group.next(), config: configuration)
    }

    /// A receiver on `group`'s one loop, which its owner shuts down.
    init(configuration: ReceiverConfiguration, sharing group: MultiThreadedEventLoopGroup) {
        self.configuration = configuration
        self.group = group
        ownsGroup = false
        core = ReceiverCore(loop: group.next(), config: configuration)
    }

    /// The bound port once ``start()`` returned (the real one when configured with 0).
    public var port: Int? { state.withLock { $0.port } }
    /// The configured host.
    public var host: String { configuration.host }

    /// Makes the certificate, binds and starts serving. Throws ``CastReceiverError``.
    public func start() async throws {
        let (context, certificateDER) = try SelfSignedCertificate.serverContext(commonName: configuration.friendlyName)
        tls.withLock { $0 = context }
        let core = self.core
        try await core.loop.submit { core.tlsCertificateDER = certificateDER }.get()
        let channel = try await listen(port: configuration.port, context: context)
        let port = channel.localAddress?.port ?? configuration.port
        state.withLock { $0 = (channel, port, false) }
        try await core.loop.submit { core.startTicking() }.get()
        configuration.logger.info("receiver listening", metadata: ["host": "\(configuration.host)", "port": "\(port)"])
        if let setupPort = configuration.setupPort {
            let info = SetupInfo(
                name: configuration.friendlyName, model: configuration.model,
                uuid: configuration.uuid.replacingOccurrences(of: "-", with: ""))
            do {
                let server = try await SetupServer.start(host: configuration.host, port: setupPort, info: info, group: group)
                setup.withLock { $0 = server }
            } catch {
                // The Cast channel works without it; senders then show the address instead of the name.
                configuration.logger.warning("setup API not served", metadata: ["port": "\(setupPort)", "reason": "\(error)"])
            }
        }
    }

    /// Binds the TLS listener on `port` (0: any free one).
    func listen(port: Int, context: NIOSSLContext) async throws -> any Channel {
        let core = self.core
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.addHandler(CastFramingHandler())
                    try channel.pipeline.syncOperations.addHandler(SenderChannelHandler(core: core))
                }
            }
        do {
            return try await bootstrap.bind(host: configuration.host, port: port).get()
        } catch let error as IOError {
            throw CastReceiverError.bindFailed(host: configuration.host, port: port, reason: String(cString: strerror(error.errnoCode)).lowercased())
        } catch {
            throw CastReceiverError.bindFailed(host: configuration.host, port: port, reason: "\(error)")
        }
    }

    /// The port of the setup API (`/setup/eureka_info`), when it is served.
    public var setupPort: Int? { setup.withLock { $0?.port } }

    /// Closes every sender socket and the listening socket, then ends the event loop.
    /// Safe to call more than once.
    public func stop() async {
        let channel: (any Channel)? = state.withLock { s in
            defer {
                s.stopped = true
                s.channel = nil
            }
            return s.stopped ? nil : s.channel
        }
        guard let channel else { return }
        let core = self.core
        if let server = setup.withLock({ s in
            defer { s = nil }
            return s
        }) {
            await server.stop()
        }
        try? await channel.close().get()
        try? await core.loop.submit { core.shutdown() }.get()
        // Give the sender sockets a moment to finish closing on the loop.
        try? await core.loop.scheduleTask(in: .milliseconds(20)) {}.futureResult.get()
        if ownsGroup { try? await group.shutdownGracefully() }
    }

    /// Moves a ``ManualClock`` forward and re-evaluates playback at once: breaks that
    /// start or end and media that finishes in that span are reported to every sender.
    /// Throws ``CastReceiverError/clockNotManual`` on a real clock.
    public func advanceClock(by seconds: Double) async throws {
        guard let clock = configuration.manualClock else { throw CastReceiverError.clockNotManual }
        try ensureRunning()
        let core = self.core
        try await core.loop.submit {
            clock.advance(by: seconds)
            core.tick()
        }.get()
    }

    /// A device event as the test hooks make one (docs/receiver.md): `SWITCH_INPUT`, `STANDBY`,
    /// `REBOOT`, `LAUNCH` by another phone (ReceiverCore+Kinds.swift). False for anything else.
    public func deviceEvent(_ event: JSONValue) async throws -> Bool {
        try ensureRunning()
        let core = self.core
        return try await core.loop.submit { core.deviceEvent(event) }.get()
    }

    private func ensureRunning() throws(CastReceiverError) {
        let running = state.withLock { $0.port != nil && !$0.stopped }
        guard running else { throw .notRunning }
    }

    /// The receiver's current platform status (what RECEIVER_STATUS would say).
    public func receiverStatus() async throws -> ReceiverStatus {
        try ensureRunning()
        let core = self.core
        return try await core.loop.submit { core.receiverStatus() }.get()
    }

    /// The media status of the running app at the clock's current time (empty if none).
    public func mediaStatus() async throws -> [MediaStatus] {
        try ensureRunning()
        let core = self.core
        return try await core.loop.submit {
            core.tick()
            return core.running.map { $0.player.status(at: core.now) } ?? []
        }.get()
    }

    /// Every item of the running app's queue in order, with its media (empty if none):
    /// what tests compare a sender's queue with.
    public func queueItems() async throws -> [QueueItem] {
        try ensureRunning()
        let core = self.core
        return try await core.loop.submit {
            core.tick()
            return core.running?.player.items ?? []
        }.get()
    }

    /// How many sender sockets are open.
    public func connectionCount() async throws -> Int {
        try ensureRunning()
        let core = self.core
        return try await core.loop.submit { core.connectionCount }.get()
    }
}
