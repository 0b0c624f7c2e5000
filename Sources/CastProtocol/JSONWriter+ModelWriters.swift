// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Each media message's and model's write(to:), members in key order; JSONWritable's overview is in JSONWriter+Models.swift.

// MARK: messages (members in key order, `type` placed by JSONOut)

extension MediaStatusMessage {
    func write(to o: inout JSONOut, type: String) throws {
        let e = o.openMessage(type: type)
        try o.member("customData", customData)
        o.member("requestId", requestId)
        try o.member("status", status)
        o.close(e)
    }
}

extension MediaSessionRequest {
    func write(to o: inout JSONOut, type: String) throws {
        let e = o.openMessage(type: type)
        try o.member("customData", customData)
        o.member("mediaSessionId", mediaSessionId)
        o.member("options", options)
        o.member("requestId", requestId)
        o.member("sessionId", sessionId)
        o.close(e)
    }
}

extension SeekRequest {
    func write(to o: inout JSONOut, type: String) throws {
        let e = o.openMessage(type: type)
        try o.member("currentTime", currentTime)
        try o.member("customData", customData)
        o.member("mediaSessionId", mediaSessionId)
        try o.member("relativeTime", relativeTime)
        o.member("requestId", requestId)
        o.member("resumeState", resumeState)
        o.close(e)
    }
}

extension SetPlaybackRateRequest {
    func write(to o: inout JSONOut, type: String) throws {
        let e = o.openMessage(type: type)
        try o.member("customData", customData)
        o.member("mediaSessionId", mediaSessionId)
        try o.member("playbackRate", playbackRate)
        try o.member("relativePlaybackRate", relativePlaybackRate)
        o.member("requestId", requestId)
        o.close(e)
    }
}

extension LoadRequest {
    func write(to o: inout JSONOut, type: String) throws {
        let e = o.openMessage(type: type)
        o.member("activeTrackIds", activeTrackIds)
        o.member("autoplay", autoplay)
        o.member("credentials", credentials)
        o.member("credentialsType", credentialsType)
        try o.member("currentTime", currentTime)
        try o.member("customData", customData)
        try o.member("media", media)
        o.member("mediaSessionId", mediaSessionId)
        try o.member("playbackRate", playbackRate)
        try o.member("queueData", queueData)
        o.member("requestId", requestId)
        o.member("sessionId", sessionId)
        o.close(e)
    }
}

// MARK: models

extension MediaStatus: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("activeTrackIds", activeTrackIds)
        try o.member("breakStatus", breakStatus)
        o.member("currentItemId", currentItemId)
        try o.member("currentTime", currentTime)
        try o.member("customData", customData)
        try o.member("extendedStatus", extendedStatus)
        o.member("idleReason", idleReason)
        try o.member("items", items)
        try o.member("liveSeekableRange", liveSeekableRange)
        o.member("loadingItemId", loadingItemId)
        try o.member("media", media)
        o.member("mediaSessionId", mediaSessionId)
        try o.member("playbackRate", playbackRate)
        o.member("playerState", playerState)
        o.member("preloadedItemId", preloadedItemId)
        try o.member("queueData", queueData)
        o.member("repeatMode", repeatMode)
        o.member("supportedMediaCommands", supportedMediaCommands?.rawValue)
        try o.member("videoInfo", videoInfo)
        try o.member("volume", volume)
        o.close(e)
    }
}

extension MediaInformation: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        try o.member("breakClips", breakClips)
        try o.member("breaks", breaks)
        o.member("contentId", contentId)
        o.member("contentType", contentType)
        o.member("contentUrl", contentUrl)
        try o.member("customData", customData)
        try o.member("duration", duration)
        o.member("entity", entity)
        o.member("hlsSegmentFormat", hlsSegmentFormat)
        try o.member("metadata", metadata)
        o.member("streamType", streamType)
        try o.member("textTrackStyle", textTrackStyle)
        try o.member("tracks", tracks)
        try o.member("vmapAdsRequest", vmapAdsRequest)
        o.close(e)
    }
}

