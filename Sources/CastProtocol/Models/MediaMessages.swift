// Requests and replies on urn:x-cast:com.google.cast.media.

/// LOAD: play new media. Any `mediaSessionId` a sender adds (pychromecast does) is ignored by receivers.
public struct LoadRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var sessionId: String?
    public var mediaSessionId: Int?
    public var media: MediaInformation
    public var autoplay: Bool?
    /// Start position in seconds.
    public var currentTime: Double?
    /// Absent = the receiver's default tracks.
    public var activeTrackIds: [Int]?
    public var playbackRate: Double?
    public var queueData: QueueData?
    public var credentials: String?
    public var credentialsType: String?
    public var customData: JSONValue?

    public init(
        requestId: Int, media: MediaInformation, autoplay: Bool? = true, currentTime: Double? = nil,
        activeTrackIds: [Int]? = nil, playbackRate: Double? = nil, queueData: QueueData? = nil, customData: JSONValue? = nil,
        sessionId: String? = nil
    ) {
        self.requestId = requestId
        self.media = media
        self.autoplay = autoplay
        self.currentTime = currentTime
        self.activeTrackIds = activeTrackIds
        self.playbackRate = playbackRate
        self.queueData = queueData
        self.customData = customData
        self.sessionId = sessionId
    }
}

/// A request that names only the media session: PLAY, PAUSE, STOP, SKIP_AD, QUEUE_NEXT,
/// QUEUE_PREV, and media GET_STATUS (where the session is optional and `options` may be set).
public struct MediaSessionRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var sessionId: String?
    /// GET_STATUS only: 1 = no metadata, 2 = no queue items.
    public var options: Int?
    public var customData: JSONValue?

    public init(requestId: Int, mediaSessionId: Int?, customData: JSONValue? = nil, options: Int? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.customData = customData
        self.options = options
    }
}

/// SEEK to `currentTime`, or by `relativeTime` (which wins when both are present).
public struct SeekRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var currentTime: Double?
    public var relativeTime: Double?
    public var resumeState: ResumeState?
    public var customData: JSONValue?

    public init(requestId: Int, mediaSessionId: Int?, currentTime: Double? = nil, relativeTime: Double? = nil, resumeState: ResumeState? = nil, customData: JSONValue? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.currentTime = currentTime
        self.relativeTime = relativeTime
        self.resumeState = resumeState
        self.customData = customData
    }
}

/// SET_PLAYBACK_RATE to `playbackRate`, or multiply by `relativePlaybackRate`.
public struct SetPlaybackRateRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var playbackRate: Double?
    public var relativePlaybackRate: Double?
    public var customData: JSONValue?

    public init(requestId: Int, mediaSessionId: Int?, playbackRate: Double? = nil, relativePlaybackRate: Double? = nil, customData: JSONValue? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.playbackRate = playbackRate
        self.relativePlaybackRate = relativePlaybackRate
        self.customData = customData
    }
}

/// EDIT_TRACKS_INFO: active tracks (`[]` = all off, absent = unchanged), text style, language.
public struct EditTracksInfoRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var activeTrackIds: [Int]?
    public var textTrackStyle: TextTrackStyle?
    public var language: String?
    public var isSuggestedLanguage: Bool?
    public var enableTextTracks: Bool?
    public var customData: JSONValue?

    public init(requestId: Int, mediaSessionId: Int?, activeTrackIds: [Int]? = nil, textTrackStyle: TextTrackStyle? = nil, language: String? = nil, isSuggestedLanguage: Bool? = nil, enableTextTracks: Bool? = nil, customData: JSONValue? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.activeTrackIds = activeTrackIds
        self.textTrackStyle = textTrackStyle
        self.language = language
        self.isSuggestedLanguage = isSuggestedLanguage
        self.enableTextTracks = enableTextTracks
        self.customData = customData
    }
}

/// EDIT_AUDIO_TRACKS: choose the audio track by language.
public struct EditAudioTracksRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var language: String?
    public var isSuggestedLanguage: Bool?
    public var customData: JSONValue?
    public init(requestId: Int, mediaSessionId: Int?, language: String? = nil, isSuggestedLanguage: Bool? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.language = language
        self.isSuggestedLanguage = isSuggestedLanguage
    }
}

/// QUEUE_LOAD: replace whatever plays with a queue.
public struct QueueLoadRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var sessionId: String?
    public var items: [QueueItem]
    public var startIndex: Int?
    public var repeatMode: RepeatMode?
    public var currentTime: Double?
    public var customData: JSONValue?
    public init(requestId: Int, items: [QueueItem], startIndex: Int? = 0, repeatMode: RepeatMode? = .off, currentTime: Double? = nil, customData: JSONValue? = nil) {
        self.requestId = requestId
        self.items = items
        self.startIndex = startIndex
        self.repeatMode = repeatMode
        self.currentTime = currentTime
        self.customData = customData
    }
}

