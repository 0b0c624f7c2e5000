// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The one-pass readers of the media-status models (see JSONParser+Reading.swift).
// Each mirrors its type's Codable decoding member for member: the same wire names, the same
// optional fields, null read as absent; a required field that is missing makes the reader give
// up, and the tree path then reports it with its path. `FastPathEquivalenceTests` checks
// that both paths agree.

extension CastImage: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        var url: String?
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "url": url = try r.readString()
            case "width": width = try r.optionalInt()
            case "height": height = try r.optionalInt()
            default: try r.skipValue()
            }
        }
        guard let url else { throw r.fail("missing url") }
        self.url = url
    }
}

extension MediaMetadata: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        self.init()
        var type: MetadataType?
        var airdate: String?
        var airDate: String?
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "metadataType": type = try r.takeNull() ? nil : MetadataType(rawValue: try r.readInt())
            case "title": title = try r.optionalString()
            case "subtitle": subtitle = try r.optionalString()
            case "images": images = try r.optionalArray(of: CastImage.self)
            case "releaseDate": releaseDate = try r.optionalString()
            case "releaseYear": releaseYear = try r.optionalInt()
            case "studio": studio = try r.optionalString()
            case "seriesTitle": seriesTitle = try r.optionalString()
            case "season": season = try r.optionalInt()
            case "episode": episode = try r.optionalInt()
            case "originalAirdate": airdate = try r.optionalString()
            case "originalAirDate": airDate = try r.optionalString()
            case "episodeTitle": episodeTitle = try r.optionalString()
            case "seasonNumber": seasonNumber = try r.optionalInt()
            case "episodeNumber": episodeNumber = try r.optionalInt()
            case "albumName": albumName = try r.optionalString()
            case "albumArtist": albumArtist = try r.optionalString()
            case "artist": artist = try r.optionalString()
            case "artistName": artistName = try r.optionalString()
            case "composer": composer = try r.optionalString()
            case "songName": songName = try r.optionalString()
            case "trackNumber": trackNumber = try r.optionalInt()
            case "discNumber": discNumber = try r.optionalInt()
            case "location": location = try r.optionalString()
            case "latitude": latitude = try r.optionalDouble()
            case "longitude": longitude = try r.optionalDouble()
            case "width": width = try r.optionalInt()
            case "height": height = try r.optionalInt()
            case "creationDateTime": creationDateTime = try r.optionalString()
            case "bookTitle": bookTitle = try r.optionalString()
            case "chapterNumber": chapterNumber = try r.optionalInt()
            case "chapterTitle": chapterTitle = try r.optionalString()
            default: try r.skipValue()
            }
        }
        metadataType = type ?? .generic
        originalAirdate = airdate ?? airDate
    }
}

extension MediaTrack: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        var id: Int?
        var type: TrackType?
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "trackId": id = try r.readInt()
            case "type": type = try r.readEnum(TrackType.self)
            case "subtype": subtype = try r.optionalEnum(TextTrackType.self)
            case "trackContentId": trackContentId = try r.optionalString()
            case "trackContentType": trackContentType = try r.optionalString()
            case "name": name = try r.optionalString()
            case "language": language = try r.optionalString()
            case "roles": roles = try r.optionalStrings()
            case "customData": customData = try r.optionalValue()
            default: try r.skipValue()
            }
        }
        guard let id, let type else { throw r.fail("missing trackId or type") }
        trackId = id
        self.type = type
    }
}

extension TextTrackStyle: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        self.init()
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "foregroundColor": foregroundColor = try r.optionalString()
            case "backgroundColor": backgroundColor = try r.optionalString()
            case "edgeType": edgeType = try r.optionalEnum(TextTrackEdgeType.self)
            case "edgeColor": edgeColor = try r.optionalString()
            case "fontScale": fontScale = try r.optionalDouble()
            case "fontFamily": fontFamily = try r.optionalString()
            case "fontGenericFamily": fontGenericFamily = try r.optionalEnum(TextTrackFontGenericFamily.self)
            case "fontStyle": fontStyle = try r.optionalEnum(TextTrackFontStyle.self)
            case "windowType": windowType = try r.optionalEnum(TextTrackWindowType.self)
            case "windowColor": windowColor = try r.optionalString()
            case "windowRoundedCornerRadius": windowRoundedCornerRadius = try r.optionalDouble()
            case "customData": customData = try r.optionalValue()
            default: try r.skipValue()
            }
        }
    }
}

