// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Open enumerations of the media namespace. Values this library does not know decode
// to `.unknown(raw)` and are written back unchanged.

/// `MediaInformation.streamType`.
public enum StreamType: OpenStringEnum {
    case buffered, live, none, unknown(String)
    public static let wireNames: [(StreamType, String)] = [(.buffered, "BUFFERED"), (.live, "LIVE"), (.none, "NONE")]
}

/// `MediaStatus.playerState`. `loading` is not on CAF's wire but iOS/Android model it.
public enum PlayerState: OpenStringEnum {
    case idle, playing, paused, buffering, loading, unknown(String)
    public static let wireNames: [(PlayerState, String)] = [
        (.idle, "IDLE"), (.playing, "PLAYING"), (.paused, "PAUSED"), (.buffering, "BUFFERING"), (.loading, "LOADING"),
    ]
}

/// Why the player is IDLE.
public enum IdleReason: OpenStringEnum {
    case finished, cancelled, interrupted, error, unknown(String)
    public static let wireNames: [(IdleReason, String)] = [
        (.finished, "FINISHED"), (.cancelled, "CANCELLED"), (.interrupted, "INTERRUPTED"), (.error, "ERROR"),
    ]
}

/// A rating or follow action a person takes on the playing media (USER_ACTION, and
/// `MediaInformation.userActionStates`). Receivers advertise the ones they take with the
/// LIKE / DISLIKE / FOLLOW / UNFOLLOW bits of `supportedMediaCommands`.
public enum UserAction: OpenStringEnum {
    case like, dislike, follow, unfollow, flag, skipAd, lyrics, unknown(String)
    public static let wireNames: [(UserAction, String)] = [
        (.like, "LIKE"), (.dislike, "DISLIKE"), (.follow, "FOLLOW"), (.unfollow, "UNFOLLOW"), (.flag, "FLAG"),
        (.skipAd, "SKIP_AD"), (.lyrics, "LYRICS"),
    ]

    /// The `supportedMediaCommands` bit a receiver announces when it takes this action (none
    /// for the actions without one).
    public var supportedMediaCommand: MediaCommands {
        switch self {
        case .like: .like
        case .dislike: .dislike
        case .follow: .follow
        case .unfollow: .unfollow
        default: []
        }
    }
}

/// What SEEK does to the play/pause state.
public enum ResumeState: OpenStringEnum {
    case playbackStart, playbackPause, unknown(String)
    public static let wireNames: [(ResumeState, String)] = [(.playbackStart, "PLAYBACK_START"), (.playbackPause, "PLAYBACK_PAUSE")]
}

public enum RepeatMode: OpenStringEnum {
    case off, all, single, allAndShuffle, unknown(String)
    public static let wireNames: [(RepeatMode, String)] = [
        (.off, "REPEAT_OFF"), (.all, "REPEAT_ALL"), (.single, "REPEAT_SINGLE"), (.allAndShuffle, "REPEAT_ALL_AND_SHUFFLE"),
    ]
}

/// What a QUEUE_CHANGE reports: items inserted or removed, their content changed
/// (`ITEMS_CHANGE`: fetch them again), or the whole order (`UPDATE`: `itemIds` is the full list).
public enum QueueChangeType: OpenStringEnum {
    case insert, remove, itemsChange, update, noChange, unknown(String)
    public static let wireNames: [(QueueChangeType, String)] = [
        (.insert, "INSERT"), (.remove, "REMOVE"), (.itemsChange, "ITEMS_CHANGE"), (.update, "UPDATE"), (.noChange, "NO_CHANGE"),
    ]
}

/// `MediaTrack.type`.
public enum TrackType: OpenStringEnum {
    case text, audio, video, unknown(String)
    public static let wireNames: [(TrackType, String)] = [(.text, "TEXT"), (.audio, "AUDIO"), (.video, "VIDEO")]
}

/// `MediaTrack.subtype` of text tracks.
public enum TextTrackType: OpenStringEnum {
    case subtitles, captions, descriptions, chapters, metadata, unknown(String)
    public static let wireNames: [(TextTrackType, String)] = [
        (.subtitles, "SUBTITLES"), (.captions, "CAPTIONS"), (.descriptions, "DESCRIPTIONS"),
        (.chapters, "CHAPTERS"), (.metadata, "METADATA"),
    ]
}

public enum TextTrackEdgeType: OpenStringEnum {
    case none, outline, dropShadow, raised, depressed, unknown(String)
    public static let wireNames: [(TextTrackEdgeType, String)] = [
        (.none, "NONE"), (.outline, "OUTLINE"), (.dropShadow, "DROP_SHADOW"), (.raised, "RAISED"), (.depressed, "DEPRESSED"),
    ]
}

public enum TextTrackFontGenericFamily: OpenStringEnum {
    case sansSerif, monospacedSansSerif, serif, monospacedSerif, casual, cursive, smallCapitals, unknown(String)
    public static let wireNames: [(TextTrackFontGenericFamily, String)] = [
        (.sansSerif, "SANS_SERIF"), (.monospacedSansSerif, "MONOSPACED_SANS_SERIF"), (.serif, "SERIF"),
        (.monospacedSerif, "MONOSPACED_SERIF"), (.casual, "CASUAL"), (.cursive, "CURSIVE"), (.smallCapitals, "SMALL_CAPITALS"),
    ]
}

