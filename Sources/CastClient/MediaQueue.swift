// SPDX-License-Identifier: GPL-3.0-or-later
import CastProtocol

/// The receiver's queue as this sender knows it, like the Cast SDK's GCKMediaQueue: the
/// ordered item ids, the current item, and the items fetched so far, cached by id.
///
/// The ids come from QUEUE_GET_ITEM_IDS and are kept in step by QUEUE_CHANGE notifications
/// (whoever made the change); items come lazily, a window at a time, from QUEUE_GET_ITEMS
/// (`RemoteMediaClient.queueItems(at:)`), plus the current and preloaded items each
/// MEDIA_STATUS carries. When a notification is missed (a gap in `sequenceNumber`) or the
/// status names an item the list does not have, the list is marked stale and fetched again.
public struct MediaQueue: Sendable, Equatable {
    /// The media session the queue belongs to (nil: no queue).
    public var mediaSessionID: Int?
    /// Every item id in play order (empty until fetched).
    public var itemIDs: [Int] = []
    /// The current item's id.
    public var currentItemID: Int?
    /// The next item the receiver has started to load, if any.
    public var preloadedItemID: Int?
    public var repeatMode: RepeatMode = .off
    /// Items fetched so far, by id (a cache: an item missing here is fetched on demand).
    public var cachedItems: [Int: QueueItem] = [:]
    /// The last QUEUE_CHANGE / QUEUE_ITEM_IDS sequence number seen.
    public var sequenceNumber: Int?
    /// True when `itemIDs` may be out of date and must be fetched again.
    public var isStale = true

    public init() {}

    /// Number of items in the queue (as far as known).
    public var count: Int { itemIDs.count }
    /// Whether there is more than one item: what previous/next buttons depend on.
    public var hasQueue: Bool { itemIDs.count > 1 }
    /// The 0-based position of the current item.
    public var currentIndex: Int? { currentItemID.flatMap { itemIDs.firstIndex(of: $0) } }

    /// The cached item at `index`, nil when not fetched yet (or out of range).
    public func item(at index: Int) -> QueueItem? {
        guard itemIDs.indices.contains(index) else { return nil }
        return cachedItems[itemIDs[index]]
    }

    /// The id an item inserted to "play next" goes before: the one after the current
    /// item (nil = at the end).
    public var playNextInsertBefore: Int? {
        guard let i = currentIndex, i + 1 < itemIDs.count else { return nil }
        return itemIDs[i + 1]
    }

    // MARK: applying what the receiver says

    /// A MEDIA_STATUS (nil: no media session). Returns whether anything changed.
    mutating func apply(status: MediaStatus?) {
        guard let status else {
            self = MediaQueue()
            return
        }
        if status.mediaSessionId != mediaSessionID {
            self = MediaQueue()
            mediaSessionID = status.mediaSessionId
        }
        currentItemID = status.currentItemId
        preloadedItemID = status.preloadedItemId
        if let mode = status.repeatMode { repeatMode = mode }
        for item in status.items ?? [] {
            guard let id = item.itemId else { continue }
            if item.media != nil { cachedItems[id] = item }
            if !itemIDs.contains(id) { isStale = true }
        }
        if let current = currentItemID, !itemIDs.contains(current) { isStale = true }
    }

    /// A QUEUE_CHANGE.
    mutating func apply(change: QueueChangeMessage) {
        if let seq = change.sequenceNumber {
            // A gap means a change was missed: trust nothing but a fresh list.
            if let known = sequenceNumber, seq != known + 1, seq > known { isStale = true }
            if let known = sequenceNumber, seq <= known { return }  // already reflected in a later list
            sequenceNumber = seq
        }
        let ids = change.itemIds ?? []
        switch change.changeType {
        case .insert?:
            let fresh = ids.filter { !itemIDs.contains($0) }
            let at = change.insertBefore.flatMap { itemIDs.firstIndex(of: $0) } ?? itemIDs.count
            itemIDs.insert(contentsOf: fresh, at: at)
        case .remove?:
            let gone = Set(ids)
            itemIDs.removeAll(where: gone.contains)
            for id in gone { cachedItems[id] = nil }
        case .update?:
            // The whole order (after a reorder or shuffle).
            if !ids.isEmpty {
                itemIDs = ids
                cachedItems = cachedItems.filter { ids.contains($0.key) }
            }
        case .itemsChange?:
            for id in ids { cachedItems[id] = nil }
        case .noChange?:
            break
        case .unknown?, nil:
            isStale = true
        }
    }

    /// A QUEUE_ITEM_IDS answer: the authoritative list.
    mutating func apply(ids message: QueueItemIDsMessage) {
        itemIDs = message.itemIds
        let known = Set(message.itemIds)
        cachedItems = cachedItems.filter { known.contains($0.key) }
        if let seq = message.sequenceNumber { sequenceNumber = seq }
        isStale = false
    }

    /// A QUEUE_ITEMS answer.
    mutating func apply(items message: QueueItemsMessage) {
        for item in message.items {
            if let id = item.itemId, itemIDs.contains(id) || itemIDs.isEmpty { cachedItems[id] = item }
        }
    }
}
