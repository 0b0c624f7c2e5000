// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The one-pass readers of MediaStatus, its parts, the queue and the MEDIA_STATUS message; how the readers work: Reading.swift.

extension Volume: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        self.init()
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "level": level = try r.optionalDouble()
            case "muted": muted = try r.optionalBool()
            case "controlType": controlType = try r.optionalString()
            case "stepInterval": stepInterval = try r.optionalDouble()
            default: try r.skipValue()
            }
        }
    }
}

extension QueueItem: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        self.init()
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "itemId": itemId = try r.optionalInt()
            case "media": media = try r.optional(MediaInformation.self)
            case "autoplay": autoplay = try r.optionalBool()
            case "startTime": startTime = try r.optionalDouble()
            case "playbackDuration": playbackDuration = try r.optionalDouble()
            case "preloadTime": preloadTime = try r.optionalDouble()
            case "activeTrackIds": activeTrackIds = try r.optionalInts()
            case "customData": customData = try r.optionalValue()
            default: try r.skipValue()
            }
        }
    }
}

extension QueueData: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        self.init()
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "id": id = try r.optionalString()
            case "name": name = try r.optionalString()
            case "description": description = try r.optionalString()
            case "entity": entity = try r.optionalString()
            case "queueType": queueType = try r.optionalString()
            case "repeatMode": repeatMode = try r.optionalEnum(RepeatMode.self)
            case "shuffle": shuffle = try r.optionalBool()
            case "items": items = try r.optionalArray(of: QueueItem.self)
            case "startIndex": startIndex = try r.optionalInt()
            case "startTime": startTime = try r.optionalDouble()
            default: try r.skipValue()
            }
        }
    }
}

extension LiveSeekableRange: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "start": start = try r.optionalDouble()
            case "end": end = try r.optionalDouble()
            case "isMovingWindow": isMovingWindow = try r.optionalBool()
            case "isLiveDone": isLiveDone = try r.optionalBool()
            default: try r.skipValue()
            }
        }
    }
}

extension VideoInfo: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "width": width = try r.optionalInt()
            case "height": height = try r.optionalInt()
            case "hdrType": hdrType = try r.optionalString()
            default: try r.skipValue()
            }
        }
    }
}

extension ExtendedMediaStatus: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        self.init()
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "playerState": playerState = try r.optionalEnum(PlayerState.self)
            case "media": media = try r.optional(MediaInformation.self)
            case "mediaSessionId": mediaSessionId = try r.optionalInt()
            default: try r.skipValue()
            }
        }
    }
}

extension MediaStatus: JSONReadable {
    init(reading r: inout JSONParser) throws(JSONParser.Failure) {
        var session: Int?
        var state: PlayerState?
        // The members go straight into the storage the value will hold (a status is ~590
        // bytes: built apart, it would be copied in at the end).
        let storage = CopyOnWrite<Fields>.Storage(Fields(mediaSessionId: 0, playerState: .idle))
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "mediaSessionId": session = try r.readInt()
            case "playerState": state = try r.readEnum(PlayerState.self)
            case "idleReason": storage.fields.idleReason = try r.optionalEnum(IdleReason.self)
            case "currentTime": storage.fields.currentTime = try r.optionalDouble()
            case "playbackRate": storage.fields.playbackRate = try r.optionalDouble()
            case "supportedMediaCommands":
                storage.fields.supportedMediaCommands = try r.takeNull() ? nil : MediaCommands(rawValue: try r.readInt())
            case "volume": storage.fields.volume = try r.optional(Volume.self)
            case "activeTrackIds": storage.fields.activeTrackIds = try r.optionalInts()
            case "media": storage.fields.media = try r.optional(MediaInformation.self)
            case "breakStatus": storage.fields.breakStatus = try r.optional(BreakStatus.self)
            case "currentItemId": storage.fields.currentItemId = try r.optionalInt()
            case "loadingItemId": storage.fields.loadingItemId = try r.optionalInt()
            case "preloadedItemId": storage.fields.preloadedItemId = try r.optionalInt()
            case "items": storage.fields.items = try r.optionalArray(of: QueueItem.self)
            case "repeatMode": storage.fields.repeatMode = try r.optionalEnum(RepeatMode.self)
            case "queueData": storage.fields.queueData = try r.optional(QueueData.self)
            case "liveSeekableRange": storage.fields.liveSeekableRange = try r.optional(LiveSeekableRange.self)
            case "videoInfo": storage.fields.videoInfo = try r.optional(VideoInfo.self)
            case "extendedStatus": storage.fields.extendedStatus = try r.optional(ExtendedMediaStatus.self)
            case "customData": storage.fields.customData = try r.optionalValue()
            default: try r.skipValue()
            }
        }
        guard let session, let state else { throw r.fail("missing mediaSessionId or playerState") }
        storage.fields.mediaSessionId = session
        storage.fields.playerState = state
        self.init(filled: storage)
    }
}

extension MediaMessage {
    /// MEDIA_STATUS read in one pass. The `type` may come after `status` (senders that sort
    /// keys put it last), so `status` is read when it comes; nil when the message is of
    /// another type, which the tree path decodes.
    static func readStatus(_ r: inout JSONParser) throws(JSONParser.Failure) -> MediaMessage? {
        var isStatus: Bool?
        var requestId: Int?
        var status: [MediaStatus]?
        var customData: JSONValue?
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "type":
                guard try !r.takeNull() else { return nil }
                isStatus = try r.readString() == "MEDIA_STATUS"
                if isStatus == false { return nil }
            case "requestId": requestId = try r.optionalInt()
            case "status":
                if isStatus == nil, try r.peek() != UInt8(ascii: "[") { return nil }
                status = try r.optionalArray(of: MediaStatus.self)
            case "customData": customData = try r.optionalValue()
            default: try r.skipValue()
            }
        }
        guard isStatus == true, let status else { return nil }
        return .mediaStatus(MediaStatusMessage(requestId: requestId, status: status, customData: customData))
    }
}
