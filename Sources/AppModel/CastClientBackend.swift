import CastClient
import CastProtocol

/// AppModel's session protocol on CastClient: a CastSession plus its RemoteMediaClient.
///
/// Connecting opens the link and joins the app already running there (a busy device is
/// joined, so another sender's media shows up); the Default Media Receiver is launched only
/// when the first media is loaded.
public final class CastClientSession: CastSessionHandle {
    let session: CastSession
    let name: String

    init(session: CastSession, name: String) {
        self.session = session
        self.name = name
    }

    public func mediaStatuses() -> AsyncStream<MediaStatus?> {
        let media = session.media
        let states = session.stateUpdates()
        // Media statuses until the session ends for good (disconnected without reconnecting).
        return AsyncStream { continuation in
            let statusTask = Task {
                for await s in media.statusUpdates() { continuation.yield(s) }
            }
            let stateTask = Task {
                for await state in states {
                    if case .disconnected(let reason) = state, reason != nil {
                        if case .closedByUser? = reason { } else { continuation.finish(); return }
                    }
                }
            }
            continuation.onTermination = { _ in statusTask.cancel(); stateTask.cancel() }
        }
    }

    private func ensureApp() async throws {
        if await session.sessionInfo == nil { try await session.start() }
    }

    public func load(_ media: MediaInformation, autoplay: Bool, activeTrackIds: [Int]?) async throws {
        try await ensureApp()
        try await session.media.load(media, autoplay: autoplay, activeTrackIDs: activeTrackIds)
    }
    public func play() async throws { try await session.media.play() }
    public func pause() async throws { try await session.media.pause() }
    public func seek(to seconds: Double) async throws { try await session.media.seek(to: seconds) }
    public func setPlaybackRate(_ rate: Double) async throws { try await session.media.setPlaybackRate(rate) }
    public func setActiveTracks(_ ids: [Int]) async throws { try await session.media.setActiveTrackIDs(ids) }
    public func setTextTrackStyle(_ style: TextTrackStyle) async throws { try await session.media.setTextTrackStyle(style) }
    public func skipAd() async throws { try await session.media.skipAd() }
    public func setVolume(_ level: Double) async throws { try await session.media.setStreamVolume(level) }
    public func setMuted(_ muted: Bool) async throws { try await session.media.setStreamMuted(muted) }
    public func stopMedia() async throws { try await session.media.stop() }
    public func disconnect() async { await session.leave() }
}

/// Opens CastClient sessions for AppModel.
public struct CastClientConnector: CastConnector {
    public var configuration: CastClientConfiguration

    public init(configuration: CastClientConfiguration = .init()) { self.configuration = configuration }

    public func connect(to device: DeviceInfo) async throws -> any CastSessionHandle {
        let session = CastSession(device: DeviceAddress(host: device.host, port: device.port),
                                  deviceID: device.id, configuration: configuration)
        let status = try await session.connect()
        let running = (status.applications ?? []).filter { $0.isIdleScreen != true }
        if !running.isEmpty {
            _ = try await session.join()
            _ = try? await session.media.requestStatus()
        }
        return CastClientSession(session: session, name: device.friendlyName)
    }
}
