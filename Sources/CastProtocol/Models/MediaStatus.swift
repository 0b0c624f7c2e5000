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
    // wire: read write codable; box MediaInformation
    /// The members, as they are on the wire (the Codable form is theirs).
    struct Fields: Hashable, Sendable {
        /// Required by the protocol, but some live-radio apps leave it out: read as "".
        var contentId: String  // wire: default ""
        var contentUrl: String?
        /// Required by the protocol, but some senders send null.
        var streamType: StreamType?
        var contentType: String?
        var metadata: MediaMetadata?
        /// Seconds; absent for live streams.
        var duration: Double?
        var tracks: [MediaTrack]?
        var textTrackStyle: TextTrackStyle?
        var breaks: [AdBreak]?
        var breakClips: [AdBreakClip]?
        var vmapAdsRequest: AdsRequest?
        var hlsSegmentFormat: String?
        var entity: String?
        /// The user actions in effect for this media (a LIKE the person gave it).
        var userActionStates: [UserActionState]?
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
        self.init(
            fields: Fields(
                contentId: contentId, contentUrl: contentUrl, streamType: streamType, contentType: contentType,
                metadata: metadata, duration: duration, tracks: tracks, textTrackStyle: textTrackStyle,
                breaks: breaks, breakClips: breakClips, customData: customData))
    }

    public static func == (a: MediaInformation, b: MediaInformation) -> Bool {
        a.box.isShared(with: b.box) || a.box.fields == b.box.fields
    }

    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }
}

// wire: read write
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

// wire: read write
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

    public init(
        id: String? = nil, name: String? = nil, repeatMode: RepeatMode? = nil, items: [QueueItem]? = nil, startIndex: Int? = nil, startTime: Double? = nil
    ) {
        self.id = id
        self.name = name
        self.repeatMode = repeatMode
        self.items = items
        self.startIndex = startIndex
        self.startTime = startTime
    }
}

// wire: read write
/// The seekable window of a live or event stream.
public struct LiveSeekableRange: Codable, Hashable, Sendable {
    public var start: Double?
    public var end: Double?
    public var isMovingWindow: Bool?
    public var isLiveDone: Bool?

    public init(start: Double? = nil, end: Double? = nil, isMovingWindow: Bool? = nil, isLiveDone: Bool? = nil) {
        self.start = start
        self.end = end
        self.isMovingWindow = isMovingWindow
        self.isLiveDone = isLiveDone
    }
}

// wire: read write
public struct VideoInfo: Codable, Hashable, Sendable {
    public var width: Int?
    public var height: Int?
    /// `sdr`, `hdr` or `dv`.
    public var hdrType: String?
}

// wire: read write
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
    // wire: read write; box MediaStatus
    /// The members, as they are on the wire (the Codable form is theirs).
    struct Fields: Codable, Hashable, Sendable {
        var mediaSessionId: Int
        var playerState: PlayerState
        /// Only while IDLE, when the reason is known.
        var idleReason: IdleReason?
        /// Seconds.
        var currentTime: Double?
        var playbackRate: Double?
        var supportedMediaCommands: MediaCommands?
        /// The stream volume (not the device volume).
        var volume: Volume?
        var activeTrackIds: [Int]?
        /// Sent only when it changed: keep the last one (see `merging(previous:)`).
        var media: MediaInformation?
        /// Present only while an ad break plays.
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
