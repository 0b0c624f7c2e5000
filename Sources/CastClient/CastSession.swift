// SPDX-License-Identifier: GPL-3.0-or-later
import CastProtocol
import Foundation
import Logging

/// The app session a `CastSession` is joined to.
public struct SessionInfo: Sendable, Hashable, Codable {
    public var appID: String
    public var displayName: String?
    public var sessionID: String
    public var transportID: String
    public var namespaces: [String]
    public var statusText: String?

    public init(_ app: ReceiverApplication) {
        appID = app.appId
        displayName = app.displayName
        sessionID = app.sessionId
        transportID = app.transportId
        namespaces = app.namespaces?.map(\.name) ?? []
        statusText = app.statusText
    }
}

/// Where a session stands. Observe it with `CastSession.stateUpdates()`.
public enum SessionState: Sendable, Equatable, CustomStringConvertible {
    /// Opening the link to the device.
    case connecting
    /// Linked to the device; joined to an app session when the value is non-nil.
    case connected(SessionInfo?)
    /// The link dropped (or the process restarted) and the session is being rejoined.
    case resuming
    /// Not joined to a session; the reason is nil before the first connection. After
    /// `.sessionEnded` the link to the device stays open (receiver status keeps coming).
    case disconnected(DisconnectReason?)

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected(let info?): "connected to \(info.displayName ?? info.appID) (session \(info.sessionID))"
        case .connected(nil): "connected"
        case .resuming: "resuming"
        case .disconnected(let r?): "disconnected: \(r)"
        case .disconnected(nil): "disconnected"
        }
    }

    public var isConnected: Bool { if case .connected = self { true } else { false } }
}

/// Something the device sent that could not be used; the connection stays up.
public struct CastWarning: Sendable, Equatable, CustomStringConvertible {
    public var namespace: String
    public var problem: CastProtocolError
    public var description: String { problem.description }
}

