// The media namespace's data types: what a LOAD carries and a MEDIA_STATUS reports.
// Swift names follow the wire JSON; every field a receiver may omit is optional.

public struct MediaInformation: Codable, Hashable, Sendable {
    public var contentId: String
    public var contentUrl: String?
    /// Required by the protocol, but some senders send null.
    public var streamType: StreamType?
    public var contentType: String?
    public var metadata: MediaMetadata?
    /// Seconds; absent for live streams.
    public var duration: Double?
    public var tracks: [MediaTrack]?
    public var textTrackStyle: TextTrackStyle?
    public var breaks: [AdBreak]?
    public var breakClips: [AdBreakClip]?
    public var vmapAdsRequest: AdsRequest?
    public var hlsSegmentFormat: String?
    public var entity: String?
    public var customData: JSONValue?

    public init(
        contentId: String, contentUrl: String? = nil, streamType: StreamType? = .buffered, contentType: String? = nil,
        metadata: MediaMetadata? = nil, duration: Double? = nil, tracks: [MediaTrack]? = nil,
        textTrackStyle: TextTrackStyle? = nil, breaks: [AdBreak]? = nil, breakClips: [AdBreakClip]? = nil,
        customData: JSONValue? = nil
    ) {
        self.contentId = contentId
        self.contentUrl = contentUrl
        self.streamType = streamType
        self.contentType = contentType
        self.metadata = metadata
        self.duration = duration
        self.tracks = tracks
        self.textTrackStyle = textTrackStyle
        self.breaks = breaks
        self.breakClips = breakClips
        self.customData = customData
    }
}

/// An entry of a media queue. `itemId` is assigned by the receiver: leave it out in
/// QUEUE_LOAD and QUEUE_INSERT.
public struct QueueItem: Codable, Hashable, Sendable {
    public var itemId: Int?
    public var media: MediaInformation?
    public var autoplay: Bool?
    public var startTime: Double?
    public var playbackDuration: Double?
    public var preloadTime: Double?
    public var activeTrackIds: [Int]?
    public var customData: JSONValue?

    public init(
        itemId: Int? = nil, media: MediaInformation? = nil, autoplay: Bool? = nil, startTime: Double? = nil,
        playbackDuration: Double? = nil, preloadTime: Double? = nil, activeTrackIds: [Int]? = nil, customData: JSONValue? = nil
    ) {
        self.itemId = itemId
        self.media = media
        self.autoplay = autoplay
        self.startTime = startTime
        self.playbackDuration = playbackDuration
        self.preloadTime = preloadTime
        self.activeTrackIds = activeTrackIds
        self.customData = customData
    }
}

/// A queue given with LOAD or reported in a status.
public struct QueueData: Codable, Hashable, Sendable {
    public var id: String?
    public var name: String?
    public var description: String?
    public var entity: String?
    public var queueType: String?
    public var repeatMode: RepeatMode?
    public var shuffle: Bool?
    public var items: [QueueItem]?
    public var startIndex: Int?
    public var startTime: Double?

    public init(id: String? = nil, name: String? = nil, repeatMode: RepeatMode? = nil, items: [QueueItem]? = nil, startIndex: Int? = nil, startTime: Double? = nil) {
        self.id = id
        self.name = name
        self.repeatMode = repeatMode
        self.items = items
        self.startIndex = startIndex
        self.startTime = startTime
    }
}

/// The seekable window of a live or event stream.
public struct LiveSeekableRange: Codable, Hashable, Sendable {
    public var start: Double?
    public var end: Double?
    public var isMovingWindow: Bool?
    public var isLiveDone: Bool?
}

public struct VideoInfo: Codable, Hashable, Sendable {
    public var width: Int?
    public var height: Int?
    /// `sdr`, `hdr` or `dv`.
    public var hdrType: String?
}

/// Loading of the next media reported while `playerState` still describes the old one.
public struct ExtendedMediaStatus: Codable, Hashable, Sendable {
    public var playerState: PlayerState?
    public var media: MediaInformation?
    public var mediaSessionId: Int?

    public init(playerState: PlayerState? = nil, media: MediaInformation? = nil, mediaSessionId: Int? = nil) {
        self.playerState = playerState
        self.media = media
        self.mediaSessionId = mediaSessionId
    }
}

/// The state of one media session as the receiver reports it.
public struct MediaStatus: Codable, Hashable, Sendable {
    public var mediaSessionId: Int
    public var playerState: PlayerState
    /// Only while IDLE, when the reason is known.
    public var idleReason: IdleReason?
    /// Seconds.
    public var currentTime: Double?
    public var playbackRate: Double?
    public var supportedMediaCommands: MediaCommands?
    /// The stream volume (not the device volume).
    public var volume: Volume?
    public var activeTrackIds: [Int]?
    /// Sent only when it changed: keep the last one (see `merging(previous:)`).
    public var media: MediaInformation?
    /// Present only while an ad break plays.
    public var breakStatus: BreakStatus?
    public var currentItemId: Int?
    public var loadingItemId: Int?
    public var preloadedItemId: Int?
    public var items: [QueueItem]?
    public var repeatMode: RepeatMode?
    public var queueData: QueueData?
    public var liveSeekableRange: LiveSeekableRange?
    public var videoInfo: VideoInfo?
    public var extendedStatus: ExtendedMediaStatus?
    public var customData: JSONValue?

    public init(mediaSessionId: Int, playerState: PlayerState) {
        self.mediaSessionId = mediaSessionId
        self.playerState = playerState
    }

    /// Whether the receiver allows a command now.
    public func supports(_ command: MediaCommands) -> Bool {
        (supportedMediaCommands ?? []).contains(command)
    }

    /// This status with `media` filled in from an earlier status of the same session when
    /// the receiver left it out (it sends `media` only when it changed).
    public func merging(previous: MediaStatus?) -> MediaStatus {
        guard media == nil, let previous, previous.mediaSessionId == mediaSessionId else { return self }
        var merged = self
        merged.media = previous.media
        return merged
    }

    /// The media being played or, while the next one loads, the one loading.
    public var effectiveMedia: MediaInformation? { media ?? extendedStatus?.media }
}
