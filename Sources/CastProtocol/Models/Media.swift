// The media namespace's data types: what a LOAD carries and a MEDIA_STATUS reports.
// Swift names follow the wire JSON; every field a receiver may omit is optional.

/// A volume: device volume in RECEIVER_STATUS, stream volume in MEDIA_STATUS.
public struct Volume: Codable, Hashable, Sendable {
    /// 0.0 ... 1.0
    public var level: Double?
    public var muted: Bool?
    /// `attenuation`, `fixed` or `master` (device volume only).
    public var controlType: String?
    /// The step the device allows, e.g. 0.05 (device volume only).
    public var stepInterval: Double?

    public init(level: Double? = nil, muted: Bool? = nil, controlType: String? = nil, stepInterval: Double? = nil) {
        self.level = level
        self.muted = muted
        self.controlType = controlType
        self.stepInterval = stepInterval
    }
}

/// An image of the media (poster, album art, thumbnail). Width and height may be absent.
public struct CastImage: Codable, Hashable, Sendable {
    public var url: String
    public var width: Int?
    public var height: Int?

    public init(url: String, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }
}

/// Descriptive metadata. `metadataType` says which of the fields apply:
/// generic (title, subtitle, releaseDate), movie (+ studio), TV show (seriesTitle, season,
/// episode, originalAirdate), music track (albumName, albumArtist, artist, composer,
/// trackNumber, discNumber), photo (artist, location, latitude, longitude, width, height,
/// creationDateTime), audiobook chapter (bookTitle, chapterNumber, chapterTitle).
/// Deprecated spellings (songName, artistName, episodeTitle, …) are kept when a sender uses them.
public struct MediaMetadata: Hashable, Sendable {
    public var metadataType: MetadataType
    public var title: String?
    public var subtitle: String?
    public var images: [CastImage]?
    public var releaseDate: String?
    public var releaseYear: Int?
    public var studio: String?
    public var seriesTitle: String?
    public var season: Int?
    public var episode: Int?
    public var originalAirdate: String?
    public var episodeTitle: String?
    public var seasonNumber: Int?
    public var episodeNumber: Int?
    public var albumName: String?
    public var albumArtist: String?
    public var artist: String?
    public var artistName: String?
    public var composer: String?
    public var songName: String?
    public var trackNumber: Int?
    public var discNumber: Int?
    public var location: String?
    public var latitude: Double?
    public var longitude: Double?
    public var width: Int?
    public var height: Int?
    public var creationDateTime: String?
    public var bookTitle: String?
    public var chapterNumber: Int?
    public var chapterTitle: String?

    public init(metadataType: MetadataType = .generic, title: String? = nil, subtitle: String? = nil, images: [CastImage]? = nil) {
        self.metadataType = metadataType
        self.title = title
        self.subtitle = subtitle
        self.images = images
    }

    /// The best title for display, whatever the metadata type.
    public var displayTitle: String? { title ?? songName ?? episodeTitle ?? chapterTitle ?? bookTitle }

    /// The best second line for display, whatever the metadata type.
    public var displaySubtitle: String? {
        switch metadataType {
        case .tvShow: seriesTitle ?? subtitle
        case .musicTrack: artist ?? artistName ?? albumArtist ?? albumName ?? subtitle
        case .photo: artist ?? location ?? subtitle
        case .audiobookChapter: bookTitle ?? subtitle
        default: subtitle ?? studio
        }
    }
}

