// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix

/// Where a device is reachable now, or nil when that is not known (discovery lost it).
public typealias DeviceLocator = @Sendable () async -> DeviceAddress?

/// The session manager for one device, like the Cast SDK's session manager and GCKCastSession.
///
/// `start(appID:)` joins the app when it already runs on the device and launches it otherwise;
/// `join()` only joins; `resume()` rejoins the session remembered from an earlier process;
/// `leave()` disconnects and lets the app play on; `stop()` stops the app. When the link
/// dies unexpectedly the session reconnects with exponential backoff and rejoins.
public actor CastSession {
    /// The event loop every link of this session lives on: the session, its media client, its
    /// custom channels and its connections all have it as their executor, so they call each
    /// other without a thread switch, and the link hands them messages synchronously.
    nonisolated let loop: any EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }

    /// Where the device is reached now. It changes only when `locate` (see `init`) finds the
    /// device at another address while reconnecting.
    public nonisolated var device: DeviceAddress { address.current }
    let address: PublishedValue<DeviceAddress>
    /// Asked before each reconnect attempt: where the device is now (nil = keep the address).
    let locate: DeviceLocator?
    /// The key under which the session is remembered (the device id from discovery, or the address).
    public nonisolated let deviceID: String
    public nonisolated let configuration: CastClientConfiguration
    /// Media control of the joined app.
    public nonisolated let media: RemoteMediaClient
    /// The speaker group's members, when the device is a group (CastSession+Group.swift).
    nonisolated let groupController: GroupController

    var connection: CastConnection?
    /// The app joined now.
    var app: ReceiverApplication?
    /// The app to rejoin after a dropped link.
    var wantedApp: (appID: String, sessionID: String)?
    var channels: [String: CastChannel] = [:]
    var reconnectTask: Task<Void, Never>?
    var logger: Logger

    let published = PublishedValue<SessionState>(.disconnected(nil))
    /// The latest receiver status (running apps, device volume).
    public private(set) var receiverStatus: ReceiverStatus?
    let receiverBroadcast = Broadcast<ReceiverStatus>()
    let warningBroadcast = Broadcast<CastWarning>()
    /// Device authentication of the current link (CastSession+Authentication.swift).
    let authenticationPublished = PublishedValue<DeviceAuthentication>(.notChecked)
    var authenticatedLink: CastConnection?

    /// - Parameter locate: where the device is now, asked before each reconnect attempt, so
    ///   that a device that came back on another address or port (a TV that restarted and
    ///   announced itself over mDNS again) is found by its id. nil keeps `device`.
    public init(
        device: DeviceAddress, deviceID: String? = nil, configuration: CastClientConfiguration = .init(),
        locate: DeviceLocator? = nil
    ) {
        // The loop the caller runs on when it runs on one (withNetworkThreadExecution), so that
        // its commands and their replies stay on one thread.
        let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? MultiThreadedEventLoopGroup.singleton.next()
        self.loop = loop
        self.address = PublishedValue(device)
        self.locate = locate
        self.deviceID = deviceID ?? device.description
        self.configuration = configuration
        self.media = RemoteMediaClient(loop: loop, requestTimeout: nil)
        self.groupController = GroupController(loop: loop)
        var logger = configuration.logger
        logger[metadataKey: "cast.device"] = "\(device)"
        self.logger = logger
    }

    // MARK: observing

    public nonisolated var state: SessionState { published.current }
    /// The current state first, then every change.
    public nonisolated func stateUpdates() -> AsyncStream<SessionState> { published.stream() }
    /// The latest receiver status first (if any), then every new one.
    public func receiverStatusUpdates() -> AsyncStream<ReceiverStatus> {
        receiverBroadcast.stream(first: receiverStatus)
    }
    /// Messages from the device that could not be read (the link stays up), from now on.
    public nonisolated func warnings() -> AsyncStream<CastWarning> { warningBroadcast.stream() }
    /// The app session joined now.
    public var sessionInfo: SessionInfo? { app.map(SessionInfo.init) }

    func setState(_ s: SessionState) {
        if published.set(s) {
            logger.debug("session state", metadata: ["cast.state": "\(s)"])
        }
    }

    func receive(_ status: ReceiverStatus) {
        receiverStatus = status
        receiverBroadcast.send(status)
    }

    // MARK: connecting

    /// Opens the link (if needed) and reads the receiver status. Does not join any app.
    @discardableResult
    public func connect() async throws(CastClientError) -> ReceiverStatus {
        try await connectPlatform(resuming: false)
    }

    func connectPlatform(resuming: Bool, tcpTimeout: Duration? = nil) async throws(CastClientError) -> ReceiverStatus {
        if let connection, await connection.isOpen {
            return try await requestReceiverStatus()
        }
        if !resuming { setState(.connecting) }
        let connection: CastConnection
        do {
            connection = try await CastConnection.open(
                to: device, configuration: configuration, tcpTimeout: tcpTimeout, on: loop, controllers: [self, groupController], fallback: self)
        } catch {
            recordAuthenticationFailure(error)
            if !resuming { setState(.disconnected(.networkError(error.description))) }
            throw error
        }
        self.connection = connection
        await trackAuthentication(of: connection)
        askForGroup(on: connection)
        let status: ReceiverStatus
        do {
            status = try await requestReceiverStatus()
        } catch {
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
        if let running = status.applications?.first(where: { CastAppID.launched(id, runs: $0) }) {
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

    func launch(appID: String) async throws(CastClientError) -> SessionInfo {
        guard let connection else { throw .notConnected }
        let reply = try await connection.request(
            "LAUNCH", to: CastEndpoint.receiver,
            match: { message in
                // Some receivers only broadcast the new status: accept any status that shows the app.
                if case .receiver(.receiverStatus(let m)) = message {
                    return m.status.applications?.contains { CastAppID.launched(appID, runs: $0) } ?? false
                }
                return false
            }
        ) {
            ReceiverMessage.launch(LaunchRequest(requestId: $0, appId: appID, language: "en-US", supportedAppTypes: ["WEB"]))
        }
        switch reply {
        case .receiver(.receiverStatus(let m)):
            guard let running = m.status.applications?.first(where: { CastAppID.launched(appID, runs: $0) }) else {
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

    func joinApp(_ running: ReceiverApplication) async throws(CastClientError) -> SessionInfo {
        guard let connection else { throw .notConnected }
        // An app started outside Cast may be listed without a transport id: nothing to connect to.
        guard running.isJoinable else {
            throw .invalidArgument("\(running.displayName ?? running.appId) cannot be joined: the device gives no transport id for it.")
        }
        try await connection.connectVirtual(to: running.transportId)
        app = running
        wantedApp = (running.appId, running.sessionId)
        await media.attach(connection: connection, transportID: running.transportId)
        updateChannels()
        if running.handles(CastNamespace.mediaURN) {
            try await media.requestStatus()
        }
        let info = SessionInfo(running)
        try? configuration.sessionStore?.save(RememberedSession(deviceID: deviceID, device: device, appID: info.appID, sessionID: info.sessionID))
        setState(.connected(info))
        logger.debug("joined app session", metadata: ["cast.app.id": "\(info.appID)", "cast.session.id": "\(info.sessionID)"])
        return info
    }
}