public enum TextTrackFontStyle: OpenStringEnum {
    case normal, bold, boldItalic, italic, unknown(String)
    public static let wireNames: [(TextTrackFontStyle, String)] = [
        (.normal, "NORMAL"), (.bold, "BOLD"), (.boldItalic, "BOLD_ITALIC"), (.italic, "ITALIC"),
    ]
}

public enum TextTrackWindowType: OpenStringEnum {
    case none, normal, roundedCorners, unknown(String)
    public static let wireNames: [(TextTrackWindowType, String)] = [(.none, "NONE"), (.normal, "NORMAL"), (.roundedCorners, "ROUNDED_CORNERS")]
}

/// `metadataType`: which fields a `MediaMetadata` carries.
public enum MetadataType: OpenIntEnum {
    case generic, movie, tvShow, musicTrack, photo, audiobookChapter, unknown(Int)
    public static let wireValues: [(MetadataType, Int)] = [
        (.generic, 0), (.movie, 1), (.tvShow, 2), (.musicTrack, 3), (.photo, 4), (.audiobookChapter, 5),
    ]
}

/// `reason` of error replies on the media and receiver namespaces.
public enum ErrorReason: OpenStringEnum {
    case invalidCommand, invalidParams, invalidMediaSessionID, invalidSessionID, skipLimitReached, notSupported
    case languageNotSupported, endOfQueue, duplicateRequestID, videoDeviceRequired, premiumAccountRequired
    case appError, authenticationExpired, concurrentStreamLimit, parentalControlRestricted, contentFiltered
    case notAvailableInRegion, contentAlreadyPlaying, invalidRequest, genericLoadError
    case unknown(String)
    public static let wireNames: [(ErrorReason, String)] = [
        (.invalidCommand, "INVALID_COMMAND"), (.invalidParams, "INVALID_PARAMS"),
        (.invalidMediaSessionID, "INVALID_MEDIA_SESSION_ID"), (.invalidSessionID, "INVALID_SESSION_ID"),
        (.skipLimitReached, "SKIP_LIMIT_REACHED"), (.notSupported, "NOT_SUPPORTED"),
        (.languageNotSupported, "LANGUAGE_NOT_SUPPORTED"), (.endOfQueue, "END_OF_QUEUE"),
        (.duplicateRequestID, "DUPLICATE_REQUEST_ID"), (.duplicateRequestID, "DUPLICATE_REQUESTID"),
        (.videoDeviceRequired, "VIDEO_DEVICE_REQUIRED"), (.premiumAccountRequired, "PREMIUM_ACCOUNT_REQUIRED"),
        (.appError, "APP_ERROR"), (.authenticationExpired, "AUTHENTICATION_EXPIRED"),
        (.concurrentStreamLimit, "CONCURRENT_STREAM_LIMIT"), (.parentalControlRestricted, "PARENTAL_CONTROL_RESTRICTED"),
        (.contentFiltered, "CONTENT_FILTERED"), (.notAvailableInRegion, "NOT_AVAILABLE_IN_REGION"),
        (.contentAlreadyPlaying, "CONTENT_ALREADY_PLAYING"), (.invalidRequest, "INVALID_REQUEST"),
        (.genericLoadError, "GENERIC_LOAD_ERROR"),
    ]
}

/// `reason` of LAUNCH_ERROR.
public enum LaunchErrorReason: OpenStringEnum {
    case badParameter, notFound, systemError, cancelled, notAllowed, timeout, unknown(String)
    public static let wireNames: [(LaunchErrorReason, String)] = [
        (.badParameter, "BAD_PARAMETER"), (.notFound, "NOT_FOUND"), (.systemError, "SYSTEM_ERROR"),
        (.cancelled, "CANCELLED"), (.notAllowed, "NOT_ALLOWED"), (.timeout, "TIMEOUT"),
    ]
}

/// `supportedMediaCommands`: what the receiver lets senders do with the current media.
public struct MediaCommands: OptionSet, Codable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let pause = MediaCommands(rawValue: 1)
    public static let seek = MediaCommands(rawValue: 2)
    public static let streamVolume = MediaCommands(rawValue: 4)
    public static let streamMute = MediaCommands(rawValue: 8)
    public static let skipForward = MediaCommands(rawValue: 16)
    public static let skipBackward = MediaCommands(rawValue: 32)
    public static let queueNext = MediaCommands(rawValue: 64)
    public static let queuePrev = MediaCommands(rawValue: 128)
    public static let queueShuffle = MediaCommands(rawValue: 256)
    public static let skipAd = MediaCommands(rawValue: 512)
    public static let queueRepeatAll = MediaCommands(rawValue: 1024)
    public static let queueRepeatOne = MediaCommands(rawValue: 2048)
    public static let queueRepeat: MediaCommands = [.queueRepeatAll, .queueRepeatOne]
    public static let editTracks = MediaCommands(rawValue: 4096)
    public static let playbackRate = MediaCommands(rawValue: 8192)
    public static let like = MediaCommands(rawValue: 16384)
    public static let dislike = MediaCommands(rawValue: 32768)
    public static let follow = MediaCommands(rawValue: 65536)
    public static let unfollow = MediaCommands(rawValue: 131072)
    public static let streamTransfer = MediaCommands(rawValue: 262144)
    /// CAF's ALL_BASIC_MEDIA (12303); older receivers report 15.
    public static let allBasicMedia: MediaCommands = [.pause, .seek, .streamVolume, .streamMute, .editTracks, .playbackRate]

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