extension MediaMetadata: Codable {
    enum CodingKeys: String, CodingKey {
        case metadataType, title, subtitle, images, releaseDate, releaseYear, studio, seriesTitle, season, episode
        case originalAirdate, episodeTitle, seasonNumber, episodeNumber, albumName, albumArtist, artist, artistName
        case composer, songName, trackNumber, discNumber, location, latitude, longitude, width, height
        case creationDateTime, bookTitle, chapterNumber, chapterTitle
        /// rust-cast's spelling of `originalAirdate`; read, never written.
        case originalAirDate
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        metadataType = try c.decodeIfPresent(MetadataType.self, forKey: .metadataType) ?? .generic
        title = try c.decodeIfPresent(String.self, forKey: .title)
        subtitle = try c.decodeIfPresent(String.self, forKey: .subtitle)
        images = try c.decodeIfPresent([CastImage].self, forKey: .images)
        releaseDate = try c.decodeIfPresent(String.self, forKey: .releaseDate)
        releaseYear = try c.decodeIfPresent(Int.self, forKey: .releaseYear)
        studio = try c.decodeIfPresent(String.self, forKey: .studio)
        seriesTitle = try c.decodeIfPresent(String.self, forKey: .seriesTitle)
        season = try c.decodeIfPresent(Int.self, forKey: .season)
        episode = try c.decodeIfPresent(Int.self, forKey: .episode)
        originalAirdate =
            try c.decodeIfPresent(String.self, forKey: .originalAirdate)
            ?? c.decodeIfPresent(String.self, forKey: .originalAirDate)
        episodeTitle = try c.decodeIfPresent(String.self, forKey: .episodeTitle)
        seasonNumber = try c.decodeIfPresent(Int.self, forKey: .seasonNumber)
        episodeNumber = try c.decodeIfPresent(Int.self, forKey: .episodeNumber)
        albumName = try c.decodeIfPresent(String.self, forKey: .albumName)
        albumArtist = try c.decodeIfPresent(String.self, forKey: .albumArtist)
        artist = try c.decodeIfPresent(String.self, forKey: .artist)
        artistName = try c.decodeIfPresent(String.self, forKey: .artistName)
        composer = try c.decodeIfPresent(String.self, forKey: .composer)
        songName = try c.decodeIfPresent(String.self, forKey: .songName)
        trackNumber = try c.decodeIfPresent(Int.self, forKey: .trackNumber)
        discNumber = try c.decodeIfPresent(Int.self, forKey: .discNumber)
        location = try c.decodeIfPresent(String.self, forKey: .location)
        latitude = try c.decodeIfPresent(Double.self, forKey: .latitude)
        longitude = try c.decodeIfPresent(Double.self, forKey: .longitude)
        width = try c.decodeIfPresent(Int.self, forKey: .width)
        height = try c.decodeIfPresent(Int.self, forKey: .height)
        creationDateTime = try c.decodeIfPresent(String.self, forKey: .creationDateTime)
        bookTitle = try c.decodeIfPresent(String.self, forKey: .bookTitle)
        chapterNumber = try c.decodeIfPresent(Int.self, forKey: .chapterNumber)
        chapterTitle = try c.decodeIfPresent(String.self, forKey: .chapterTitle)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(metadataType, forKey: .metadataType)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(subtitle, forKey: .subtitle)
        try c.encodeIfPresent(images, forKey: .images)
        try c.encodeIfPresent(releaseDate, forKey: .releaseDate)
        try c.encodeIfPresent(releaseYear, forKey: .releaseYear)
        try c.encodeIfPresent(studio, forKey: .studio)
        try c.encodeIfPresent(seriesTitle, forKey: .seriesTitle)
        try c.encodeIfPresent(season, forKey: .season)
        try c.encodeIfPresent(episode, forKey: .episode)
        try c.encodeIfPresent(originalAirdate, forKey: .originalAirdate)
        try c.encodeIfPresent(episodeTitle, forKey: .episodeTitle)
        try c.encodeIfPresent(seasonNumber, forKey: .seasonNumber)
        try c.encodeIfPresent(episodeNumber, forKey: .episodeNumber)
        try c.encodeIfPresent(albumName, forKey: .albumName)
        try c.encodeIfPresent(albumArtist, forKey: .albumArtist)
        try c.encodeIfPresent(artist, forKey: .artist)
        try c.encodeIfPresent(artistName, forKey: .artistName)
        try c.encodeIfPresent(composer, forKey: .composer)
        try c.encodeIfPresent(songName, forKey: .songName)
        try c.encodeIfPresent(trackNumber, forKey: .trackNumber)
        try c.encodeIfPresent(discNumber, forKey: .discNumber)
        try c.encodeIfPresent(location, forKey: .location)
        try c.encodeIfPresent(latitude, forKey: .latitude)
        try c.encodeIfPresent(longitude, forKey: .longitude)
        try c.encodeIfPresent(width, forKey: .width)
        try c.encodeIfPresent(height, forKey: .height)
        try c.encodeIfPresent(creationDateTime, forKey: .creationDateTime)
        try c.encodeIfPresent(bookTitle, forKey: .bookTitle)
        try c.encodeIfPresent(chapterNumber, forKey: .chapterNumber)
        try c.encodeIfPresent(chapterTitle, forKey: .chapterTitle)
    }
}

