// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The media namespace's data types: what a LOAD carries and a MEDIA_STATUS reports.
// Swift names follow the wire JSON; every field a receiver may omit is optional.

// wire: read write
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

// wire: read write
/// A VAST/VMAP ad request, used when no breaks are given.
public struct AdsRequest: Codable, Hashable, Sendable {
    public var adTagUrl: String?
    public var adsResponse: String?
    public init(adTagUrl: String? = nil, adsResponse: String? = nil) {
        self.adTagUrl = adTagUrl
        self.adsResponse = adsResponse
    }
}

// wire: read write
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

// wire: read write
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

    public init(
        breakId: String? = nil, breakClipId: String? = nil, currentBreakTime: Double? = nil, currentBreakClipTime: Double? = nil, whenSkippable: Double? = nil
    ) {
        self.breakId = breakId
        self.breakClipId = breakClipId
        self.currentBreakTime = currentBreakTime
        self.currentBreakClipTime = currentBreakClipTime
        self.whenSkippable = whenSkippable
    }
}

/// What to play: the content, its type, metadata, tracks, text style and ad breaks.
