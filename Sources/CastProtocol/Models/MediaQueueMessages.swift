// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The queue requests and replies on urn:x-cast:com.google.cast.media; MediaMessage and the other media messages are in MediaMessages.swift.

/// QUEUE_LOAD: replace whatever plays with a queue.
public struct QueueLoadRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var sessionId: String?
    public var items: [QueueItem]
    public var startIndex: Int?
    public var repeatMode: RepeatMode?
    public var currentTime: Double?
    public var customData: JSONValue?
    public init(
        requestId: Int, items: [QueueItem], startIndex: Int? = 0, repeatMode: RepeatMode? = .off, currentTime: Double? = nil, customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.items = items
        self.startIndex = startIndex
        self.repeatMode = repeatMode
        self.currentTime = currentTime
        self.customData = customData
    }
}

/// QUEUE_INSERT: add items before `insertBefore` (absent = append).
public struct QueueInsertRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var items: [QueueItem]
    public var insertBefore: Int?
    public var currentItemId: Int?
    public var currentItemIndex: Int?
    public var currentTime: Double?
    public var customData: JSONValue?
    public init(
        requestId: Int, mediaSessionId: Int?, items: [QueueItem], insertBefore: Int? = nil, currentItemId: Int? = nil, currentItemIndex: Int? = nil,
        currentTime: Double? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.items = items
        self.insertBefore = insertBefore
        self.currentItemId = currentItemId
        self.currentItemIndex = currentItemIndex
        self.currentTime = currentTime
    }
}

/// QUEUE_UPDATE: jump, change the current item, replace items, change repeat or shuffle.
public struct QueueUpdateRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var jump: Int?
    public var currentItemId: Int?
    public var currentTime: Double?
    public var items: [QueueItem]?
    public var repeatMode: RepeatMode?
    public var shuffle: Bool?
    public var customData: JSONValue?
    public init(
        requestId: Int, mediaSessionId: Int?, jump: Int? = nil, currentItemId: Int? = nil, currentTime: Double? = nil, items: [QueueItem]? = nil,
        repeatMode: RepeatMode? = nil, shuffle: Bool? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.jump = jump
        self.currentItemId = currentItemId
        self.currentTime = currentTime
        self.items = items
        self.repeatMode = repeatMode
        self.shuffle = shuffle
    }
}

/// QUEUE_REMOVE and QUEUE_REORDER.
public struct QueueItemsRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var itemIds: [Int]
    /// QUEUE_REORDER only.
    public var insertBefore: Int?
    public var currentItemId: Int?
    public var currentTime: Double?
    public var customData: JSONValue?
    public init(requestId: Int, mediaSessionId: Int?, itemIds: [Int], insertBefore: Int? = nil, currentItemId: Int? = nil, currentTime: Double? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.itemIds = itemIds
        self.insertBefore = insertBefore
        self.currentItemId = currentItemId
        self.currentTime = currentTime
    }
}

/// QUEUE_GET_ITEMS: the full items (with media) of these ids.
public struct QueueGetItemsRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var itemIds: [Int]
    public init(requestId: Int, mediaSessionId: Int?, itemIds: [Int]) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.itemIds = itemIds
    }
}

/// QUEUE_ITEM_IDS, the answer to QUEUE_GET_ITEM_IDS: every item id in queue order.
public struct QueueItemIDsMessage: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var itemIds: [Int]
    public var sequenceNumber: Int?
    public init(requestId: Int?, itemIds: [Int], sequenceNumber: Int? = nil) {
        self.requestId = requestId
        self.itemIds = itemIds
        self.sequenceNumber = sequenceNumber
    }
}

/// QUEUE_ITEMS, the answer to QUEUE_GET_ITEMS.
public struct QueueItemsMessage: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var items: [QueueItem]
    public var sequenceNumber: Int?
    public init(requestId: Int?, items: [QueueItem], sequenceNumber: Int? = nil) {
        self.requestId = requestId
        self.items = items
        self.sequenceNumber = sequenceNumber
    }
}

/// QUEUE_CHANGE: the receiver tells every sender how the queue changed. `sequenceNumber`
/// grows by one per change, so a sender that sees a gap knows it missed one and refetches.
public struct QueueChangeMessage: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var changeType: QueueChangeType?
    public var itemIds: [Int]?
    public var insertBefore: Int?
    /// Only for a reorder (then `changeType` is UPDATE and `itemIds` the whole queue).
    public var reorderItemIds: [Int]?
    public var sequenceNumber: Int?
    public init(
        requestId: Int?, changeType: QueueChangeType?, itemIds: [Int]?, insertBefore: Int? = nil, reorderItemIds: [Int]? = nil, sequenceNumber: Int? = nil
    ) {
        self.requestId = requestId
        self.changeType = changeType
        self.itemIds = itemIds
        self.insertBefore = insertBefore
        self.reorderItemIds = reorderItemIds
        self.sequenceNumber = sequenceNumber
    }
}
