import CastProtocol
import Observation

/// Everything the window shows, and the commands it sends. The window keeps no playback
/// state of its own: it renders `mediaStatus` (the receiver's latest word) and
/// `position(at:)`, so changes made by other senders appear with the next status message.
@MainActor @Observable
public final class AppModel {
    public enum ConnectionState: Equatable, Sendable {
        case disconnected
        case connecting(deviceID: String)
        case connected(deviceID: String)
    }

    public enum DiscoveryState: Equatable, Sendable {
        case starting
        case browsing
        case unavailable(reason: String)
    }

    /// The ad banner's content while breakStatus is present.
    public struct AdState: Equatable, Sendable {
        /// 1-based index of the playing clip in its break, and the break's clip count.
        public var clipIndex: Int
        public var clipCount: Int
        /// Seconds left in the playing clip.
        public var remaining: Double
        /// Seconds until "Skip ad" works; 0 when it can be skipped now, nil when never.
        public var skippableIn: Double?
        public var isSkippable: Bool { skippableIn == 0 }
    }

    public struct BreakMarker: Equatable, Sendable {
        public var position: Double
        public var isWatched: Bool
        public init(position: Double, isWatched: Bool) { self.position = position; self.isWatched = isWatched }
    }

    /// A user-readable message for a toast; `serial` grows with every new message.
    public struct Notice: Equatable, Sendable {
        public var serial: Int
        public var text: String
    }

    // MARK: state

    public private(set) var discoveredDevices: [DeviceInfo] = []
    public private(set) var addedDevices: [DeviceInfo] = []
    public var devices: [DeviceInfo] {
        addedDevices + discoveredDevices.filter { d in !addedDevices.contains { $0.id == d.id } }
    }
    public private(set) var discoveryState: DiscoveryState = .starting
    public private(set) var connection: ConnectionState = .disconnected
    public private(set) var mediaStatus: MediaStatus?
    /// When `mediaStatus` arrived, in the clock's seconds (for interpolation).
    public private(set) var statusReceivedAt: Double = 0
    /// The local path of the current media's artwork, once resolved.
    public private(set) var artworkPath: String?
    public private(set) var notice: Notice?
    /// The style being edited (previewed locally; Apply sends it).
    public var draftStyle: TextTrackStyle
    /// A sample media item to offer (set in demo mode).
    public var sampleMedia: MediaInformation?

    // MARK: collaborators

    private let connector: any CastConnector
    private let artwork: any ArtworkProvider
    private let preferences: any StylePreferences
    private let clock: @Sendable () -> Double
    @ObservationIgnored private var session: (any CastSessionHandle)?
    @ObservationIgnored private var statusTask: Task<Void, Never>?
    @ObservationIgnored private var browseTask: Task<Void, Never>?
    @ObservationIgnored private var artworkKey: String?

    public init(connector: any CastConnector, artwork: any ArtworkProvider = LocalArtworkProvider(),
                preferences: any StylePreferences, clock: @escaping @Sendable () -> Double) {
        self.connector = connector
        self.artwork = artwork
        self.preferences = preferences
        self.clock = clock
        self.draftStyle = preferences.defaultTextTrackStyle ?? .default
    }

    // MARK: devices

    /// Follows a device browser until the model goes away.
    public func startBrowsing(_ browser: any DeviceBrowser) {
        browseTask?.cancel()
        browseTask = Task { [weak self] in
            for await event in browser.events() {
                guard let self else { return }
                self.apply(event)
            }
        }
    }

    public func apply(_ event: DiscoveryEvent) {
        switch event {
        case .browsing:
            discoveryState = .browsing
        case .unavailable(let reason):
            discoveryState = .unavailable(reason: reason)
        case .found(let d), .updated(let d):
            if discoveryState == .starting { discoveryState = .browsing }
            if let i = discoveredDevices.firstIndex(where: { $0.id == d.id }) { discoveredDevices[i] = d }
            else { discoveredDevices.append(d) }
        case .lost(let id):
            discoveredDevices.removeAll { $0.id == id }
        }
    }