/// QUEUE_INSERT: add items before `insertBefore` (absent = append).
public struct QueueInsertRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var items: [QueueItem]
    public var insertBefore: Int?
    public var currentItemId: Int?
    public var currentItemIndex: Int?
    public var currentTime: Double?
    public var customData: JSONValue?
    public init(requestId: Int, mediaSessionId: Int?, items: [QueueItem], insertBefore: Int? = nil, currentItemId: Int? = nil, currentItemIndex: Int? = nil, currentTime: Double? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.items = items
        self.insertBefore = insertBefore
        self.currentItemId = currentItemId
        self.currentItemIndex = currentItemIndex
        self.currentTime = currentTime
    }
}

/// QUEUE_UPDATE: jump, change the current item, replace items, change repeat or shuffle.
public struct QueueUpdateRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var jump: Int?
    public var currentItemId: Int?
    public var currentTime: Double?
    public var items: [QueueItem]?
    public var repeatMode: RepeatMode?
    public var shuffle: Bool?
    public var customData: JSONValue?
    public init(requestId: Int, mediaSessionId: Int?, jump: Int? = nil, currentItemId: Int? = nil, currentTime: Double? = nil, items: [QueueItem]? = nil, repeatMode: RepeatMode? = nil, shuffle: Bool? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.jump = jump
        self.currentItemId = currentItemId
        self.currentTime = currentTime
        self.items = items
        self.repeatMode = repeatMode
        self.shuffle = shuffle
    }
}

/// QUEUE_REMOVE and QUEUE_REORDER.
public struct QueueItemsRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var itemIds: [Int]
    /// QUEUE_REORDER only.
    public var insertBefore: Int?
    public var currentItemId: Int?
    public var currentTime: Double?
    public var customData: JSONValue?
    public init(requestId: Int, mediaSessionId: Int?, itemIds: [Int], insertBefore: Int? = nil, currentItemId: Int? = nil, currentTime: Double? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.itemIds = itemIds
        self.insertBefore = insertBefore
        self.currentItemId = currentItemId
        self.currentTime = currentTime
    }
}

/// MEDIA_STATUS. `status` is empty when there is no media session; `requestId` 0 (or
/// absent) marks a broadcast.
public struct MediaStatusMessage: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var status: [MediaStatus]
    public var customData: JSONValue?
    public init(requestId: Int?, status: [MediaStatus], customData: JSONValue? = nil) {
        self.requestId = requestId
        self.status = status
        self.customData = customData
    }
}

public enum MediaMessage: Hashable, Sendable {
    // requests
    case load(LoadRequest)
    case play(MediaSessionRequest)
    case pause(MediaSessionRequest)
    case stop(MediaSessionRequest)
    case seek(SeekRequest)
    case setPlaybackRate(SetPlaybackRateRequest)
    case setVolume(SetVolumeRequest)
    case editTracksInfo(EditTracksInfoRequest)
    case editAudioTracks(EditAudioTracksRequest)
    case skipAd(MediaSessionRequest)
    case getStatus(MediaSessionRequest)
    case queueLoad(QueueLoadRequest)
    case queueInsert(QueueInsertRequest)
    case queueUpdate(QueueUpdateRequest)
    case queueRemove(QueueItemsRequest)
    case queueReorder(QueueItemsRequest)
    case queueNext(MediaSessionRequest)
    case queuePrev(MediaSessionRequest)
    // replies
    case mediaStatus(MediaStatusMessage)
    case invalidPlayerState(ErrorReply)
    case loadFailed(ErrorReply)
    case loadCancelled(ErrorReply)
    case invalidRequest(ErrorReply)
    case error(ErrorReply)
    case unknown(type: String, payload: JSONValue)

    /// The request id the message carries (nil for unknown messages without one).
    public var requestId: Int? {
        switch self {
        case .load(let r): r.requestId
        case .play(let r), .pause(let r), .stop(let r), .skipAd(let r), .getStatus(let r), .queueNext(let r), .queuePrev(let r): r.requestId
        case .seek(let r): r.requestId
        case .setPlaybackRate(let r): r.requestId
        case .setVolume(let r): r.requestId
        case .editTracksInfo(let r): r.requestId
        case .editAudioTracks(let r): r.requestId
        case .queueLoad(let r): r.requestId
        case .queueInsert(let r): r.requestId
        case .queueUpdate(let r): r.requestId
        case .queueRemove(let r), .queueReorder(let r): r.requestId
        case .mediaStatus(let m): m.requestId
        case .invalidPlayerState(let e), .loadFailed(let e), .loadCancelled(let e), .invalidRequest(let e), .error(let e): e.requestId
        case .unknown(_, let payload): payload["requestId"]?.intValue
        }
    }
}

/// A message on an app-defined channel: text (JSON by convention) or bytes.
public typealias CustomChannelPayload = CastPayload
