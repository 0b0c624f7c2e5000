// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol

/// Queue commands, and reading the queue a window at a time.
extension RemoteMediaClient {
    /// Largest JSON a queue request's items may take: a frame holds 65,536 bytes, the
    /// envelope and the other fields need the rest.
    static let maxItemsBytesPerRequest = 48_000
    /// Items asked for per QUEUE_GET_ITEMS (what a Web Receiver answers at most).
    public static let itemWindow = 20

    /// Replaces whatever plays with a queue of items. A queue too large for one message is
    /// loaded with as many items as fit, and the rest follow with QUEUE_INSERTs.
    @discardableResult
    public func queueLoad(
        _ items: [QueueItem], startIndex: Int = 0, repeatMode: RepeatMode = .off, startTime: Double? = nil
    ) async throws(CastClientError) -> MediaStatus? {
        guard !items.isEmpty else { throw .invalidArgument("A queue needs at least one item.") }
        guard items.indices.contains(startIndex) else { throw .invalidArgument("The start index \(startIndex) is outside the queue of \(items.count) items.") }
        let clean = items.map {
            var i = $0
            i.itemId = nil
            return i
        }
        let firstBatch = try Self.batches(clean)[0]
        if startIndex < firstBatch.count {
            var status = try await send("QUEUE_LOAD") {
                .queueLoad(QueueLoadRequest(requestId: $0, items: firstBatch, startIndex: startIndex, repeatMode: repeatMode, currentTime: startTime))
            }
            let rest = Array(clean[firstBatch.count...])
            if !rest.isEmpty { status = try await queueInsert(rest) }
            return status
        }
        // The start item lies beyond the first message: load from it, append what follows,
        // then put back the items before it, in front.
        let fromStart = try Self.batches(Array(clean[startIndex...]))[0]
        var status = try await send("QUEUE_LOAD") {
            .queueLoad(QueueLoadRequest(requestId: $0, items: fromStart, startIndex: 0, repeatMode: repeatMode, currentTime: startTime))
        }
        let after = Array(clean[(startIndex + fromStart.count)...])
        if !after.isEmpty { status = try await queueInsert(after) }
        guard let head = status?.currentItemId else { return status }
        status = try await queueInsert(Array(clean[..<startIndex]), before: head)
        return status
    }

    /// Splits items into groups whose JSON fits in one message.
    static func batches(_ items: [QueueItem]) throws(CastClientError) -> [[QueueItem]] {
        var out: [[QueueItem]] = []
        var current: [QueueItem] = []
        var size = 0
        for item in items {
            let bytes = CastJSON.encode(item).utf8.count + 1
            guard bytes < maxItemsBytesPerRequest else {
                throw .invalidArgument("A queue item is too large to send (\(bytes) bytes of JSON): \(item.media?.contentId ?? "?")")
            }
            if size + bytes > maxItemsBytesPerRequest, !current.isEmpty {
                out.append(current)
                current = []
                size = 0
            }
            current.append(item)
            size += bytes
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// Inserts items before the item `beforeItemID` (nil = at the end).
    @discardableResult
    public func queueInsert(_ items: [QueueItem], before beforeItemID: Int? = nil) async throws(CastClientError) -> MediaStatus? {
        guard !items.isEmpty else { throw .invalidArgument("Give at least one item to insert.") }
        let id = try mediaSession(for: "QUEUE_INSERT", needs: [])
        let clean = items.map {
            var i = $0
            i.itemId = nil
            return i
        }
        var status: MediaStatus?
        for batch in try Self.batches(clean) {
            status = try await send("QUEUE_INSERT") {
                .queueInsert(QueueInsertRequest(requestId: $0, mediaSessionId: id, items: batch, insertBefore: beforeItemID))
            }
        }
        return status
    }

    /// Inserts items right after the current one ("Play Next").
    @discardableResult
    public func queueInsertNext(_ items: [QueueItem]) async throws(CastClientError) -> MediaStatus? {
        if queue.isStale { try await refreshQueue() }
        return try await queueInsert(items, before: queue.playNextInsertBefore)
    }

    /// Removes items from the queue.
    @discardableResult
    public func queueRemove(_ itemIDs: [Int]) async throws(CastClientError) -> MediaStatus? {
        guard !itemIDs.isEmpty else { throw .invalidArgument("Give at least one item id to remove.") }
        let id = try mediaSession(for: "QUEUE_REMOVE", needs: [])
        return try await send("QUEUE_REMOVE") { .queueRemove(QueueItemsRequest(requestId: $0, mediaSessionId: id, itemIds: itemIDs)) }
    }

    /// Moves items (in the order given) before `beforeItemID` (nil = to the end).
    @discardableResult
    public func queueReorder(_ itemIDs: [Int], before beforeItemID: Int? = nil) async throws(CastClientError) -> MediaStatus? {
        guard !itemIDs.isEmpty else { throw .invalidArgument("Give at least one item id to move.") }
        let id = try mediaSession(for: "QUEUE_REORDER", needs: [])
        return try await send("QUEUE_REORDER") {
            .queueReorder(QueueItemsRequest(requestId: $0, mediaSessionId: id, itemIds: itemIDs, insertBefore: beforeItemID))
        }
    }

    /// Moves the item at 0-based `from` so that it ends up at 0-based `to`.
    @discardableResult
    public func queueMove(from: Int, to: Int) async throws(CastClientError) -> MediaStatus? {
        if queue.isStale { try await refreshQueue() }
        let ids = queue.itemIDs
        guard ids.indices.contains(from) else { throw .invalidArgument("There is no item \(from + 1) in the queue of \(ids.count).") }
        guard ids.indices.contains(to) else { throw .invalidArgument("Position \(to + 1) is outside the queue of \(ids.count).") }
        guard from != to else { return status }
        let moving = ids[from]
        var rest = ids
        rest.remove(at: from)
        let before = to < rest.count ? rest[to] : nil
        return try await queueReorder([moving], before: before)
    }

    @discardableResult
    public func queueNext() async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "QUEUE_NEXT", needs: .queueNext)
        return try await send("QUEUE_NEXT") { .queueNext(MediaSessionRequest(requestId: $0, mediaSessionId: id)) }
    }