/// The session manager for one device, like the Cast SDK's session manager and GCKCastSession.
///
/// `start(appID:)` joins the app when it already runs on the device and launches it otherwise;
/// `join()` only joins; `resume()` rejoins the session remembered from an earlier process;
/// `leave()` disconnects and lets the app play on; `stop()` stops the app. When the link
/// dies unexpectedly the session reconnects with exponential backoff and rejoins.
public actor CastSession {
    public nonisolated let device: DeviceAddress
    /// The key under which the session is remembered (the device id from discovery, or the address).
    public nonisolated let deviceID: String
    public nonisolated let configuration: CastClientConfiguration
    /// Media control of the joined app.
    public nonisolated let media: RemoteMediaClient

    private(set) var connection: CastConnection?  // readable by CastSession+Endpoints.swift
    private var generation = 0
    private var app: ReceiverApplication?
    /// The app to rejoin after a dropped link.
    private var wantedApp: (appID: String, sessionID: String)?
    private var channels: [String: CastChannel] = [:]
    private var reconnectTask: Task<Void, Never>?
    private var logger: Logger

    private let stateBroadcast = Broadcast<SessionState>(initial: .disconnected(nil))
    private let receiverBroadcast = Broadcast<ReceiverStatus>()
    private let warningBroadcast = Broadcast<CastWarning>(replayLatest: false)

    public init(device: DeviceAddress, deviceID: String? = nil, configuration: CastClientConfiguration = .init()) {
        self.device = device
        self.deviceID = deviceID ?? device.description
        self.configuration = configuration
        self.media = RemoteMediaClient()
        var logger = configuration.logger
        logger[metadataKey: "cast.device"] = "\(device)"
        self.logger = logger
    }

    // MARK: observing

    public nonisolated var state: SessionState { stateBroadcast.latest ?? .disconnected(nil) }
    /// The current state first, then every change.
    public nonisolated func stateUpdates() -> AsyncStream<SessionState> { stateBroadcast.stream() }
    /// The latest receiver status (running apps, device volume).
    public nonisolated var receiverStatus: ReceiverStatus? { receiverBroadcast.latest }
    /// The latest receiver status first (if any), then every new one.
    public nonisolated func receiverStatusUpdates() -> AsyncStream<ReceiverStatus> { receiverBroadcast.stream() }
    /// Messages from the device that could not be read (the link stays up), from now on.
    public nonisolated func warnings() -> AsyncStream<CastWarning> { warningBroadcast.stream() }
    /// The app session joined now.
    public var sessionInfo: SessionInfo? { app.map(SessionInfo.init) }

    private func setState(_ s: SessionState) {
        if stateBroadcast.latest != s {
            logger.debug("session state", metadata: ["cast.state": "\(s)"])
            stateBroadcast.send(s)
        }
    }

    // MARK: connecting

    /// Opens the link (if needed) and reads the receiver status. Does not join any app.
    @discardableResult
    public func connect() async throws(CastClientError) -> ReceiverStatus {
        try await connectPlatform(resuming: false)
    }

    private func connectPlatform(resuming: Bool) async throws(CastClientError) -> ReceiverStatus {
        if let connection, await connection.isOpen {
            return try await requestReceiverStatus()
        }
        if !resuming { setState(.connecting) }
        generation += 1
        let gen = generation
        let connection: CastConnection
        do {
            connection = try await CastConnection.open(
                to: device, configuration: configuration,
                onMessage: { [weak self] m in await self?.inbound(m, generation: gen) },
                onClose: { [weak self] r in await self?.linkClosed(r, generation: gen) })
        } catch {
            if !resuming { setState(.disconnected(.networkError(error.description))) }
            throw error
        }
        self.connection = connection
        let status: ReceiverStatus
        do {
            status = try await requestReceiverStatus()
        } catch {
            generation += 1
            self.connection = nil
            await connection.close()
            if !resuming { setState(.disconnected(.networkError(error.description))) }
            throw error
        }
        if !resuming, app == nil { setState(.connected(nil)) }
        return status
    }

    /// Asks the device for its status (running apps, volume).
    @discardableResult
    public func requestReceiverStatus() async throws(CastClientError) -> ReceiverStatus {
        guard let connection else { throw .notConnected }
        let reply = try await connection.request("GET_STATUS", to: CastEndpoint.receiver) {
            ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: $0))
        }
        guard case .receiver(.receiverStatus(let m)) = reply else { throw .unexpectedReply(request: "GET_STATUS", type: "\(reply)") }
        return m.status
    }

    /// Joins `appID` when it already runs on the device (no relaunch), launches it otherwise.
    @discardableResult
    public func start(appID: String = CastAppID.defaultMediaReceiver) async throws(CastClientError) -> SessionInfo {
        let id = appID.uppercased()
        let status = try await connectPlatform(resuming: false)
        if let running = status.applications?.first(where: { $0.appId.uppercased() == id }) {
            return try await joinApp(running)
        }
        return try await launch(appID: id)
    }

    /// Joins the app running on the device: `appID` if given, otherwise the foreground app
    /// (not the idle screen). Throws `.noRunningApp` when there is none.
    @discardableResult
    public func join(appID: String? = nil) async throws(CastClientError) -> SessionInfo {
        let status = try await connectPlatform(resuming: false)
        let apps = (status.applications ?? []).filter { $0.isIdleScreen != true }
        guard let running = appID.map({ id in apps.first { $0.appId.uppercased() == id.uppercased() } }) ?? apps.first else {
            throw .noRunningApp(device: device.description)
        }
        return try await joinApp(running)
    }

    /// Rejoins the session remembered for this device by an earlier process.
    @discardableResult
    public func resume() async throws(CastClientError) -> SessionInfo {
        guard let remembered = configuration.sessionStore?.session(forDevice: deviceID) else {
            throw .nothingToResume(device: deviceID)
        }
        setState(.resuming)
        let status: ReceiverStatus
        do {
            status = try await connectPlatform(resuming: true)
        } catch {
            setState(.disconnected(.networkError(error.description)))
            throw error
        }
        guard let running = status.applications?.first(where: { $0.sessionId == remembered.sessionID }) else {
            try? configuration.sessionStore?.forget(deviceID: deviceID)
            setState(.connected(nil))
            throw .sessionNotFound(sessionID: remembered.sessionID)
        }
        return try await joinApp(running)
    }

    private func launch(appID: String) async throws(CastClientError) -> SessionInfo {
        guard let connection else { throw .notConnected }
        let reply = try await connection.request("LAUNCH", to: CastEndpoint.receiver, match: { message in
            // Some receivers only broadcast the new status: accept any status that shows the app.
            if case .receiver(.receiverStatus(let m)) = message {
                return m.status.applications?.contains { $0.appId.uppercased() == appID } ?? false
            }
            return false
        }) {
            ReceiverMessage.launch(LaunchRequest(requestId: $0, appId: appID, language: "en-US", supportedAppTypes: ["WEB"]))
        }
        switch reply {
        case .receiver(.receiverStatus(let m)):
            guard let running = m.status.applications?.first(where: { $0.appId.uppercased() == appID }) else {
                throw .launchFailed(appID: appID, reason: "the device reported another app running")
            }
            return try await joinApp(running)
        case .receiver(.launchError(let e)):
            let reason = e.reason?.rawValue ?? e.error ?? e.extendedError ?? "no reason given"
            throw .launchFailed(appID: appID, reason: reason == "NOT_FOUND" ? "the device does not know this app (NOT_FOUND)" : reason)
        case .receiver(.launchStatus(let s)):
            throw .launchFailed(appID: appID, reason: "the device is waiting for permission (\(s.status ?? "pending")); allow it on the device and try again")
        case .receiver(.invalidRequest(let e)):
            throw .launchFailed(appID: appID, reason: e.reason?.rawValue ?? "invalid request")
        default:
            throw .unexpectedReply(request: "LAUNCH", type: "\(reply)")
        }
    }

    private func joinApp(_ running: ReceiverApplication) async throws(CastClientError) -> SessionInfo {
        guard let connection else { throw .notConnected }
        try await connection.connectVirtual(to: running.transportId)
        app = running
        wantedApp = (running.appId, running.sessionId)
        await media.attach(connection: connection, transportID: running.transportId)
        await updateChannels()
        if running.handles(CastNamespace.mediaURN) {
            try await media.requestStatus()
        }
        let info = SessionInfo(running)
        try? configuration.sessionStore?.save(RememberedSession(deviceID: deviceID, device: device, appID: info.appID, sessionID: info.sessionID))
        setState(.connected(info))
        logger.debug("joined app session", metadata: ["cast.app.id": "\(info.appID)", "cast.session.id": "\(info.sessionID)"])
        return info
    }

    // MARK: ending

    /// Leaves the session: the app keeps running on the device, the link closes, and the
    /// session is forgotten (no resume).
    public func leave() async {
        reconnectTask?.cancel()
        reconnectTask = nil
        try? configuration.sessionStore?.forget(deviceID: deviceID)
        await closeLink()
    }

    /// Stops the app on the device and closes the link.
    public func stop() async throws(CastClientError) {
        reconnectTask?.cancel()
        reconnectTask = nil
        if let connection, let app {
            let sessionID = app.sessionId
            _ = try await connection.request("STOP", to: CastEndpoint.receiver) {
                ReceiverMessage.stop(StopSessionRequest(requestId: $0, sessionId: sessionID))
            }
        }
        try? configuration.sessionStore?.forget(deviceID: deviceID)
        await closeLink()
    }

    /// Closes the link but remembers the session, so a later process can `resume()` it.
    public func disconnect() async {
        reconnectTask?.cancel()
        reconnectTask = nil
        await closeLink()
    }

    private func closeLink() async {
        generation += 1
        let c = connection
        connection = nil
        app = nil
        wantedApp = nil
        await media.detach(clearStatus: true)
        for ch in channels.values { await ch.disconnect() }
        if let c { await c.close() }
        setState(.disconnected(.closedByUser))
    }

    // MARK: device volume

    /// Sets the device volume (0 ... 1).
    @discardableResult
    public func setVolume(_ level: Double) async throws(CastClientError) -> ReceiverStatus {
        guard level.isFinite, (0...1).contains(level) else { throw .invalidArgument("A volume must be between 0 and 1 (got \(level)).") }
        return try await receiverVolume(Volume(level: level))
    }

    /// Mutes or unmutes the device.
    @discardableResult
    public func setMuted(_ muted: Bool) async throws(CastClientError) -> ReceiverStatus {
        try await receiverVolume(Volume(muted: muted))
    }

    private func receiverVolume(_ volume: Volume) async throws(CastClientError) -> ReceiverStatus {
        if connection == nil { _ = try await connectPlatform(resuming: false) }
        guard let connection else { throw .notConnected }
        let reply = try await connection.request("SET_VOLUME", to: CastEndpoint.receiver) {
            ReceiverMessage.setVolume(SetVolumeRequest(requestId: $0, volume: volume))
        }
        switch reply {
        case .receiver(.receiverStatus(let m)): return m.status
        case .receiver(.invalidRequest(let e)): throw .invalidRequest(command: "SET_VOLUME", reason: e.reason?.rawValue)
        default: throw .unexpectedReply(request: "SET_VOLUME", type: "\(reply)")
        }
    }

    // MARK: custom channels

    /// The channel for `namespace`, registered on first use. It connects whenever the joined
    /// app lists the namespace.
    public func channel(namespace: String) async throws(CastClientError) -> CastChannel {
        try CastChannel.validate(namespace)
        if let existing = channels[namespace] { return existing }
        let ch = CastChannel(namespace: namespace)
        channels[namespace] = ch
        await updateChannels()
        return ch
    }

    private func updateChannels() async {
        for (ns, ch) in channels {
            if let connection, let app, app.handles(ns) {
                await ch.connect(connection: connection, transportID: app.transportId)
            } else {
                await ch.disconnect()
            }
        }
    }

    // MARK: incoming

    private func inbound(_ message: InboundMessage, generation gen: Int) async {
        guard gen == generation else { return }
        let raw = message.raw
        switch message.decoded {
        case .failure(let error):
            warningBroadcast.send(CastWarning(namespace: raw.namespace, problem: error))
        case .success(.receiver(.receiverStatus(let m))):
            receiverBroadcast.send(m.status)
            if let current = app {
                if let still = m.status.applications?.first(where: { $0.sessionId == current.sessionId }) {
                    if still != current {
                        app = still
                        await updateChannels()
                        setState(.connected(SessionInfo(still)))
                    }
                } else {
                    await sessionEnded()
                }
            }
        case .success(.connection(.close)):
            if let app, raw.sourceID == app.transportId { await sessionEnded() }
        case .success(.media(let m)):
            if let app, raw.sourceID == app.transportId { media.handle(m) }
        case .success(.custom(let ns, let payload)):
            if let app, raw.sourceID == app.transportId { await channels[ns]?.deliver(payload) }
        default:
            break
        }
    }

    /// The app session ended on the device (stopped by anyone, or replaced). The link to the
    /// device stays open, so receiver status keeps flowing and `start()`/`join()` can follow.
    private func sessionEnded() async {
        guard app != nil else { return }
        logger.debug("app session ended")
        try? configuration.sessionStore?.forget(deviceID: deviceID)
        app = nil
        wantedApp = nil
        await media.detach(clearStatus: true)
        for ch in channels.values { await ch.disconnect() }
        setState(.disconnected(.sessionEnded))
    }

    private func linkClosed(_ reason: DisconnectReason, generation gen: Int) async {
        guard gen == generation else { return }
        connection = nil
        app = nil
        await media.detach(clearStatus: false)
        for ch in channels.values { await ch.disconnect() }
        guard reason != .closedByUser else {
            setState(.disconnected(.closedByUser))
            return
        }
        logger.info("link lost", metadata: ["cast.reason": "\(reason)"])
        guard configuration.reconnect.enabled, let wanted = wantedApp else {
            setState(.disconnected(reason))
            return
        }
        setState(.resuming)
        reconnectTask?.cancel()
        reconnectTask = Task { [weak self] in await self?.reconnect(appID: wanted.appID, sessionID: wanted.sessionID, firstReason: reason) }
    }

    private func reconnect(appID: String, sessionID: String, firstReason: DisconnectReason) async {
        let policy = configuration.reconnect
        var attempt = 0
        var lastError = firstReason.description
        while !Task.isCancelled {
            attempt += 1
            if let max = policy.maxAttempts, attempt > max {
                setState(.disconnected(.reconnectFailed(attempts: attempt - 1, lastError: lastError)))
                return
            }
            try? await Task.sleep(for: policy.delay(attempt: attempt))
            if Task.isCancelled { return }
            logger.debug("reconnecting", metadata: ["cast.attempt": "\(attempt)"])
            do {
                let status = try await connectPlatform(resuming: true)
                let apps = status.applications ?? []
                if let same = apps.first(where: { $0.sessionId == sessionID }) ?? apps.first(where: { $0.appId.uppercased() == appID.uppercased() }) {
                    _ = try await joinApp(same)
                } else {
                    // The device lost the session (it restarted): start the same app again.
                    _ = try await launch(appID: appID.uppercased())
                }
                reconnectTask = nil
                return
            } catch {
                lastError = error.description
                if let c = connection {
                    generation += 1
                    connection = nil
                    await c.close()
                }
                setState(.resuming)
            }
        }
    }
}