/// A text, audio or video track of the media.
public struct MediaTrack: Codable, Hashable, Sendable {
    public var trackId: Int
    public var type: TrackType
    /// Text tracks only.
    public var subtype: TextTrackType?
    /// URL of an out-of-band track (e.g. a WebVTT file) or an id the receiver understands.
    public var trackContentId: String?
    /// MIME type, e.g. `text/vtt`.
    public var trackContentType: String?
    public var name: String?
    /// BCP-47 tag; required for subtitles.
    public var language: String?
    public var roles: [String]?
    public var customData: JSONValue?

    public init(
        trackId: Int, type: TrackType, subtype: TextTrackType? = nil, trackContentId: String? = nil,
        trackContentType: String? = nil, name: String? = nil, language: String? = nil, roles: [String]? = nil,
        customData: JSONValue? = nil
    ) {
        self.trackId = trackId
        self.type = type
        self.subtype = subtype
        self.trackContentId = trackContentId
        self.trackContentType = trackContentType
        self.name = name
        self.language = language
        self.roles = roles
        self.customData = customData
    }
}

/// How text tracks are drawn. Colors are `#RRGGBBAA` strings (see `CastColor`).
public struct TextTrackStyle: Codable, Hashable, Sendable {
    public var foregroundColor: String?
    public var backgroundColor: String?
    public var edgeType: TextTrackEdgeType?
    public var edgeColor: String?
    public var fontScale: Double?
    public var fontFamily: String?
    public var fontGenericFamily: TextTrackFontGenericFamily?
    public var fontStyle: TextTrackFontStyle?
    public var windowType: TextTrackWindowType?
    public var windowColor: String?
    /// Pixels; only for `ROUNDED_CORNERS`.
    public var windowRoundedCornerRadius: Double?
    public var customData: JSONValue?

    public init(
        foregroundColor: String? = nil, backgroundColor: String? = nil, edgeType: TextTrackEdgeType? = nil,
        edgeColor: String? = nil, fontScale: Double? = nil, fontFamily: String? = nil,
        fontGenericFamily: TextTrackFontGenericFamily? = nil, fontStyle: TextTrackFontStyle? = nil,
        windowType: TextTrackWindowType? = nil, windowColor: String? = nil, windowRoundedCornerRadius: Double? = nil,
        customData: JSONValue? = nil
    ) {
        self.foregroundColor = foregroundColor
        self.backgroundColor = backgroundColor
        self.edgeType = edgeType
        self.edgeColor = edgeColor
        self.fontScale = fontScale
        self.fontFamily = fontFamily
        self.fontGenericFamily = fontGenericFamily
        self.fontStyle = fontStyle
        self.windowType = windowType
        self.windowColor = windowColor
        self.windowRoundedCornerRadius = windowRoundedCornerRadius
        self.customData = customData
    }

    /// The style a receiver uses when none is given: white text on a translucent black box.
    public static let `default` = TextTrackStyle(
        foregroundColor: "#FFFFFFFF", backgroundColor: "#000000FF", edgeType: TextTrackEdgeType.none,
        edgeColor: "#000000FF", fontScale: 1.0, fontGenericFamily: .sansSerif, fontStyle: .normal,
        windowType: TextTrackWindowType.none, windowColor: "#00000000", windowRoundedCornerRadius: 0)
}

