// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
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
