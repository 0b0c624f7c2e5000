// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The media namespace's data types: what a LOAD carries and a MEDIA_STATUS reports.
// Swift names follow the wire JSON; every field a receiver may omit is optional.

/// What is cast: the content, its metadata, tracks, text style and ad breaks.
///
/// A value type like the others, but its fields live behind one reference and are copied only
/// when a shared value is changed (copy on write). Stored inline they made it ~870 bytes, and
/// every MediaStatus (which holds it twice, once under `extendedStatus`) and QueueItem copied
/// them whenever a status was decoded, stored or handed on: a tenth of decoding a status was
/// memmove. Reading and changing members works as with any struct.
public struct MediaInformation: Hashable, Sendable, CopyOnWriteModel {
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

    var box: CopyOnWrite<Fields>

    init(box: CopyOnWrite<Fields>) { self.box = box }

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
        get { box.storage.fields.contentId }
        _modify { yield &fields.contentId }
    }
    public var contentUrl: String? {
        get { box.storage.fields.contentUrl }
        _modify { yield &fields.contentUrl }
    }
    /// Required by the protocol, but some senders send null.
    public var streamType: StreamType? {
        get { box.storage.fields.streamType }
        _modify { yield &fields.streamType }
    }
    public var contentType: String? {
        get { box.storage.fields.contentType }
        _modify { yield &fields.contentType }
    }
    public var metadata: MediaMetadata? {
        get { box.storage.fields.metadata }
        _modify { yield &fields.metadata }
    }
    /// Seconds; absent for live streams.
    public var duration: Double? {
        get { box.storage.fields.duration }
        _modify { yield &fields.duration }
    }
    public var tracks: [MediaTrack]? {
        get { box.storage.fields.tracks }
        _modify { yield &fields.tracks }
    }
    public var textTrackStyle: TextTrackStyle? {
        get { box.storage.fields.textTrackStyle }
        _modify { yield &fields.textTrackStyle }
    }
    public var breaks: [AdBreak]? {
        get { box.storage.fields.breaks }
        _modify { yield &fields.breaks }
    }
    public var breakClips: [AdBreakClip]? {
        get { box.storage.fields.breakClips }
        _modify { yield &fields.breakClips }
    }
    public var vmapAdsRequest: AdsRequest? {
        get { box.storage.fields.vmapAdsRequest }
        _modify { yield &fields.vmapAdsRequest }
    }
    public var hlsSegmentFormat: String? {
        get { box.storage.fields.hlsSegmentFormat }
        _modify { yield &fields.hlsSegmentFormat }
    }
    public var entity: String? {
        get { box.storage.fields.entity }
        _modify { yield &fields.entity }
    }
    public var customData: JSONValue? {
        get { box.storage.fields.customData }
        _modify { yield &fields.customData }
    }

    public static func == (a: MediaInformation, b: MediaInformation) -> Bool {
        a.box.isShared(with: b.box) || a.box.fields == b.box.fields
    }

    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }
}

