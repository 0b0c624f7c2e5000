// The media namespace's data types: what a LOAD carries and a MEDIA_STATUS reports.
// Swift names follow the wire JSON; every field a receiver may omit is optional.

/// What is cast: the content, its metadata, tracks, text style and ad breaks.
///
/// A value type like the others, but its fields live behind one reference and are copied only
/// when a shared value is changed (copy on write). Stored inline they made it ~870 bytes, and
/// every MediaStatus (which holds it twice, once under `extendedStatus`) and QueueItem copied
/// them whenever a status was decoded, stored or handed on: a tenth of decoding a status was
/// memmove. Reading and changing members works as with any struct.
public struct MediaInformation: Hashable, Sendable {
    /// The members, as they are on the wire (the Codable form is theirs).
    struct Fields: Codable, Hashable, Sendable {
        var contentId: String
        var contentUrl: String?
        var streamType: StreamType?
        var contentType: String?
        var metadata: MediaMetadata?
        var duration: Double?
        var tracks: [MediaTrack]?
        var textTrackStyle: TextTrackStyle?
        var breaks: [AdBreak]?
        var breakClips: [AdBreakClip]?
        var vmapAdsRequest: AdsRequest?
        var hlsSegmentFormat: String?
        var entity: String?
        var customData: JSONValue?
    }

    /// Shared between copies until one of them changes (see `fields`); never mutated while shared.
    final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    init(fields: Fields) { storage = Storage(fields) }

    /// The members, for reading; changing them through `fields` first makes the storage this
    /// value's own.
    var fields: Fields {
        get { storage.fields }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            yield &storage.fields
        }
    }

    public init(
        contentId: String, contentUrl: String? = nil, streamType: StreamType? = .buffered, contentType: String? = nil,
        metadata: MediaMetadata? = nil, duration: Double? = nil, tracks: [MediaTrack]? = nil,
        textTrackStyle: TextTrackStyle? = nil, breaks: [AdBreak]? = nil, breakClips: [AdBreakClip]? = nil,
        customData: JSONValue? = nil
    ) {
        self.init(fields: Fields(
            contentId: contentId, contentUrl: contentUrl, streamType: streamType, contentType: contentType,
            metadata: metadata, duration: duration, tracks: tracks, textTrackStyle: textTrackStyle,
            breaks: breaks, breakClips: breakClips, customData: customData))
    }

    public var contentId: String {
        get { storage.fields.contentId }
        _modify { yield &fields.contentId }
    }
    public var contentUrl: String? {
        get { storage.fields.contentUrl }
        _modify { yield &fields.contentUrl }
    }
    /// Required by the protocol, but some senders send null.
    public var streamType: StreamType? {
        get { storage.fields.streamType }
        _modify { yield &fields.streamType }
    }
    public var contentType: String? {
        get { storage.fields.contentType }
        _modify { yield &fields.contentType }
    }
    public var metadata: MediaMetadata? {
        get { storage.fields.metadata }
        _modify { yield &fields.metadata }
    }
    /// Seconds; absent for live streams.
    public var duration: Double? {
        get { storage.fields.duration }
        _modify { yield &fields.duration }
    }
    public var tracks: [MediaTrack]? {
        get { storage.fields.tracks }
        _modify { yield &fields.tracks }
    }
    public var textTrackStyle: TextTrackStyle? {
        get { storage.fields.textTrackStyle }
        _modify { yield &fields.textTrackStyle }
    }
    public var breaks: [AdBreak]? {
        get { storage.fields.breaks }
        _modify { yield &fields.breaks }
    }
    public var breakClips: [AdBreakClip]? {
        get { storage.fields.breakClips }
        _modify { yield &fields.breakClips }
    }
    public var vmapAdsRequest: AdsRequest? {
        get { storage.fields.vmapAdsRequest }
        _modify { yield &fields.vmapAdsRequest }
    }
    public var hlsSegmentFormat: String? {
        get { storage.fields.hlsSegmentFormat }
        _modify { yield &fields.hlsSegmentFormat }
    }
    public var entity: String? {
        get { storage.fields.entity }
        _modify { yield &fields.entity }
    }
    public var customData: JSONValue? {
        get { storage.fields.customData }
        _modify { yield &fields.customData }
    }

    public static func == (a: MediaInformation, b: MediaInformation) -> Bool {
        a.storage === b.storage || a.storage.fields == b.storage.fields
    }

    public func hash(into hasher: inout Hasher) { storage.fields.hash(into: &hasher) }
}

extension MediaInformation: Codable {
    public init(from decoder: any Decoder) throws { self.init(fields: try Fields(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try storage.fields.encode(to: encoder) }
}

/// Debuggers, `dump` and reflection see the members, as for any other model.
extension MediaInformation: CustomReflectable {
    public var customMirror: Mirror { Mirror(reflecting: storage.fields) }
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
