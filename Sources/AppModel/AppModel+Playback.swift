// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import LocalMedia

// Derived playback state: everything here reads `snapshot`, the one value the session's
// RemoteMediaClient published last, and its interpolation rule.
extension AppModel {
    /// The receiver's latest media status (merged with earlier ones by CastClient).
    public var mediaStatus: MediaStatus? { snapshot?.status }
    /// When the latest status arrived.
    public var statusReceivedAt: ContinuousClock.Instant? { snapshot?.receivedAt }

    public var media: MediaInformation? { mediaStatus?.effectiveMedia }
    /// True while media is loaded on the device (playing, paused, buffering): what the
    /// transport and the mini controller need. Finished or stopped media is not loaded.
    public var hasMedia: Bool {
        guard let s = mediaStatus else { return false }
        return s.playerState != .idle || (s.idleReason == nil && media != nil)
    }

    /// What the player shows: the media's state, or how it ended.
    public var phase: PlaybackPhase {
        guard let s = mediaStatus else { return lastLoad != nil && isConnected ? .stopped : .nothing }
        switch s.playerState {
        case .playing: return .playing
        case .paused: return .paused
        case .buffering, .loading: return .buffering
        case .idle, .unknown:
            switch s.idleReason {
            case .finished?: return .finished
            case .error?: return .failed
            case .cancelled?, .interrupted?, .unknown?: return .stopped
            case nil: return media != nil ? .paused : lostToRestart ? .stopped : .nothing
            }
        }
    }

    /// Whether the player page has something to show: loaded media, or media that ended and
    /// can be played again.
    public var showsPlayer: Bool {
        switch phase {
        case .nothing: false
        case .finished, .stopped, .failed: lastLoad != nil || media != nil
        default: true
        }
    }
    public var title: String { shortened(media?.metadata?.displayTitle ?? lastLoadTitle ?? tr("Untitled")) }
    public var subtitle: String { shortened(media?.metadata?.displaySubtitle ?? "") }
    /// Music or other audio (the placeholder artwork shows a note instead of a film).
    public var mediaKind: MediaKind { MediaKind(media) }
    public var isAudio: Bool { mediaKind == .audio }
    public var isPlaying: Bool { mediaStatus?.playerState == .playing || mediaStatus?.playerState == .buffering }
    /// The media's length; nil for a live stream (whatever it says: its window is `live`).
    public var duration: Double? { snapshot?.isLiveStream == true ? nil : media?.duration }
    public var playbackRate: Double { mediaStatus?.playbackRate ?? 1 }

    public func supports(_ command: MediaCommands) -> Bool {
        mediaStatus?.supports(command) ?? false
    }

    /// The content position at `now`, by CastClient's rule (`MediaStatusSnapshot`): the same
    /// number castctl prints for the same status and moment.
    /// While reconnecting the clock stands where the link dropped.
    public func position(at now: ContinuousClock.Instant) -> Double {
        if let frozenPosition { return frozenPosition }
        return snapshot?.streamPosition(at: now) ?? 0
    }
    public var position: Double { position(at: .now) }

    /// The segmented control's selection: below 1 → 0.5×, above 1 → 2×, exactly 1 → 1×.
    public static func rateSegment(for rate: Double) -> Double {
        rate < 1 ? 0.5 : (rate > 1 ? 2 : 1)
    }
    public var selectedRate: Double { Self.rateSegment(for: playbackRate) }

    /// The user actions in effect for the media (a like the person gave it, from any sender).
    public var userActions: Set<UserAction> { Set(media?.userActionStates?.map(\.userAction) ?? []) }
    /// Whether the app on the device takes likes or dislikes (its supportedMediaCommands).
    public var offersRating: Bool { controlsMedia && (supports(.like) || supports(.dislike)) }

    /// The device's volume (RECEIVER_STATUS), as Google's Cast dialog shows it: set by any
    /// sender, the TV remote or a phone, it shows here.
    public var deviceVolume: Volume? { receiverStatus?.volume }
    public var volumeLevel: Double { deviceVolume?.level ?? 1 }
    public var isMuted: Bool { deviceVolume?.muted ?? false }
    /// A device with fixed volume (an AV receiver's HDMI input) cannot be changed from here.
    public var hasFixedVolume: Bool { deviceVolume?.controlType == "fixed" }

    /// The text tracks a person turns on: subtitles, captions and descriptions (and tracks of
    /// no or an unknown subtype), never a chapter list or a METADATA track (AppModel+Chapters);
    /// none on a device without a screen (AppModel+ForeignApp.swift).
    public var textTracks: [MediaTrack] { isAudioOnlyDevice ? [] : (media?.tracks ?? []).filter { $0.type == .text && $0.isOffered } }
    public var audioTracks: [MediaTrack] { (media?.tracks ?? []).filter { $0.type == .audio } }
    public var activeTrackIDs: [Int] { mediaStatus?.activeTrackIds ?? [] }
    public var activeTextTrackID: Int? { textTracks.first { activeTrackIDs.contains($0.trackId) }?.trackId }
    public var activeAudioTrackID: Int? { audioTracks.first { activeTrackIDs.contains($0.trackId) }?.trackId }

    /// A track's name in the tracks popover: its language and title by the one naming rule
    /// (LocalMedia's `TrackFacts` with `Localization.trackWords`), so a stream is called the same
    /// here, in the Burn In menu and on the device; captions are marked CC, descriptions as
    /// described video (TrackGroup).
    public static func trackLabel(_ t: MediaTrack) -> String {
        let facts = TrackFacts(
            kind: t.type == .text ? .text : .audio, language: t.language, title: t.name.map { shortened($0) }, origin: .track(id: t.trackId))
        let name = facts.name(Localization.trackWords)
        switch t.group {
        // TRANSLATORS: CC: closed captions, subtitles that also say what is heard (sounds,
        // who speaks); {0} is the track's name, such as "English".
        case .captions: return labelText(tr("{0} (CC)", name))
        // TRANSLATORS: a text track describing what is seen, for people who cannot see it (a
        // screen reader or the device reads it out); {0} is the track's name, such as "English".
        case .descriptions: return labelText(tr("{0} (described video)", name))
        default: return labelText(name)
        }
    }

    /// A name for a menu row, starting with the UI's direction mark: a name in the other
    /// script ("فارسی" in an English window) then sits at the row's start like the others.
    static func labelText(_ name: String) -> String {
        (Localization.isRightToLeft ? "\u{200F}" : "\u{200E}") + name
    }

    public var breakMarkers: [BreakMarker] {
        (media?.breaks ?? []).filter { !$0.isPostRoll }.map {
            BreakMarker(position: $0.position, isWatched: $0.isWatched ?? false)
        }
    }

    public var isPlayingAd: Bool { mediaStatus?.breakStatus != nil }
}
