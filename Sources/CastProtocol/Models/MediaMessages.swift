// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Requests and replies on urn:x-cast:com.google.cast.media.

// wire: message
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

// wire: message
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

// wire: message
/// SEEK to `currentTime`, or by `relativeTime` (which wins when both are present).
public struct SeekRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var currentTime: Double?
    public var relativeTime: Double?
    public var resumeState: ResumeState?
    public var customData: JSONValue?

    public init(
        requestId: Int, mediaSessionId: Int?, currentTime: Double? = nil, relativeTime: Double? = nil, resumeState: ResumeState? = nil,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.currentTime = currentTime
        self.relativeTime = relativeTime
        self.resumeState = resumeState
        self.customData = customData
    }
}

// wire: message
/// USER_ACTION: a person likes, dislikes, follows … the playing media; `clear` undoes it.
public struct UserActionRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var userAction: UserAction
    /// Where the action applies (ALBUM, ARTIST, TRACK …); absent = the media itself.
    public var userActionContext: String?
    public var clear: Bool?
    public var customData: JSONValue?

    public init(requestId: Int, mediaSessionId: Int?, userAction: UserAction, clear: Bool? = nil, userActionContext: String? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.userAction = userAction
        self.clear = clear
        self.userActionContext = userActionContext
    }
}