/// A `#RRGGBBAA` color as the Cast text-track style writes it (alpha last).
public struct CastColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBBAA` or `#RRGGBB` (opaque); nil for anything else.
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        let digits = hex.dropFirst()
        guard digits.count == 6 || digits.count == 8, let v = UInt32(digits, radix: 16) else { return nil }
        let full = digits.count == 6 ? (v << 8 | 0xFF) : v
        red = UInt8(truncatingIfNeeded: full >> 24)
        green = UInt8(truncatingIfNeeded: full >> 16)
        blue = UInt8(truncatingIfNeeded: full >> 8)
        alpha = UInt8(truncatingIfNeeded: full)
    }

    /// `#RRGGBBAA`, upper-case.
    public var hex: String {
        let v = UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
        let s = String(v, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 8 - s.count) + s
    }

    public var description: String { hex }
}

/// An ad break: where it sits in the main content and which clips it plays.
public struct AdBreak: Codable, Hashable, Sendable {
    public var id: String
    /// Seconds into the main content; `-1` means after the end (post-roll).
    public var position: Double
    public var breakClipIds: [String]
    public var duration: Double?
    public var isWatched: Bool?
    public var isEmbedded: Bool?

    public init(id: String, position: Double, breakClipIds: [String], duration: Double? = nil, isWatched: Bool? = false, isEmbedded: Bool? = nil) {
        self.id = id
        self.position = position
        self.breakClipIds = breakClipIds
        self.duration = duration
        self.isWatched = isWatched
        self.isEmbedded = isEmbedded
    }

    public var isPostRoll: Bool { position < 0 }
}

/// A VAST/VMAP ad request, used when no breaks are given.
public struct AdsRequest: Codable, Hashable, Sendable {
    public var adTagUrl: String?
    public var adsResponse: String?
    public init(adTagUrl: String? = nil, adsResponse: String? = nil) {
        self.adTagUrl = adTagUrl
        self.adsResponse = adsResponse
    }
}

/// One ad clip played inside a break.
public struct AdBreakClip: Codable, Hashable, Sendable {
    public var id: String
    public var title: String?
    public var contentId: String?
    public var contentUrl: String?
    public var contentType: String?
    public var duration: Double?
    /// Seconds after the clip starts when it may be skipped; absent = never.
    public var whenSkippable: Double?
    public var posterUrl: String?
    public var clickThroughUrl: String?
    public var hlsSegmentFormat: String?
    public var vastAdsRequest: AdsRequest?
    public var customData: JSONValue?

    public init(
        id: String, title: String? = nil, contentId: String? = nil, contentUrl: String? = nil, contentType: String? = nil,
        duration: Double? = nil, whenSkippable: Double? = nil, posterUrl: String? = nil, clickThroughUrl: String? = nil
    ) {
        self.id = id
        self.title = title
        self.contentId = contentId
        self.contentUrl = contentUrl
        self.contentType = contentType
        self.duration = duration
        self.whenSkippable = whenSkippable
        self.posterUrl = posterUrl
        self.clickThroughUrl = clickThroughUrl
    }
}

/// Where playback is inside the current ad break (present only while one plays).
public struct BreakStatus: Codable, Hashable, Sendable {
    public var breakId: String?
    public var breakClipId: String?
    /// Seconds since the break started.
    public var currentBreakTime: Double?
    /// Seconds since the clip started.
    public var currentBreakClipTime: Double?
    /// Seconds after the clip start when it can be skipped; absent = not skippable.
    public var whenSkippable: Double?

    public init(breakId: String? = nil, breakClipId: String? = nil, currentBreakTime: Double? = nil, currentBreakClipTime: Double? = nil, whenSkippable: Double? = nil) {
        self.breakId = breakId
        self.breakClipId = breakClipId
        self.currentBreakTime = currentBreakTime
        self.currentBreakClipTime = currentBreakClipTime
        self.whenSkippable = whenSkippable
    }
}

/// What to play: the content, its type, metadata, tracks, text style and ad breaks.
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
