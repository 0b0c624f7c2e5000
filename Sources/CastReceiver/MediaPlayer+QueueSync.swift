// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol

/// What a Web Receiver adds to a queue beyond playing it: the ids and items on request,
/// a numbered QUEUE_CHANGE after every edit, shuffling, and preloading the next item.
extension MediaPlayer {
    /// Records an edit: the receiver sends it to every sender of the app.
    mutating func noteQueueChange(_ type: QueueChangeType, _ ids: [Int], insertBefore: Int? = nil, reorder: [Int]? = nil) {
        queueSequence += 1
        pendingQueueChanges.append(
            QueueChangeMessage(requestId: 0, changeType: type, itemIds: ids, insertBefore: insertBefore, reorderItemIds: reorder, sequenceNumber: queueSequence)
        )
    }

    /// Hands over the changes made since the last call.
    mutating func takeQueueChanges() -> [QueueChangeMessage] {
        defer { pendingQueueChanges = [] }
        return pendingQueueChanges
    }

    /// QUEUE_GET_ITEM_IDS: every id in order.
    func queueItemIDs(_ r: MediaSessionRequest) -> Result<QueueItemIDsMessage, QueueReadFailure> {
        if let e = sessionError(r.mediaSessionId, requestId: r.requestId) { return .failure(QueueReadFailure(reply: e)) }
        return .success(QueueItemIDsMessage(requestId: r.requestId, itemIds: items.compactMap(\.itemId), sequenceNumber: queueSequence))
    }

    /// At most this many items per QUEUE_ITEMS answer, so the answer fits in one frame.
    static let maxItemsPerAnswer = 20

    /// QUEUE_GET_ITEMS: the items of these ids, in the order asked; unknown ids are left out
    /// and so are ids beyond `maxItemsPerAnswer` (the sender asks again for what is missing).
    func queueItems(_ r: QueueGetItemsRequest) -> Result<QueueItemsMessage, QueueReadFailure> {
        if let e = sessionError(r.mediaSessionId, requestId: r.requestId) { return .failure(QueueReadFailure(reply: e)) }
        guard !r.itemIds.isEmpty else { return .failure(QueueReadFailure(reply: ErrorReply(requestId: r.requestId, reason: .invalidParams))) }
        var byID: [Int: QueueItem] = [:]
        for item in items { if let id = item.itemId { byID[id] = item } }
        let found = r.itemIds.prefix(Self.maxItemsPerAnswer).compactMap { byID[$0] }
        return .success(QueueItemsMessage(requestId: r.requestId, items: found, sequenceNumber: queueSequence))
    }

    /// Queue reads are allowed while the queue exists, even when the player is paused or
    /// the last item finished.
    func sessionError(_ requested: Int?, requestId: Int) -> ErrorReply? {
        guard hasSession else { return ErrorReply(requestId: requestId, reason: nil) }
        if let requested, requested != mediaSessionId { return ErrorReply(requestId: requestId, reason: .invalidMediaSessionID) }
        return nil
    }

    /// QUEUE_SHUFFLE (or QUEUE_UPDATE with `shuffle: true`).
    mutating func queueShuffle(_ r: MediaSessionRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        shuffle()
        return .status
    }

    /// Puts the items in a random order with the current item first, so that everything
    /// else comes after it, and tells the senders the new order.
    mutating func shuffle() {
        guard items.count > 1 else { return }
        var rest = items.filter { $0.itemId != currentItemId }
        rest.shuffle()
        items = items.filter { $0.itemId == currentItemId } + rest
        noteQueueChange(.update, items.compactMap(\.itemId))
    }

    /// The index that follows `index` when the current item ends, by the repeat mode.
    func followingIndex(after index: Int) -> Int? {
        switch repeatMode {
        case .single: return index
        case .all, .allAndShuffle: return items.isEmpty ? nil : (index + 1) % items.count
        default: return index + 1 < items.count ? index + 1 : nil
        }
    }

    /// The next item once the current one is within the next item's `preloadTime` of its
    /// end (as a Web Receiver starts loading it then); nil otherwise.
    func preloadedItemId(at now: Double) -> Int? {
        guard playerState == .playing || playerState == .paused, breakPlayback == nil,
            let index = currentIndex, let next = followingIndex(after: index), next != index,
            let preload = items[next].preloadTime, preload > 0,
            let duration = media?.duration, duration >= 0
        else { return nil }
        return duration - position(at: now) <= preload ? items[next].itemId : nil
    }
}

/// A queue read refused: the error reply to send.
struct QueueReadFailure: Error {
    var reply: ErrorReply
}