// wire: message
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

    public init(
        requestId: Int, mediaSessionId: Int?, activeTrackIds: [Int]? = nil, textTrackStyle: TextTrackStyle? = nil, language: String? = nil,
        isSuggestedLanguage: Bool? = nil, enableTextTracks: Bool? = nil, customData: JSONValue? = nil
    ) {
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

// wire: message
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

/// One message of the media namespace.
///
/// The cases with large payloads (LOAD and EDIT_TRACKS_INFO are ~280 bytes, the queue
/// requests ~100–120) are `indirect`: their payload lives in a box, so a MediaMessage, and the
/// `NamespacedMessage` around it, is ~90 bytes instead of 290. Every received message is
/// moved several times on its way to the code that reads it (out of the decoder, into the
/// enum, through `switch`), and moving 290 bytes each time for a MEDIA_STATUS whose own
/// payload is 41 bytes was a twentieth of decoding one (perf).
public enum MediaMessage: Hashable, Sendable {
    // requests
    indirect case load(LoadRequest)
    case play(MediaSessionRequest)
    case pause(MediaSessionRequest)
    case stop(MediaSessionRequest)
    case seek(SeekRequest)
    case setPlaybackRate(SetPlaybackRateRequest)
    case userAction(UserActionRequest)
    case setVolume(SetVolumeRequest)
    indirect case editTracksInfo(EditTracksInfoRequest)
    case editAudioTracks(EditAudioTracksRequest)
    case skipAd(MediaSessionRequest)
    case getStatus(MediaSessionRequest)
    indirect case queueLoad(QueueLoadRequest)
    indirect case queueInsert(QueueInsertRequest)
    indirect case queueUpdate(QueueUpdateRequest)
    indirect case queueRemove(QueueItemsRequest)
    indirect case queueReorder(QueueItemsRequest)
    case queueNext(MediaSessionRequest)
    case queuePrev(MediaSessionRequest)
    case queueShuffle(MediaSessionRequest)
    case queueGetItemIDs(MediaSessionRequest)
    case queueGetItems(QueueGetItemsRequest)
    // replies and notifications
    case queueItemIDs(QueueItemIDsMessage)
    case queueItems(QueueItemsMessage)
    case queueChange(QueueChangeMessage)
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
        case .play(let r), .pause(let r), .stop(let r), .skipAd(let r), .getStatus(let r), .queueNext(let r), .queuePrev(let r),
            .queueShuffle(let r), .queueGetItemIDs(let r):
            r.requestId
        case .queueGetItems(let r): r.requestId
        case .queueItemIDs(let m): m.requestId
        case .queueItems(let m): m.requestId
        case .queueChange(let m): m.requestId
        case .seek(let r): r.requestId
        case .setPlaybackRate(let r): r.requestId
        case .userAction(let r): r.requestId
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

// Wire coding: each `type` string beside its case.

// MARK: - media

extension MediaMessage: CastJSONMessage {
    public static let namespace = CastNamespace.media

    public init(from decoder: any Decoder) throws {
        switch try readType(decoder) {
        case "LOAD": self = .load(try LoadRequest(from: decoder))
        case "PLAY": self = .play(try MediaSessionRequest(from: decoder))
        case "PAUSE": self = .pause(try MediaSessionRequest(from: decoder))
        case "STOP": self = .stop(try MediaSessionRequest(from: decoder))
        case "SEEK": self = .seek(try SeekRequest(from: decoder))
        case "SET_PLAYBACK_RATE": self = .setPlaybackRate(try SetPlaybackRateRequest(from: decoder))
        case "USER_ACTION": self = .userAction(try UserActionRequest(from: decoder))
        case "SET_VOLUME": self = .setVolume(try SetVolumeRequest(from: decoder))
        case "EDIT_TRACKS_INFO": self = .editTracksInfo(try EditTracksInfoRequest(from: decoder))
        case "EDIT_AUDIO_TRACKS": self = .editAudioTracks(try EditAudioTracksRequest(from: decoder))
        case "SKIP_AD": self = .skipAd(try MediaSessionRequest(from: decoder))
        case "GET_STATUS": self = .getStatus(try MediaSessionRequest(from: decoder))
        case "QUEUE_LOAD": self = .queueLoad(try QueueLoadRequest(from: decoder))
        case "QUEUE_INSERT": self = .queueInsert(try QueueInsertRequest(from: decoder))
        case "QUEUE_UPDATE": self = .queueUpdate(try QueueUpdateRequest(from: decoder))
        case "QUEUE_REMOVE": self = .queueRemove(try QueueItemsRequest(from: decoder))
        case "QUEUE_REORDER": self = .queueReorder(try QueueItemsRequest(from: decoder))
        case "QUEUE_NEXT": self = .queueNext(try MediaSessionRequest(from: decoder))
        case "QUEUE_PREV": self = .queuePrev(try MediaSessionRequest(from: decoder))
        case "QUEUE_SHUFFLE": self = .queueShuffle(try MediaSessionRequest(from: decoder))
        case "QUEUE_GET_ITEM_IDS": self = .queueGetItemIDs(try MediaSessionRequest(from: decoder))
        case "QUEUE_GET_ITEMS": self = .queueGetItems(try QueueGetItemsRequest(from: decoder))
        case "QUEUE_ITEM_IDS": self = .queueItemIDs(try QueueItemIDsMessage(from: decoder))
        case "QUEUE_ITEMS": self = .queueItems(try QueueItemsMessage(from: decoder))
        case "QUEUE_CHANGE": self = .queueChange(try QueueChangeMessage(from: decoder))
        case "MEDIA_STATUS": self = .mediaStatus(try MediaStatusMessage(from: decoder))
        case "INVALID_PLAYER_STATE": self = .invalidPlayerState(try ErrorReply(from: decoder))
        case "LOAD_FAILED": self = .loadFailed(try ErrorReply(from: decoder))
        case "LOAD_CANCELLED": self = .loadCancelled(try ErrorReply(from: decoder))
        case "INVALID_REQUEST": self = .invalidRequest(try ErrorReply(from: decoder))
        case "ERROR": self = .error(try ErrorReply(from: decoder))
        case let other: self = .unknown(type: other, payload: try JSONValue(from: decoder))
        }
    }

    /// The wire `type` of this message.
    public var type: String {
        switch self {
        case .load: "LOAD"
        case .play: "PLAY"
        case .pause: "PAUSE"
        case .stop: "STOP"
        case .seek: "SEEK"
        case .setPlaybackRate: "SET_PLAYBACK_RATE"
        case .userAction: "USER_ACTION"
        case .setVolume: "SET_VOLUME"
        case .editTracksInfo: "EDIT_TRACKS_INFO"
        case .editAudioTracks: "EDIT_AUDIO_TRACKS"
        case .skipAd: "SKIP_AD"
        case .getStatus: "GET_STATUS"
        case .queueLoad: "QUEUE_LOAD"
        case .queueInsert: "QUEUE_INSERT"
        case .queueUpdate: "QUEUE_UPDATE"
        case .queueRemove: "QUEUE_REMOVE"
        case .queueReorder: "QUEUE_REORDER"
        case .queueNext: "QUEUE_NEXT"
        case .queuePrev: "QUEUE_PREV"
        case .queueShuffle: "QUEUE_SHUFFLE"
        case .queueGetItemIDs: "QUEUE_GET_ITEM_IDS"
        case .queueGetItems: "QUEUE_GET_ITEMS"
        case .queueItemIDs: "QUEUE_ITEM_IDS"
        case .queueItems: "QUEUE_ITEMS"
        case .queueChange: "QUEUE_CHANGE"
        case .mediaStatus: "MEDIA_STATUS"
        case .invalidPlayerState: "INVALID_PLAYER_STATE"
        case .loadFailed: "LOAD_FAILED"
        case .loadCancelled: "LOAD_CANCELLED"
        case .invalidRequest: "INVALID_REQUEST"
        case .error: "ERROR"
        case .unknown(let type, _): type
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .load(let m): try write(type, m, to: encoder)
        case .play(let m), .pause(let m), .stop(let m), .skipAd(let m), .getStatus(let m), .queueNext(let m), .queuePrev(let m),
            .queueShuffle(let m), .queueGetItemIDs(let m):
            try write(type, m, to: encoder)
        case .queueGetItems(let m): try write(type, m, to: encoder)
        case .queueItemIDs(let m): try write(type, m, to: encoder)
        case .queueItems(let m): try write(type, m, to: encoder)
        case .queueChange(let m): try write(type, m, to: encoder)
        case .seek(let m): try write(type, m, to: encoder)
        case .setPlaybackRate(let m): try write(type, m, to: encoder)
        case .userAction(let m): try write(type, m, to: encoder)
        case .setVolume(let m): try write(type, m, to: encoder)
        case .editTracksInfo(let m): try write(type, m, to: encoder)
        case .editAudioTracks(let m): try write(type, m, to: encoder)
        case .queueLoad(let m): try write(type, m, to: encoder)
        case .queueInsert(let m): try write(type, m, to: encoder)
        case .queueUpdate(let m): try write(type, m, to: encoder)
        case .queueRemove(let m), .queueReorder(let m): try write(type, m, to: encoder)
        case .mediaStatus(let m): try write(type, m, to: encoder)
        case .invalidPlayerState(let m), .loadFailed(let m), .loadCancelled(let m), .invalidRequest(let m), .error(let m):
            try write(type, m, to: encoder)
        case .unknown(let type, let payload): try write(type, payload, to: encoder)
        }
    }
}
