// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol
import NIOCore

/// Controls the media of a session's app, like the Cast SDK's GCKRemoteMediaClient.
///
/// Every command is sent to the app's transport id and completes with the receiver's
/// answer: the new `MediaStatus`, or a typed `CastClientError`. Commands that the latest
/// status's `supportedMediaCommands` does not allow fail at once with `.commandNotSupported`.
///
/// This is the one copy of a session's media status: `snapshot` holds the latest status
/// (merged with earlier ones) and when it arrived, and `MediaStatusSnapshot` holds the one
/// rule for the position now. The window's AppModel and castctl both read from here.
///
/// Observers: `statusUpdates()` yields every change of the media status, whoever caused it;
/// `metadataUpdates()` yields only when the media information changes (title, tracks,
/// text-track style, …). So a text-style change reaches both, an active-track change only
/// the status stream.
public actor RemoteMediaClient {
    /// The session's event loop: this actor's executor, shared with the session and its link.
    nonisolated let loop: any EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }
    /// The link and the app's transport id while a session is joined.
    private var link: (connection: CastConnection, transportID: String)?
    /// The latest status (merged with earlier ones) and when it came: one immutable value,
    /// replaced whole for every status and handed to observers as is.
    public private(set) var snapshot = MediaStatusSnapshot(status: nil, receivedAt: .now)
    private let statusBroadcast = Broadcast<MediaStatusSnapshot>()
    private let metadataBroadcast = Broadcast<MediaInformation?>()
    private let requestTimeout: Duration?
    /// The queue model (MediaQueue.swift) and who wants it kept fresh.
    var queueState = QueueTracking()
    private let queueBroadcast = Broadcast<MediaQueue>()

    init(loop: any EventLoop, requestTimeout: Duration? = nil) {
        self.loop = loop
        self.requestTimeout = requestTimeout
    }

    // MARK: observing

    /// The latest media status (nil when nothing is loaded or no session is joined).
    public var status: MediaStatus? { snapshot.status }

    /// The queue as known now (see `MediaQueue`).
    public var queue: MediaQueue { queueState.queue }

    /// Every change of the queue model: the current value first. Subscribing also keeps
    /// the id list fresh: whenever it goes stale, it is fetched again by itself.
    public func queueUpdates() -> AsyncStream<MediaQueue> {
        queueState.wanted = true
        if queueState.queue.isStale, queueState.queue.mediaSessionID != nil { scheduleQueueRefresh() }
        return queueBroadcast.stream(first: queueState.queue)
    }

    /// How many items have been fetched with QUEUE_GET_ITEMS since the session was joined
    /// (tests check that a long queue is fetched lazily).
    public var queueItemsFetched: Int { queueState.itemsFetched }

    /// The media being played, merged from earlier statuses when the receiver left it out.
    public var mediaInformation: MediaInformation? { status?.effectiveMedia }

    /// Every change of the media status, as snapshots (the status and when it came): the
    /// current one first, then each new one. Observers keep the latest value they were given
    /// and read everything from it (AppModel does), so no reader sees half of two statuses.
    public func statusUpdates() -> AsyncStream<MediaStatusSnapshot> {
        statusBroadcast.stream(first: snapshot)
    }

    /// Every change of the media information (metadata, tracks, text style, ad breaks):
    /// the current value first, then each new one.
    public func metadataUpdates() -> AsyncStream<MediaInformation?> {
        metadataBroadcast.stream(first: .some(snapshot.status?.effectiveMedia))
    }

    /// The content position at `now`, in seconds, by `MediaStatusSnapshot`'s rule (it holds
    /// during an ad break and advances by `playbackRate` while PLAYING otherwise).
    public func approximateStreamPosition(at now: ContinuousClock.Instant = .now) -> Double? {
        snapshot.streamPosition(at: now)
    }

    /// Seconds into the playing ad clip at `now` (advancing at 1× while PLAYING); nil outside a break.
    public func approximateBreakClipTime(at now: ContinuousClock.Instant = .now) -> Double? {
        snapshot.breakClipTime(at: now)
    }

    // MARK: wiring (called by CastSession, on the shared loop)

    func attach(connection: CastConnection, transportID: String) {
        if let old = link?.connection, old !== connection { old.assumeIsolated { $0.detach(self) } }
        link = (connection, transportID)
        connection.assumeIsolated { $0.attach([self]) }
    }

    func detach(clearStatus: Bool) {
        if let old = link?.connection { old.assumeIsolated { $0.detach(self) } }
        link = nil
        if clearStatus {
            apply(nil)
            updateQueue { $0.apply(status: nil) }
        }
    }

    func updateQueue(_ change: (inout MediaQueue) -> Void) {
        let old = queueState.queue
        change(&queueState.queue)
        if queueState.queue != old { queueBroadcast.send(queueState.queue) }
        if queueState.wanted, queueState.queue.isStale, queueState.queue.mediaSessionID != nil, !queueState.refreshing {
            scheduleQueueRefresh()
        }
    }

    func countFetched(_ n: Int) {
        queueState.itemsFetched += n
    }

    func scheduleQueueRefresh() {
        guard !queueState.refreshing else { return }
        queueState.refreshing = true
        Task {
            _ = try? await self.refreshQueue()
            self.queueState.refreshing = false
        }
    }

    private func apply(_ incoming: MediaStatus?) {
        let old = snapshot.status
        // The IDLE of a media session the receiver has replaced can come after the new one's
        // first status (a LOAD over playing media): it is a late report, not the state now.
        if let incoming, let old, incoming.playerState == .idle, incoming.mediaSessionId < old.mediaSessionId { return }
        let new = incoming?.merging(previous: old)
        snapshot = MediaStatusSnapshot(status: new, receivedAt: .now)
        if old != new { statusBroadcast.send(snapshot) }
        if old?.effectiveMedia != new?.effectiveMedia { metadataBroadcast.send(new?.effectiveMedia) }
    }

    func finish() {
        statusBroadcast.finish()
        metadataBroadcast.finish()
        queueBroadcast.finish()
    }

    // MARK: commands

    /// Asks the receiver for the media status.
    @discardableResult
    public func requestStatus() async throws(CastClientError) -> MediaStatus? {
        let sessionID = status?.mediaSessionId
        return try await send("GET_STATUS") { .getStatus(MediaSessionRequest(requestId: $0, mediaSessionId: sessionID)) }
    }

    /// Loads and (by default) plays media.
    /// - Parameters:
    ///   - startTime: seconds into the media.
    ///   - activeTrackIDs: tracks to enable; nil = the receiver's default.
    ///   - playbackRate: initial rate (the simulator accepts 0.5 ... 2).
    @discardableResult
    public func load(
        _ media: MediaInformation, autoplay: Bool = true, startTime: Double? = nil, activeTrackIDs: [Int]? = nil,
        playbackRate: Double? = nil, customData: JSONValue? = nil
    ) async throws(CastClientError) -> MediaStatus {
        if let r = playbackRate, !(r > 0) { throw .invalidArgument("The playback rate must be greater than 0 (got \(r)).") }
        let status = try await send("LOAD") {
            .load(
                LoadRequest(
                    requestId: $0, media: media, autoplay: autoplay, currentTime: startTime, activeTrackIds: activeTrackIDs, playbackRate: playbackRate,
                    customData: customData))
        }
        guard let status else { throw .loadFailed(reason: "the receiver reported no media after loading", detailedErrorCode: nil) }
        return status
    }

    @discardableResult
    public func play(customData: JSONValue? = nil) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "PLAY", needs: [])
        return try await send("PLAY") { .play(MediaSessionRequest(requestId: $0, mediaSessionId: id, customData: customData)) }
    }

    @discardableResult
    public func pause(customData: JSONValue? = nil) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "PAUSE", needs: .pause)
        return try await send("PAUSE") { .pause(MediaSessionRequest(requestId: $0, mediaSessionId: id, customData: customData)) }
    }

    /// Stops playback and ends the media session (the app keeps running).
    @discardableResult
    public func stop(customData: JSONValue? = nil) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "STOP", needs: [])
        return try await send("STOP") { .stop(MediaSessionRequest(requestId: $0, mediaSessionId: id, customData: customData)) }
    }

    /// Seeks to `position` seconds. `resumeState` nil keeps the play/pause state.
    @discardableResult
    public func seek(to position: Double, resumeState: ResumeState? = nil) async throws(CastClientError) -> MediaStatus? {
        guard position.isFinite, position >= 0 else { throw .invalidArgument("A seek position must be 0 or more seconds (got \(position)).") }
        let id = try mediaSession(for: "SEEK", needs: .seek)
        return try await send("SEEK") { .seek(SeekRequest(requestId: $0, mediaSessionId: id, currentTime: position, resumeState: resumeState)) }
    }

    /// Seeks by `offset` seconds from the current position (negative = back), using the
    /// protocol's `relativeTime` so the receiver applies it to its own clock.
    @discardableResult
    public func seek(by offset: Double, resumeState: ResumeState? = nil) async throws(CastClientError) -> MediaStatus? {
        guard offset.isFinite else { throw .invalidArgument("A seek offset must be a number of seconds.") }
        let id = try mediaSession(for: "SEEK", needs: .seek)
        return try await send("SEEK") { .seek(SeekRequest(requestId: $0, mediaSessionId: id, relativeTime: offset, resumeState: resumeState)) }
    }

    /// Sets the playback rate (1 = normal; the Default Media Receiver allows 0.5 ... 2).
    @discardableResult
    public func setPlaybackRate(_ rate: Double) async throws(CastClientError) -> MediaStatus? {
        guard rate.isFinite, rate > 0 else { throw .invalidArgument("The playback rate must be greater than 0 (got \(rate)).") }
        let id = try mediaSession(for: "SET_PLAYBACK_RATE", needs: .playbackRate)
        return try await send("SET_PLAYBACK_RATE") { .setPlaybackRate(SetPlaybackRateRequest(requestId: $0, mediaSessionId: id, playbackRate: rate)) }
    }

    /// Enables exactly these tracks; an empty list turns every track off.
    @discardableResult
    public func setActiveTrackIDs(_ ids: [Int]) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "EDIT_TRACKS_INFO", needs: .editTracks)
        return try await send("EDIT_TRACKS_INFO") { .editTracksInfo(EditTracksInfoRequest(requestId: $0, mediaSessionId: id, activeTrackIds: ids)) }
    }

    /// Changes how text tracks are drawn.
    @discardableResult
    public func setTextTrackStyle(_ style: TextTrackStyle) async throws(CastClientError) -> MediaStatus? {
        for color in [style.foregroundColor, style.backgroundColor, style.edgeColor, style.windowColor].compactMap({ $0 }) {
            guard CastColor(hex: color) != nil else { throw .invalidArgument("“\(color)” is not a color: write #RRGGBBAA or #RRGGBB.") }
        }
        if let s = style.fontScale, !(s > 0) { throw .invalidArgument("The font scale must be greater than 0 (got \(s)).") }
        let id = try mediaSession(for: "EDIT_TRACKS_INFO", needs: .editTracks)
        return try await send("EDIT_TRACKS_INFO") { .editTracksInfo(EditTracksInfoRequest(requestId: $0, mediaSessionId: id, textTrackStyle: style)) }
    }

    /// Skips the playing ad clip (the receiver refuses before `whenSkippable`).
    @discardableResult
    public func skipAd() async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "SKIP_AD", needs: .skipAd)
        return try await send("SKIP_AD") { .skipAd(MediaSessionRequest(requestId: $0, mediaSessionId: id)) }
    }

    /// Likes, dislikes, follows … the playing media (USER_ACTION); `clear` takes it back.
    /// The receiver must advertise the action's bit (LIKE, DISLIKE, FOLLOW, UNFOLLOW).
    @discardableResult
    public func userAction(_ action: UserAction, clear: Bool = false) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "USER_ACTION", needs: action.supportedMediaCommand)
        return try await send("USER_ACTION") {
            .userAction(UserActionRequest(requestId: $0, mediaSessionId: id, userAction: action, clear: clear ? true : nil))
        }
    }

    /// Sets the stream volume (0 ... 1), not the device volume.
    @discardableResult
    public func setStreamVolume(_ level: Double) async throws(CastClientError) -> MediaStatus? {
        guard level.isFinite, (0...1).contains(level) else { throw .invalidArgument("A volume must be between 0 and 1 (got \(level)).") }
        let id = try mediaSession(for: "SET_VOLUME", needs: .streamVolume)
        return try await send("SET_VOLUME") { .setVolume(SetVolumeRequest(requestId: $0, mediaSessionId: id, volume: Volume(level: level))) }
    }

    /// Mutes or unmutes the stream.
    @discardableResult
    public func setStreamMuted(_ muted: Bool) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "SET_VOLUME", needs: .streamMute)
        return try await send("SET_VOLUME") { .setVolume(SetVolumeRequest(requestId: $0, mediaSessionId: id, volume: Volume(muted: muted))) }
    }

    // MARK: plumbing

    struct QueueTracking {
        var queue = MediaQueue()
        /// Someone watches the queue: keep the id list fresh by itself.
        var wanted = false
        var refreshing = false
        var itemsFetched = 0
    }

    func mediaSession(for command: String, needs: MediaCommands) throws(CastClientError) -> Int {
        guard link != nil else { throw .notConnected }
        guard let status, status.playerState != .idle || status.media != nil else { throw .noMediaSession }
        if !needs.isEmpty, let supported = status.supportedMediaCommands, !supported.contains(needs) {
            throw .commandNotSupported(command: command)
        }
        return status.mediaSessionId
    }

    func send(_ label: String, _ make: @Sendable (Int) -> MediaMessage) async throws(CastClientError) -> MediaStatus? {
        let message = try await request(label, make)
        guard case .mediaStatus(let m) = message else { throw .unexpectedReply(request: label, type: message.type) }
        // Already applied through `receive` (replies pass there first); return the merged value.
        return m.status.isEmpty ? nil : status
    }

    /// Sends a request and returns the answer when it is not an error.
    func request(_ label: String, _ make: @Sendable (Int) -> MediaMessage) async throws(CastClientError) -> MediaMessage {
        guard let (connection, transportID) = link else { throw .notConnected }
        let reply = try await connection.request(label, to: transportID, timeout: requestTimeout, make)
        guard case .media(let message) = reply else { throw .unexpectedReply(request: label, type: "\(reply)") }
        switch message {
        case .mediaStatus, .queueItemIDs, .queueItems:
            return message
        case .invalidPlayerState: throw .invalidPlayerState(command: label)
        case .loadFailed(let e): throw .loadFailed(reason: e.reason?.rawValue, detailedErrorCode: e.detailedErrorCode)
        case .loadCancelled: throw .loadCancelled
        case .invalidRequest(let e): throw .invalidRequest(command: label, reason: e.reason?.rawValue)
        case .error(let e): throw .mediaError(command: label, reason: e.reason?.rawValue, detailedErrorCode: e.detailedErrorCode)
        default: throw .unexpectedReply(request: label, type: message.type)
        }
    }
}

extension RemoteMediaClient: NamespaceController {
    nonisolated var namespaces: [String] { [CastNamespace.mediaURN] }

    /// A message on the media namespace: applied when it comes from the joined app.
    func receive(_ message: InboundMessage, from link: CastConnection) {
        guard let current = self.link, current.connection === link, message.raw.sourceID == current.transportID,
            case .success(.media(let media)) = message.decoded
        else { return }
        handle(media)
    }

    /// Applies one media message of the joined app (tests call it to stand in for a device).
    func handle(_ media: MediaMessage) {
        switch media {
        case .mediaStatus(let m):
            apply(m.status.first)
            updateQueue { $0.apply(status: m.status.first) }
        case .queueChange(let m): updateQueue { $0.apply(change: m) }
        case .queueItemIDs(let m): updateQueue { $0.apply(ids: m) }
        case .queueItems(let m): updateQueue { $0.apply(items: m) }
        default: break
        }
    }

    func linkEnded(_ reason: DisconnectReason, link: CastConnection) {
        // The session decides what a lost link means for the status (releaseApp).
    }
}