extension AdBreak: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        var id: String?
        var position: Double?
        var clips: [String]?
        var watched: Bool?
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "id": id = try r.readString()
            case "position": position = try r.readDouble()
            case "breakClipIds":
                guard let ids = try r.optionalStrings() else { throw r.fail("breakClipIds is null") }
                clips = ids
            case "duration": duration = try r.optionalDouble()
            case "isWatched": watched = try r.optionalBool()
            case "isEmbedded": isEmbedded = try r.optionalBool()
            default: try r.skipValue()
            }
        }
        guard let id, let position, let clips else { throw r.fail("missing id, position or breakClipIds") }
        self.id = id
        self.position = position
        breakClipIds = clips
        isWatched = watched
    }
}

extension AdsRequest: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        self.init()
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "adTagUrl": adTagUrl = try r.optionalString()
            case "adsResponse": adsResponse = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension AdBreakClip: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        var id: String?
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "id": id = try r.readString()
            case "title": title = try r.optionalString()
            case "contentId": contentId = try r.optionalString()
            case "contentUrl": contentUrl = try r.optionalString()
            case "contentType": contentType = try r.optionalString()
            case "duration": duration = try r.optionalDouble()
            case "whenSkippable": whenSkippable = try r.optionalDouble()
            case "posterUrl": posterUrl = try r.optionalString()
            case "clickThroughUrl": clickThroughUrl = try r.optionalString()
            case "hlsSegmentFormat": hlsSegmentFormat = try r.optionalString()
            case "vastAdsRequest": vastAdsRequest = try r.optional(AdsRequest.self)
            case "customData": customData = try r.optionalValue()
            default: try r.skipValue()
            }
        }
        guard let id else { throw r.fail("missing id") }
        self.id = id
    }
}

extension BreakStatus: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        self.init()
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "breakId": breakId = try r.optionalString()
            case "breakClipId": breakClipId = try r.optionalString()
            case "currentBreakTime": currentBreakTime = try r.optionalDouble()
            case "currentBreakClipTime": currentBreakClipTime = try r.optionalDouble()
            case "whenSkippable": whenSkippable = try r.optionalDouble()
            default: try r.skipValue()
            }
        }
    }
}

extension MediaInformation: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        var id: String?
        // The members go straight into the storage the value will hold.
        let storage = CopyOnWrite<Fields>.Storage(Fields(contentId: ""))
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "contentId": id = try r.readString()
            case "contentUrl": storage.fields.contentUrl = try r.optionalString()
            case "streamType": storage.fields.streamType = try r.optionalEnum(StreamType.self)
            case "contentType": storage.fields.contentType = try r.optionalString()
            case "metadata": storage.fields.metadata = try r.optional(MediaMetadata.self)
            case "duration": storage.fields.duration = try r.optionalDouble()
            case "tracks": storage.fields.tracks = try r.optionalArray(of: MediaTrack.self)
            case "textTrackStyle": storage.fields.textTrackStyle = try r.optional(TextTrackStyle.self)
            case "breaks": storage.fields.breaks = try r.optionalArray(of: AdBreak.self)
            case "breakClips": storage.fields.breakClips = try r.optionalArray(of: AdBreakClip.self)
            case "vmapAdsRequest": storage.fields.vmapAdsRequest = try r.optional(AdsRequest.self)
            case "hlsSegmentFormat": storage.fields.hlsSegmentFormat = try r.optionalString()
            case "entity": storage.fields.entity = try r.optionalString()
            case "customData": storage.fields.customData = try r.optionalValue()
            default: try r.skipValue()
            }
        }
        guard let id else { throw r.fail("missing contentId") }
        storage.fields.contentId = id
        self.init(filled: storage)
    }
}
