// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol
import Synchronization

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
    /// The link and the app's transport id while a session is joined. Behind a lock so that
    /// commands can run on the caller's executor (`nonisolated(nonsending)`): a command from
    /// the main thread writes from there and is resumed by the reply on the main thread,
    /// with no hop onto this actor in between.
    private let link = Mutex<(connection: CastConnection, transportID: String)?>(nil)
    private let latest = Mutex(MediaStatusSnapshot(status: nil, receivedAt: .now))
    private let statusBroadcast = Broadcast<MediaStatus?>()
    private let metadataBroadcast = Broadcast<MediaInformation?>()
    private let requestTimeout: Duration?
    /// The queue model (MediaQueue.swift) and who wants it kept fresh.
    private let queueState = Mutex(QueueTracking())
    private let queueBroadcast = Broadcast<MediaQueue>()

    init(requestTimeout: Duration? = nil) {
        self.requestTimeout = requestTimeout
    }

    // MARK: observing

    /// The latest media status (nil when nothing is loaded or no session is joined).
    public nonisolated var status: MediaStatus? { latest.withLock { $0.status } }

    /// The queue as known now (see `MediaQueue`).
    public nonisolated var queue: MediaQueue { queueState.withLock { $0.queue } }

    /// Every change of the queue model: the current value first. Subscribing also keeps
    /// the id list fresh: whenever it goes stale, it is fetched again by itself.
    public nonisolated func queueUpdates() -> AsyncStream<MediaQueue> {
        let stale = queueState.withLock { t in
            t.wanted = true
            return t.queue.isStale && t.queue.mediaSessionID != nil
        }
        if stale { scheduleQueueRefresh() }
        return queueState.withLock { queueBroadcast.stream(first: $0.queue) }
    }

    /// How many items have been fetched with QUEUE_GET_ITEMS since the session was joined
    /// (tests check that a long queue is fetched lazily).
    public nonisolated var queueItemsFetched: Int { queueState.withLock { $0.itemsFetched } }

    /// The latest status and when it arrived: what positions are interpolated from.
    public nonisolated var snapshot: MediaStatusSnapshot { latest.withLock { $0 } }

    /// The media being played, merged from earlier statuses when the receiver left it out.
    public nonisolated var mediaInformation: MediaInformation? { status?.effectiveMedia }

    /// Every change of the media status: the current value first, then each new one.
    public nonisolated func statusUpdates() -> AsyncStream<MediaStatus?> {
        latest.withLock { statusBroadcast.stream(first: .some($0.status)) }
    }

    /// Every change of the media information (metadata, tracks, text style, ad breaks):
    /// the current value first, then each new one.
    public nonisolated func metadataUpdates() -> AsyncStream<MediaInformation?> {
        latest.withLock { metadataBroadcast.stream(first: .some($0.status?.effectiveMedia)) }
    }

    /// The content position at `now`, in seconds, by `MediaStatusSnapshot`'s rule (it holds
    /// during an ad break and advances by `playbackRate` while PLAYING otherwise).
    public nonisolated func approximateStreamPosition(at now: ContinuousClock.Instant = .now) -> Double? {
        snapshot.streamPosition(at: now)
    }

    /// Seconds into the playing ad clip at `now` (advancing at 1× while PLAYING); nil outside a break.
    public nonisolated func approximateBreakClipTime(at now: ContinuousClock.Instant = .now) -> Double? {
        snapshot.breakClipTime(at: now)
    }

    // MARK: wiring (called by CastSession)

    func attach(connection: CastConnection, transportID: String) {
        link.withLock { $0 = (connection, transportID) }
    }

    func detach(clearStatus: Bool) {
        link.withLock { $0 = nil }
        if clearStatus {
            apply(nil)
            updateQueue { $0.apply(status: nil) }
        }
    }

    /// A message from the app on the media namespace. Nonisolated (the state it touches is
    /// behind a Mutex) so that the connection's read loop need not hop onto this actor.
    nonisolated func handle(_ message: MediaMessage) {
        switch message {
        case .mediaStatus(let m):
            apply(m.status.first)
            updateQueue { $0.apply(status: m.status.first) }
        case .queueChange(let m): updateQueue { $0.apply(change: m) }
        case .queueItemIDs(let m): updateQueue { $0.apply(ids: m) }
        case .queueItems(let m): updateQueue { $0.apply(items: m) }
        default: break
        }
    }

    nonisolated func updateQueue(_ change: (inout MediaQueue) -> Void) {
        let refresh = queueState.withLock { t -> Bool in
            let old = t.queue
            change(&t.queue)
            if t.queue != old { queueBroadcast.send(t.queue) }
            guard t.wanted, t.queue.isStale, t.queue.mediaSessionID != nil, !t.refreshing else { return false }
            return true
        }
        if refresh { scheduleQueueRefresh() }
    }

    nonisolated func countFetched(_ n: Int) {
        queueState.withLock { $0.itemsFetched += n }
    }

    nonisolated func scheduleQueueRefresh() {
        let go = queueState.withLock { t -> Bool in
            if t.refreshing { return false }
            t.refreshing = true
            return true
        }
        guard go else { return }
        Task {
            _ = try? await self.refreshQueue()
            self.queueState.withLock { $0.refreshing = false }
        }
    }

    private nonisolated func apply(_ incoming: MediaStatus?) {
        // Observers are told under the lock, so one subscribing meanwhile neither misses
        // this status nor gets it twice.
        latest.withLock { s in
            let old = s.status
            let new = incoming?.merging(previous: old)
            s = MediaStatusSnapshot(status: new, receivedAt: .now)
            if old != new { statusBroadcast.send(new) }
            if old?.effectiveMedia != new?.effectiveMedia { metadataBroadcast.send(new?.effectiveMedia) }
        }
    }

    func finish() {
        statusBroadcast.finish()
        metadataBroadcast.finish()
        queueBroadcast.finish()
    }

    // MARK: commands

    /// Asks the receiver for the media status.
    @discardableResult
    nonisolated(nonsending) public func requestStatus() async throws(CastClientError) -> MediaStatus? {
        let sessionID = status?.mediaSessionId
        return try await send("GET_STATUS") { .getStatus(MediaSessionRequest(requestId: $0, mediaSessionId: sessionID)) }
    }

    /// Loads and (by default) plays media.
    /// - Parameters:
    ///   - startTime: seconds into the media.
    ///   - activeTrackIDs: tracks to enable; nil = the receiver's default.
    ///   - playbackRate: initial rate (the simulator accepts 0.5 ... 2).
    @discardableResult
    nonisolated(nonsending) public func load(
        _ media: MediaInformation, autoplay: Bool = true, startTime: Double? = nil, activeTrackIDs: [Int]? = nil,
        playbackRate: Double? = nil, customData: JSONValue? = nil
    ) async throws(CastClientError) -> MediaStatus {
        if let r = playbackRate, !(r > 0) { throw .invalidArgument("The playback rate must be greater than 0 (got \(r)).") }
        let status = try await send("LOAD") {
            .load(LoadRequest(requestId: $0, media: media, autoplay: autoplay, currentTime: startTime, activeTrackIds: activeTrackIDs, playbackRate: playbackRate, customData: customData))
        }
        guard let status else { throw .loadFailed(reason: "the receiver reported no media after loading", detailedErrorCode: nil) }
        return status
    }

    @discardableResult
    nonisolated(nonsending) public func play(customData: JSONValue? = nil) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "PLAY", needs: [])
        return try await send("PLAY") { .play(MediaSessionRequest(requestId: $0, mediaSessionId: id, customData: customData)) }
    }

    @discardableResult
    nonisolated(nonsending) public func pause(customData: JSONValue? = nil) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "PAUSE", needs: .pause)
        return try await send("PAUSE") { .pause(MediaSessionRequest(requestId: $0, mediaSessionId: id, customData: customData)) }
    }

    /// Stops playback and ends the media session (the app keeps running).
    @discardableResult
    nonisolated(nonsending) public func stop(customData: JSONValue? = nil) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "STOP", needs: [])
        return try await send("STOP") { .stop(MediaSessionRequest(requestId: $0, mediaSessionId: id, customData: customData)) }
    }

    /// Seeks to `position` seconds. `resumeState` nil keeps the play/pause state.
    @discardableResult
    nonisolated(nonsending) public func seek(to position: Double, resumeState: ResumeState? = nil) async throws(CastClientError) -> MediaStatus? {
        guard position.isFinite, position >= 0 else { throw .invalidArgument("A seek position must be 0 or more seconds (got \(position)).") }
        let id = try mediaSession(for: "SEEK", needs: .seek)
        return try await send("SEEK") { .seek(SeekRequest(requestId: $0, mediaSessionId: id, currentTime: position, resumeState: resumeState)) }
    }

    /// Seeks by `offset` seconds from the current position (negative = back), using the
    /// protocol's `relativeTime` so the receiver applies it to its own clock.
    @discardableResult
    nonisolated(nonsending) public func seek(by offset: Double, resumeState: ResumeState? = nil) async throws(CastClientError) -> MediaStatus? {
        guard offset.isFinite else { throw .invalidArgument("A seek offset must be a number of seconds.") }
        let id = try mediaSession(for: "SEEK", needs: .seek)
        return try await send("SEEK") { .seek(SeekRequest(requestId: $0, mediaSessionId: id, relativeTime: offset, resumeState: resumeState)) }
    }

    /// Sets the playback rate (1 = normal; the Default Media Receiver allows 0.5 ... 2).
    @discardableResult
    nonisolated(nonsending) public func setPlaybackRate(_ rate: Double) async throws(CastClientError) -> MediaStatus? {
        guard rate.isFinite, rate > 0 else { throw .invalidArgument("The playback rate must be greater than 0 (got \(rate)).") }
        let id = try mediaSession(for: "SET_PLAYBACK_RATE", needs: .playbackRate)
        return try await send("SET_PLAYBACK_RATE") { .setPlaybackRate(SetPlaybackRateRequest(requestId: $0, mediaSessionId: id, playbackRate: rate)) }
    }

    /// Enables exactly these tracks; an empty list turns every track off.
    @discardableResult
    nonisolated(nonsending) public func setActiveTrackIDs(_ ids: [Int]) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "EDIT_TRACKS_INFO", needs: .editTracks)
        return try await send("EDIT_TRACKS_INFO") { .editTracksInfo(EditTracksInfoRequest(requestId: $0, mediaSessionId: id, activeTrackIds: ids)) }
    }

    /// Changes how text tracks are drawn.
    @discardableResult
    nonisolated(nonsending) public func setTextTrackStyle(_ style: TextTrackStyle) async throws(CastClientError) -> MediaStatus? {
        for color in [style.foregroundColor, style.backgroundColor, style.edgeColor, style.windowColor].compactMap({ $0 }) {
            guard CastColor(hex: color) != nil else { throw .invalidArgument("“\(color)” is not a color: write #RRGGBBAA or #RRGGBB.") }
        }
        if let s = style.fontScale, !(s > 0) { throw .invalidArgument("The font scale must be greater than 0 (got \(s)).") }
        let id = try mediaSession(for: "EDIT_TRACKS_INFO", needs: .editTracks)
        return try await send("EDIT_TRACKS_INFO") { .editTracksInfo(EditTracksInfoRequest(requestId: $0, mediaSessionId: id, textTrackStyle: style)) }
    }

    /// Skips the playing ad clip (the receiver refuses before `whenSkippable`).
    @discardableResult
    nonisolated(nonsending) public func skipAd() async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "SKIP_AD", needs: .skipAd)
        return try await send("SKIP_AD") { .skipAd(MediaSessionRequest(requestId: $0, mediaSessionId: id)) }
    }

    /// Sets the stream volume (0 ... 1), not the device volume.
    @discardableResult
    nonisolated(nonsending) public func setStreamVolume(_ level: Double) async throws(CastClientError) -> MediaStatus? {
        guard level.isFinite, (0...1).contains(level) else { throw .invalidArgument("A volume must be between 0 and 1 (got \(level)).") }
        let id = try mediaSession(for: "SET_VOLUME", needs: .streamVolume)
        return try await send("SET_VOLUME") { .setVolume(SetVolumeRequest(requestId: $0, mediaSessionId: id, volume: Volume(level: level))) }
    }

    /// Mutes or unmutes the stream.
    @discardableResult
    nonisolated(nonsending) public func setStreamMuted(_ muted: Bool) async throws(CastClientError) -> MediaStatus? {
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

    nonisolated func mediaSession(for command: String, needs: MediaCommands) throws(CastClientError) -> Int {
        guard link.withLock({ $0 != nil }) else { throw .notConnected }
        guard let status, status.playerState != .idle || status.media != nil else { throw .noMediaSession }
        if !needs.isEmpty, let supported = status.supportedMediaCommands, !supported.contains(needs) {
            throw .commandNotSupported(command: command)
        }
        return status.mediaSessionId
    }

    nonisolated(nonsending) func send(_ label: String, _ make: @Sendable (Int) -> MediaMessage) async throws(CastClientError) -> MediaStatus? {
        let message = try await request(label, make)
        guard case .mediaStatus(let m) = message else { throw .unexpectedReply(request: label, type: message.type) }
        // Already applied through `handle` (replies pass there first); return the merged value.
        return m.status.isEmpty ? nil : status
    }

    /// Sends a request and returns the answer when it is not an error.
    nonisolated(nonsending) func request(_ label: String, _ make: @Sendable (Int) -> MediaMessage) async throws(CastClientError) -> MediaMessage {
        guard let (connection, transportID) = link.withLock({ $0 }) else { throw .notConnected }
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
