// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The media namespace's data types: what a LOAD carries and a MEDIA_STATUS reports.
// Swift names follow the wire JSON; every field a receiver may omit is optional.

// wire: read write
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

// wire: read write
/// One user action in effect for a media item (`MediaInformation.userActionStates`).
public struct UserActionState: Codable, Hashable, Sendable {
    public var userAction: UserAction
    public var customData: JSONValue?
    public init(userAction: UserAction, customData: JSONValue? = nil) {
        self.userAction = userAction
        self.customData = customData
    }
}

// wire: read write
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

// wire: read write codable
/// Descriptive metadata. `metadataType` says which of the fields apply:
/// generic (title, subtitle, releaseDate), movie (+ studio), TV show (seriesTitle, season,
/// episode, originalAirdate), music track (albumName, albumArtist, artist, composer,
/// trackNumber, discNumber), photo (artist, location, latitude, longitude, width, height,
/// creationDateTime), audiobook chapter (bookTitle, chapterNumber, chapterTitle).
/// Deprecated spellings (songName, artistName, episodeTitle, …) are kept when a sender uses them.
public struct MediaMetadata: Hashable, Sendable {
    public var metadataType: MetadataType  // wire: default .generic
    public var title: String?
    public var subtitle: String?
    public var images: [CastImage]?
    public var releaseDate: String?
    public var releaseYear: Int?
    public var studio: String?
    public var seriesTitle: String?
    public var season: Int?
    public var episode: Int?
    /// rust-cast spells it `originalAirDate`: read, never written.
    public var originalAirdate: String?  // wire: also originalAirDate
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

/// A text, audio or video track of the media.