extension MediaInformation: Codable {
    public init(from decoder: any Decoder) throws { self.init(fields: try Fields(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try box.fields.encode(to: encoder) }
}

/// Debuggers, `dump` and reflection see the members, as for any other model.
extension MediaInformation: CustomReflectable {
    public var customMirror: Mirror { Mirror(reflecting: box.fields) }
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
///
/// A value type like the others, but, as `MediaInformation`, its members live behind one
/// reference and are copied only when a shared value is changed (copy on write). Stored inline
/// a status is ~590 bytes, and every status is moved and copied many times between the socket
/// and the window: into its array, its message, the session's snapshot and every observer.
/// Reading and changing members works as with any struct.
public struct MediaStatus: Hashable, Sendable, CopyOnWriteModel {
    /// The members, as they are on the wire (the Codable form is theirs).
    struct Fields: Codable, Hashable, Sendable {
        var mediaSessionId: Int
        var playerState: PlayerState
        var idleReason: IdleReason?
        var currentTime: Double?
        var playbackRate: Double?
        var supportedMediaCommands: MediaCommands?
        var volume: Volume?
        var activeTrackIds: [Int]?
        var media: MediaInformation?
        var breakStatus: BreakStatus?
        var currentItemId: Int?
        var loadingItemId: Int?
        var preloadedItemId: Int?
        var items: [QueueItem]?
        var repeatMode: RepeatMode?
        var queueData: QueueData?
        var liveSeekableRange: LiveSeekableRange?
        var videoInfo: VideoInfo?
        var extendedStatus: ExtendedMediaStatus?
        var customData: JSONValue?
    }

    var box: CopyOnWrite<Fields>

    init(box: CopyOnWrite<Fields>) { self.box = box }

    public var mediaSessionId: Int {
        get { box.storage.fields.mediaSessionId }
        _modify { yield &fields.mediaSessionId }
    }
    public var playerState: PlayerState {
        get { box.storage.fields.playerState }
        _modify { yield &fields.playerState }
    }
    /// Only while IDLE, when the reason is known.
    public var idleReason: IdleReason? {
        get { box.storage.fields.idleReason }
        _modify { yield &fields.idleReason }
    }
    /// Seconds.
    public var currentTime: Double? {
        get { box.storage.fields.currentTime }
        _modify { yield &fields.currentTime }
    }
    public var playbackRate: Double? {
        get { box.storage.fields.playbackRate }
        _modify { yield &fields.playbackRate }
    }
    public var supportedMediaCommands: MediaCommands? {
        get { box.storage.fields.supportedMediaCommands }
        _modify { yield &fields.supportedMediaCommands }
    }
    /// The stream volume (not the device volume).
    public var volume: Volume? {
        get { box.storage.fields.volume }
        _modify { yield &fields.volume }
    }
    public var activeTrackIds: [Int]? {
        get { box.storage.fields.activeTrackIds }
        _modify { yield &fields.activeTrackIds }
    }
    /// Sent only when it changed: keep the last one (see `merging(previous:)`).
    public var media: MediaInformation? {
        get { box.storage.fields.media }
        _modify { yield &fields.media }
    }
    /// Present only while an ad break plays.
    public var breakStatus: BreakStatus? {
        get { box.storage.fields.breakStatus }
        _modify { yield &fields.breakStatus }
    }
    public var currentItemId: Int? {
        get { box.storage.fields.currentItemId }
        _modify { yield &fields.currentItemId }
    }
    public var loadingItemId: Int? {
        get { box.storage.fields.loadingItemId }
        _modify { yield &fields.loadingItemId }
    }
    public var preloadedItemId: Int? {
        get { box.storage.fields.preloadedItemId }
        _modify { yield &fields.preloadedItemId }
    }
    public var items: [QueueItem]? {
        get { box.storage.fields.items }
        _modify { yield &fields.items }
    }
    public var repeatMode: RepeatMode? {
        get { box.storage.fields.repeatMode }
        _modify { yield &fields.repeatMode }
    }
    public var queueData: QueueData? {
        get { box.storage.fields.queueData }
        _modify { yield &fields.queueData }
    }
    public var liveSeekableRange: LiveSeekableRange? {
        get { box.storage.fields.liveSeekableRange }
        _modify { yield &fields.liveSeekableRange }
    }
    public var videoInfo: VideoInfo? {
        get { box.storage.fields.videoInfo }
        _modify { yield &fields.videoInfo }
    }
    public var extendedStatus: ExtendedMediaStatus? {
        get { box.storage.fields.extendedStatus }
        _modify { yield &fields.extendedStatus }
    }
    public var customData: JSONValue? {
        get { box.storage.fields.customData }
        _modify { yield &fields.customData }
    }

    public init(mediaSessionId: Int, playerState: PlayerState) {
        self.init(fields: Fields(mediaSessionId: mediaSessionId, playerState: playerState))
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

    public static func == (a: MediaStatus, b: MediaStatus) -> Bool {
        a.box.isShared(with: b.box) || a.box.fields == b.box.fields
    }

    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }
}

extension MediaStatus: Codable {
    public init(from decoder: any Decoder) throws { self.init(fields: try Fields(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try box.fields.encode(to: encoder) }
}

/// Debuggers, `dump` and reflection see the members, as for any other model.
extension MediaStatus: CustomReflectable {
    public var customMirror: Mirror { Mirror(reflecting: box.fields) }
}