    /// Adds a device by "host", "host:port" or "[v6]:port"; returns it, or nil with a notice.
    @discardableResult
    public func addDevice(address: String, name: String? = nil, origin: DeviceInfo.Origin = .added) -> DeviceInfo? {
        guard let (host, port) = Self.parseAddress(address) else {
            post(tr("“{0}” is not an address. Enter a host name or IP address, optionally with :port.", address))
            return nil
        }
        let id = "\(host):\(port)"
        if let existing = devices.first(where: { $0.id == id }) { return existing }
        let device = DeviceInfo(id: id, friendlyName: name ?? host, model: tr("Added by address"),
                                host: host, port: port, origin: origin)
        addedDevices.append(device)
        return device
    }

    public func updateDevice(_ device: DeviceInfo) {
        if let i = addedDevices.firstIndex(where: { $0.id == device.id }) { addedDevices[i] = device }
        if let i = discoveredDevices.firstIndex(where: { $0.id == device.id }) { discoveredDevices[i] = device }
    }

    public static func parseAddress(_ text: String) -> (String, Int)? {
        let s = text.trimmingWhitespace()
        guard !s.isEmpty, !s.contains(" ") else { return nil }
        var host = s, port = 8009
        if s.hasPrefix("[") {
            guard let close = s.firstIndex(of: "]") else { return nil }
            host = String(s[s.index(after: s.startIndex)..<close])
            let rest = s[s.index(after: close)...]
            if rest.hasPrefix(":") { guard let p = Int(rest.dropFirst()) else { return nil }; port = p }
            else if !rest.isEmpty { return nil }
        } else if s.filter({ $0 == ":" }).count == 1, let colon = s.firstIndex(of: ":") {
            host = String(s[..<colon])
            guard let p = Int(s[s.index(after: colon)...]) else { return nil }
            port = p
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
        return (host, port)
    }

    // MARK: session

    public var connectedDevice: DeviceInfo? {
        guard case .connected(let id) = connection else { return nil }
        return devices.first { $0.id == id }
    }

    public var isConnected: Bool { if case .connected = connection { true } else { false } }

    /// Connects (joining whatever runs there), then follows its media statuses.
    public func connect(to device: DeviceInfo) async {
        if case .connected(let id) = connection, id == device.id { return }
        await disconnect()
        connection = .connecting(deviceID: device.id)
        do {
            let handle = try await connector.connect(to: device)
            guard case .connecting(let id) = connection, id == device.id else {
                await handle.disconnect(); return
            }
            session = handle
            connection = .connected(deviceID: device.id)
            statusTask = Task { [weak self] in
                for await status in handle.mediaStatuses() {
                    guard let self else { return }
                    self.receive(status)
                }
                guard let self, self.session === handle else { return }
                self.sessionEnded(tr("The connection to {0} was lost.", device.friendlyName))
            }
        } catch {
            connection = .disconnected
            post(tr("Could not connect to {0}: {1}", device.friendlyName, Self.describe(error)))
        }
    }

    public func disconnect() async {
        statusTask?.cancel(); statusTask = nil
        if let s = session { session = nil; await s.disconnect() }
        connection = .disconnected
        mediaStatus = nil
        artworkPath = nil; artworkKey = nil
    }

    private func sessionEnded(_ message: String) {
        session = nil
        connection = .disconnected
        mediaStatus = nil
        post(message)
    }

    /// Takes a status from the receiver (also used by tests).
    public func receive(_ status: MediaStatus?) {
        mediaStatus = status.map { $0.merging(previous: mediaStatus) }
        statusReceivedAt = clock()
        resolveArtwork()
    }

    private func resolveArtwork() {
        let images = media?.metadata?.images ?? []
        let key = images.map(\.url).joined(separator: "|")
        guard key != artworkKey else { return }
        artworkKey = key
        artworkPath = nil
        guard !images.isEmpty else { return }
        Task { [weak self, artwork] in
            let path = await artwork.localPath(for: images, width: 480)
            guard let self, self.artworkKey == key else { return }
            self.artworkPath = path
        }
    }

    // MARK: derived playback state (all from mediaStatus)

    public var media: MediaInformation? { mediaStatus?.effectiveMedia }
    public var hasMedia: Bool {
        guard let s = mediaStatus else { return false }
        return s.playerState != .idle || media != nil
    }
    public var title: String { media?.metadata?.displayTitle ?? tr("Untitled") }
    public var subtitle: String { media?.metadata?.displaySubtitle ?? connectedDevice?.friendlyName ?? "" }
    public var isPlaying: Bool { mediaStatus?.playerState == .playing || mediaStatus?.playerState == .buffering }
    public var duration: Double? { media?.duration }
    public var playbackRate: Double { mediaStatus?.playbackRate ?? 1 }

    public func supports(_ command: MediaCommands) -> Bool {
        guard let s = mediaStatus else { return false }
        return s.supports(command)
    }

    /// The stream position now: the reported time advanced by the elapsed time × rate while playing.
    public func position(at now: Double) -> Double {
        guard let s = mediaStatus else { return 0 }
        var t = s.currentTime ?? 0
        if s.playerState == .playing && s.breakStatus == nil {
            t += max(0, now - statusReceivedAt) * (s.playbackRate ?? 1)
        }
        if let d = duration, d > 0 { t = min(t, d) }
        return max(0, t)
    }
    public var position: Double { position(at: clock()) }

    /// The segmented control's selection: below 1 → 0.5×, above 1 → 2×, exactly 1 → 1×.
    public static func rateSegment(for rate: Double) -> Double {
        rate < 1 ? 0.5 : (rate > 1 ? 2 : 1)
    }
    public var selectedRate: Double { Self.rateSegment(for: playbackRate) }

    public var volumeLevel: Double { mediaStatus?.volume?.level ?? 1 }
    public var isMuted: Bool { mediaStatus?.volume?.muted ?? false }

    public var textTracks: [MediaTrack] { (media?.tracks ?? []).filter { $0.type == .text } }
    public var audioTracks: [MediaTrack] { (media?.tracks ?? []).filter { $0.type == .audio } }
    public var activeTrackIDs: [Int] { mediaStatus?.activeTrackIds ?? [] }
    public var activeTextTrackID: Int? { textTracks.first { activeTrackIDs.contains($0.trackId) }?.trackId }
    public var activeAudioTrackID: Int? { audioTracks.first { activeTrackIDs.contains($0.trackId) }?.trackId }

    public static func trackLabel(_ t: MediaTrack) -> String {
        let name = t.name ?? tr("Track {0}", t.trackId)
        if let lang = t.language, !lang.isEmpty, !(t.name ?? "").contains("(") { return "\(name) (\(lang))" }
        return name
    }

    public var breakMarkers: [BreakMarker] {
        (media?.breaks ?? []).filter { !$0.isPostRoll }.map {
            BreakMarker(position: $0.position, isWatched: $0.isWatched ?? false)
        }
    }

    public var isPlayingAd: Bool { mediaStatus?.breakStatus != nil }

    public func adState(at now: Double) -> AdState? {
        guard let s = mediaStatus, let b = s.breakStatus else { return nil }
        let brk = media?.breaks?.first { $0.id == b.breakId }
        let clipIDs = brk?.breakClipIds ?? []
        let clip = media?.breakClips?.first { $0.id == b.breakClipId }
        var clipTime = b.currentBreakClipTime ?? 0
        if s.playerState == .playing { clipTime += max(0, now - statusReceivedAt) * (s.playbackRate ?? 1) }
        let index = (clipIDs.firstIndex { $0 == b.breakClipId } ?? 0) + 1
        let remaining = max(0, (clip?.duration ?? 0) - clipTime)
        let skipAt = b.whenSkippable ?? clip?.whenSkippable
        let skippableIn = skipAt.map { max(0, ($0 - clipTime).rounded(.up)) }
        return AdState(clipIndex: index, clipCount: max(clipIDs.count, 1), remaining: remaining,
                       skippableIn: skippableIn)
    }
    public var adState: AdState? { adState(at: clock()) }

    // MARK: commands

    /// Loads the demo sample (with the default subtitle style, if any).
    public func castSample() async {
        guard let sample = sampleMedia else { return }
        await load(sample)
    }

    public func load(_ media: MediaInformation, autoplay: Bool = true) async {
        var media = media
        if let style = preferences.defaultTextTrackStyle { media.textTrackStyle = style }
        await run { try await $0.load(media, autoplay: autoplay, activeTrackIds: nil) }
    }

    public func togglePlayPause() async {
        if isPlaying { await run { try await $0.pause() } } else { await run { try await $0.play() } }
    }

    public func seek(by delta: Double) async {
        guard !isPlayingAd else { post(tr("Seeking is not possible while an ad plays.")); return }
        var target = position + delta
        if let d = duration { target = min(target, d) }
        await seek(to: max(0, target))
    }

    public func seek(to seconds: Double) async {
        guard !isPlayingAd else { post(tr("Seeking is not possible while an ad plays.")); return }
        await run { try await $0.seek(to: seconds) }
    }

    public func setRate(_ rate: Double) async {
        guard supports(.playbackRate) else { post(tr("This receiver cannot change the playback speed.")); return }
        await run { try await $0.setPlaybackRate(rate) }
    }

    /// Chooses a subtitle track (nil = off), keeping the active audio track.
    public func selectTextTrack(_ id: Int?) async {
        var ids = activeTrackIDs.filter { tid in !textTracks.contains { $0.trackId == tid } }
        if let id { ids.append(id) }
        await run { try await $0.setActiveTracks(ids) }
    }

    public func selectAudioTrack(_ id: Int) async {
        var ids = activeTrackIDs.filter { tid in !audioTracks.contains { $0.trackId == tid } }
        ids.append(id)
        await run { try await $0.setActiveTracks(ids) }
    }

    public func applyStyle() async {
        let style = draftStyle
        await run { try await $0.setTextTrackStyle(style) }
    }

    /// Stores the draft as the default that every later load sends.
    public func useStyleAsDefault() {
        preferences.defaultTextTrackStyle = draftStyle
        post(tr("Subtitle style saved as default."))
    }

    public var defaultStyle: TextTrackStyle? { preferences.defaultTextTrackStyle }

    public func skipAd() async {
        guard let ad = adState else { return }
        guard ad.isSkippable else {
            if let n = ad.skippableIn { post(tr("This ad can be skipped in {0} s.", Int(n))) }
            else { post(tr("This ad cannot be skipped.")) }
            return
        }
        await run { try await $0.skipAd() }
    }

    public func setVolume(_ level: Double) async {
        await run { try await $0.setVolume(min(1, max(0, level))) }
    }

    public func toggleMute() async {
        let muted = !isMuted
        await run { try await $0.setMuted(muted) }
    }

    public func stopCasting() async {
        await run { try await $0.stopMedia() }
    }

    // MARK: errors

    public func post(_ text: String) {
        notice = Notice(serial: (notice?.serial ?? 0) + 1, text: text)
    }

    private func run(_ body: (any CastSessionHandle) async throws -> Void) async {
        guard let session else { post(tr("Not connected to a Cast device.")); return }
        do { try await body(session) } catch { post(Self.describe(error)) }
    }

    /// A sentence a person can act on. Errors that are `CustomStringConvertible` are expected to
    /// carry such a sentence (CastClient's typed errors do).
    public static func describe(_ error: any Error) -> String {
        if let e = error as? any CustomStringConvertible { return e.description }
        return tr("The receiver refused the request.")
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
