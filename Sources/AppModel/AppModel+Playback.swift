import CastClient
import CastProtocol

// Derived playback state: everything here reads the session's RemoteMediaClient snapshot
// (the one copy of the media status) and its interpolation rule.
extension AppModel {
    /// The latest status and when it came, nil without a session.
    public var snapshot: MediaStatusSnapshot? {
        _ = statusRevision
        return session?.media.snapshot
    }

    /// The receiver's latest media status (merged with earlier ones by CastClient).
    public var mediaStatus: MediaStatus? { snapshot?.status }
    /// When the latest status arrived.
    public var statusReceivedAt: ContinuousClock.Instant? { snapshot?.receivedAt }

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
        mediaStatus?.supports(command) ?? false
    }

    /// The content position at `now`, by CastClient's rule (`MediaStatusSnapshot`): the same
    /// number castctl prints for the same status and moment.
    public func position(at now: ContinuousClock.Instant) -> Double {
        snapshot?.streamPosition(at: now) ?? 0
    }
    public var position: Double { position(at: .now) }

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

    /// The ad banner at `now`: the clip's clock comes from CastClient's rule (1× from
    /// `currentBreakClipTime` while playing).
    public func adState(at now: ContinuousClock.Instant) -> AdState? {
        guard let snapshot, let b = snapshot.status?.breakStatus,
              let clipTime = snapshot.breakClipTime(at: now) else { return nil }
        let brk = media?.breaks?.first { $0.id == b.breakId }
        let clipIDs = brk?.breakClipIds ?? []
        let clip = media?.breakClips?.first { $0.id == b.breakClipId }
        let index = (clipIDs.firstIndex { $0 == b.breakClipId } ?? 0) + 1
        let remaining = max(0, (clip?.duration ?? 0) - clipTime)
        let skipAt = b.whenSkippable ?? clip?.whenSkippable
        let skippableIn = skipAt.map { max(0, ($0 - clipTime).rounded(.up)) }
        return AdState(clipIndex: index, clipCount: max(clipIDs.count, 1), remaining: remaining,
                       skippableIn: skippableIn)
    }
    public var adState: AdState? { adState(at: .now) }
}