extension MediaMetadata: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("albumArtist", albumArtist)
        o.member("albumName", albumName)
        o.member("artist", artist)
        o.member("artistName", artistName)
        o.member("bookTitle", bookTitle)
        o.member("chapterNumber", chapterNumber)
        o.member("chapterTitle", chapterTitle)
        o.member("composer", composer)
        o.member("creationDateTime", creationDateTime)
        o.member("discNumber", discNumber)
        o.member("episode", episode)
        o.member("episodeNumber", episodeNumber)
        o.member("episodeTitle", episodeTitle)
        o.member("height", height)
        try o.member("images", images)
        try o.member("latitude", latitude)
        o.member("location", location)
        try o.member("longitude", longitude)
        o.member("metadataType", metadataType.rawValue)
        o.member("originalAirdate", originalAirdate)
        o.member("releaseDate", releaseDate)
        o.member("releaseYear", releaseYear)
        o.member("season", season)
        o.member("seasonNumber", seasonNumber)
        o.member("seriesTitle", seriesTitle)
        o.member("songName", songName)
        o.member("studio", studio)
        o.member("subtitle", subtitle)
        o.member("title", title)
        o.member("trackNumber", trackNumber)
        o.member("width", width)
        o.close(e)
    }
}

extension CastImage: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("height", height)
        o.member("url", url)
        o.member("width", width)
        o.close(e)
    }
}

extension MediaTrack: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        try o.member("customData", customData)
        o.member("language", language)
        o.member("name", name)
        o.member("roles", roles)
        o.member("subtype", subtype)
        o.member("trackContentId", trackContentId)
        o.member("trackContentType", trackContentType)
        o.member("trackId", trackId)
        o.member("type", type)
        o.close(e)
    }
}

extension TextTrackStyle: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("backgroundColor", backgroundColor)
        try o.member("customData", customData)
        o.member("edgeColor", edgeColor)
        o.member("edgeType", edgeType)
        o.member("fontFamily", fontFamily)
        o.member("fontGenericFamily", fontGenericFamily)
        try o.member("fontScale", fontScale)
        o.member("fontStyle", fontStyle)
        o.member("foregroundColor", foregroundColor)
        o.member("windowColor", windowColor)
        try o.member("windowRoundedCornerRadius", windowRoundedCornerRadius)
        o.member("windowType", windowType)
        o.close(e)
    }
}

extension AdBreak: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("breakClipIds", breakClipIds)
        try o.member("duration", duration)
        o.member("id", id)
        o.member("isEmbedded", isEmbedded)
        o.member("isWatched", isWatched)
        try o.member("position", position)
        o.close(e)
    }
}

extension AdsRequest: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("adTagUrl", adTagUrl)
        o.member("adsResponse", adsResponse)
        o.close(e)
    }
}

extension AdBreakClip: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("clickThroughUrl", clickThroughUrl)
        o.member("contentId", contentId)
        o.member("contentType", contentType)
        o.member("contentUrl", contentUrl)
        try o.member("customData", customData)
        try o.member("duration", duration)
        o.member("hlsSegmentFormat", hlsSegmentFormat)
        o.member("id", id)
        o.member("posterUrl", posterUrl)
        o.member("title", title)
        try o.member("vastAdsRequest", vastAdsRequest)
        try o.member("whenSkippable", whenSkippable)
        o.close(e)
    }
}

extension BreakStatus: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("breakClipId", breakClipId)
        o.member("breakId", breakId)
        try o.member("currentBreakClipTime", currentBreakClipTime)
        try o.member("currentBreakTime", currentBreakTime)
        try o.member("whenSkippable", whenSkippable)
        o.close(e)
    }
}

extension Volume: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("controlType", controlType)
        try o.member("level", level)
        o.member("muted", muted)
        try o.member("stepInterval", stepInterval)
        o.close(e)
    }
}

extension QueueItem: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("activeTrackIds", activeTrackIds)
        o.member("autoplay", autoplay)
        try o.member("customData", customData)
        o.member("itemId", itemId)
        try o.member("media", media)
        try o.member("playbackDuration", playbackDuration)
        try o.member("preloadTime", preloadTime)
        try o.member("startTime", startTime)
        o.close(e)
    }
}

extension QueueData: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("description", description)
        o.member("entity", entity)
        o.member("id", id)
        try o.member("items", items)
        o.member("name", name)
        o.member("queueType", queueType)
        o.member("repeatMode", repeatMode)
        o.member("shuffle", shuffle)
        o.member("startIndex", startIndex)
        try o.member("startTime", startTime)
        o.close(e)
    }
}

extension LiveSeekableRange: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        try o.member("end", end)
        o.member("isLiveDone", isLiveDone)
        o.member("isMovingWindow", isMovingWindow)
        try o.member("start", start)
        o.close(e)
    }
}

extension VideoInfo: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        o.member("hdrType", hdrType)
        o.member("height", height)
        o.member("width", width)
        o.close(e)
    }
}

extension ExtendedMediaStatus: JSONWritable {
    func write(to o: inout JSONOut) throws {
        let e = o.open()
        try o.member("media", media)
        o.member("mediaSessionId", mediaSessionId)
        o.member("playerState", playerState)
        o.close(e)
    }
}