    @discardableResult
    public func queuePrev() async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "QUEUE_PREV", needs: .queuePrev)
        return try await send("QUEUE_PREV") { .queuePrev(MediaSessionRequest(requestId: $0, mediaSessionId: id)) }
    }

    /// Makes `itemID` the current item.
    @discardableResult
    public func queueJump(to itemID: Int, startTime: Double? = nil) async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "QUEUE_UPDATE", needs: [])
        return try await send("QUEUE_UPDATE") {
            .queueUpdate(QueueUpdateRequest(requestId: $0, mediaSessionId: id, currentItemId: itemID, currentTime: startTime))
        }
    }

    /// Sets the repeat mode (off, all, single, all-and-shuffle).
    @discardableResult
    public func setRepeatMode(_ mode: RepeatMode) async throws(CastClientError) -> MediaStatus? {
        let needs: MediaCommands =
            switch mode {
            case .all: .queueRepeatAll
            case .single: .queueRepeatOne
            case .allAndShuffle: [.queueRepeatAll, .queueShuffle]
            default: []
            }
        let id = try mediaSession(for: "QUEUE_UPDATE", needs: needs)
        return try await send("QUEUE_UPDATE") { .queueUpdate(QueueUpdateRequest(requestId: $0, mediaSessionId: id, repeatMode: mode)) }
    }

    /// Shuffles the queue once (the current item stays current).
    @discardableResult
    public func queueShuffle() async throws(CastClientError) -> MediaStatus? {
        let id = try mediaSession(for: "QUEUE_SHUFFLE", needs: .queueShuffle)
        return try await send("QUEUE_SHUFFLE") { .queueShuffle(MediaSessionRequest(requestId: $0, mediaSessionId: id)) }
    }

    // MARK: reading the queue

    /// Fetches the list of item ids (QUEUE_GET_ITEM_IDS) and returns the updated queue.
    @discardableResult
    public func refreshQueue() async throws(CastClientError) -> MediaQueue {
        let id = try mediaSession(for: "QUEUE_GET_ITEM_IDS", needs: [])
        _ = try await request("QUEUE_GET_ITEM_IDS") { .queueGetItemIDs(MediaSessionRequest(requestId: $0, mediaSessionId: id)) }
        return queue
    }

    /// The items at these 0-based positions, fetching those not cached yet in windows of
    /// `itemWindow` (QUEUE_GET_ITEMS). Positions outside the queue are left out.
    public func queueItems(at positions: Range<Int>) async throws(CastClientError) -> [QueueItem] {
        if queue.isStale { try await refreshQueue() }
        let ids = queue.itemIDs
        let wanted = positions.clamped(to: 0..<ids.count).map { ids[$0] }
        try await fetchItems(wanted)
        let cache = queue.cachedItems
        return wanted.compactMap { cache[$0] }
    }

    /// Fetches the items of these ids that are not cached.
    public func fetchItems(_ ids: [Int]) async throws(CastClientError) {
        var missing = ids.filter { queue.cachedItems[$0] == nil }
        while !missing.isEmpty {
            let window = Array(missing.prefix(Self.itemWindow))
            missing.removeFirst(window.count)
            let id = try mediaSession(for: "QUEUE_GET_ITEMS", needs: [])
            let answer = try await request("QUEUE_GET_ITEMS") { .queueGetItems(QueueGetItemsRequest(requestId: $0, mediaSessionId: id, itemIds: window)) }
            if case .queueItems(let m) = answer { countFetched(m.items.count) }
            // Ids the receiver did not answer for were removed meanwhile: nothing to retry.
        }
    }
}
