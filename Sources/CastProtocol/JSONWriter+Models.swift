/// The media status and the common media commands written straight to bytes.
///
/// `CastJSONWriter` writes any Encodable, but Codable's machinery costs more than the
/// writing: a keyed container per object (generic metadata looked up at run time), a key
/// String per member, exclusivity checks on every access to its frames, and a sort of each
/// object's members. The simulator answers every command with a MEDIA_STATUS and a sender
/// sends a command for every click, so these models write themselves: members in the key
/// order the generic writer sorts them into, nil members left out as `encodeIfPresent`
/// leaves them out. The output is byte for byte the generic writer's (and so JSONEncoder's):
/// `JSONWriterTests` compares them on every fixture, on mutated fixtures and on values with
/// every field set; a debug build also checks, member by member, that keys come in order.
protocol JSONWritable {
    func write(to out: inout JSONOut) throws
}

/// A byte buffer being written as JSON, and where the writer is in the object at hand.
struct JSONOut {
    var bytes: [UInt8] = []
    /// No member written yet in the innermost open object.
    private var first = true
    /// The message's `type`, written in its place among the top-level members.
    private var pendingType: String?
    #if DEBUG
    private var lastKey: [UInt8] = []
    #endif

    /// What an enclosing object needs back when an inner one closes.
    struct Enclosing {
        fileprivate var first: Bool
        fileprivate var pendingType: String?
        #if DEBUG
        fileprivate var lastKey: [UInt8]
        #endif
    }

    mutating func open() -> Enclosing {
        #if DEBUG
        let saved = Enclosing(first: first, pendingType: pendingType, lastKey: lastKey)
        lastKey = []
        #else
        let saved = Enclosing(first: first, pendingType: pendingType)
        #endif
        bytes.append(UInt8(ascii: "{"))
        first = true
        pendingType = nil
        return saved
    }

    /// Opens the message object; `type` is written among its members in key order.
    mutating func openMessage(type: String) -> Enclosing {
        let saved = open()
        pendingType = type
        return saved
    }

    mutating func close(_ saved: Enclosing) {
        if pendingType != nil { writeType() }
        bytes.append(UInt8(ascii: "}"))
        first = saved.first
        pendingType = saved.pendingType
        #if DEBUG
        lastKey = saved.lastKey
        #endif
    }

    private mutating func writeType() {
        guard let type = pendingType else { return }
        pendingType = nil
        writeKey("type")
        CastJSONWriter.writeString(type, to: &bytes)
    }

    /// Writes the separator and `"key":`; keys are plain ASCII names that need no escape.
    mutating func key(_ key: StaticString) {
        if pendingType != nil, Self.precedes("type", key) { writeType() }
        writeKey(key)
    }

    private mutating func writeKey(_ key: StaticString) {
        let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        #if DEBUG
        precondition(lastKey.isEmpty || lastKey.lexicographicallyPrecedes(name), "JSONOut: \(key) written out of key order")
        lastKey = Array(name)
        #endif
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private static func precedes(_ a: StaticString, _ b: StaticString) -> Bool {
        UnsafeBufferPointer(start: a.utf8Start, count: a.utf8CodeUnitCount)
            .lexicographicallyPrecedes(UnsafeBufferPointer(start: b.utf8Start, count: b.utf8CodeUnitCount))
    }

    // MARK: members (nil: left out)

    mutating func member(_ k: StaticString, _ v: String?) {
        guard let v else { return }
        key(k)
        CastJSONWriter.writeString(v, to: &bytes)
    }

    mutating func member(_ k: StaticString, _ v: Int?) {
        guard let v else { return }
        key(k)
        CastJSONWriter.writeInt(Int64(v), to: &bytes)
    }

    mutating func member(_ k: StaticString, _ v: Double?) throws {
        guard let v else { return }
        key(k)
        try CastJSONWriter.writeDouble(v, to: &bytes)
    }

    mutating func member(_ k: StaticString, _ v: Bool?) {
        guard let v else { return }
        key(k)
        bytes.append(contentsOf: (v ? "true" : "false").utf8)
    }

    mutating func member(_ k: StaticString, _ v: JSONValue?) throws {
        guard let v else { return }
        key(k)
        try CastJSONWriter.write(json: v, to: &bytes)
    }

    mutating func member<E: OpenStringEnum>(_ k: StaticString, _ v: E?) {
        guard let v else { return }
        key(k)
        CastJSONWriter.writeString(v.rawValue, to: &bytes)
    }

    mutating func member<T: JSONWritable>(_ k: StaticString, _ v: T?) throws {
        guard let v else { return }
        key(k)
        try v.write(to: &self)
    }

    mutating func member<T: JSONWritable>(_ k: StaticString, _ v: [T]?) throws {
        guard let v else { return }
        key(k)
        bytes.append(UInt8(ascii: "["))
        for (i, element) in v.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            try element.write(to: &self)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func member(_ k: StaticString, _ v: [Int]?) {
        guard let v else { return }
        key(k)
        bytes.append(UInt8(ascii: "["))
        for (i, element) in v.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            CastJSONWriter.writeInt(Int64(element), to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func member(_ k: StaticString, _ v: [String]?) {
        guard let v else { return }
        key(k)
        bytes.append(UInt8(ascii: "["))
        for (i, element) in v.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            CastJSONWriter.writeString(element, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}

extension CastJSONWriter {
    /// The media messages that have a direct writer, or nil for the generic writer. Throws
    /// when a value cannot be JSON (a non-finite number), as the generic writer does.
    static func encodeDirectly(_ message: MediaMessage) throws -> String? {
        try encodeDirectlyToBytes(message).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The same as UTF-8 bytes (valid: every string in them came from a Swift String).
    static func encodeDirectlyToBytes(_ message: MediaMessage) throws -> [UInt8]? {
        var out = JSONOut()
        out.bytes.reserveCapacity(512)
        switch message {
        case .mediaStatus(let m): try m.write(to: &out, type: message.type)
        case .play(let m), .pause(let m), .stop(let m), .skipAd(let m), .getStatus(let m), .queueNext(let m), .queuePrev(let m):
            try m.write(to: &out, type: message.type)
        case .seek(let m): try m.write(to: &out, type: message.type)
        case .setPlaybackRate(let m): try m.write(to: &out, type: message.type)
        case .load(let m): try m.write(to: &out, type: message.type)
        default: return nil
        }
        return out.bytes
    }
}

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
