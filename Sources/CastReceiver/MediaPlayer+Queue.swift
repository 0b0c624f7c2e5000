// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol

extension MediaPlayer {
    // MARK: Queue

    mutating func queueInsert(_ r: QueueInsertRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        guard !r.items.isEmpty, r.items.allSatisfy({ $0.itemId == nil && $0.media != nil }) else {
            return .error(type: "INVALID_REQUEST", reason: .invalidParams)
        }
        let new = r.items.map {
            var i = $0
            i.itemId = takeItemId()
            return i
        }
        let at = r.insertBefore.flatMap { id in items.firstIndex { $0.itemId == id } } ?? items.count
        items.insert(contentsOf: new, at: at)
        noteQueueChange(.insert, new.compactMap(\.itemId), insertBefore: at < items.count - new.count ? items[at + new.count].itemId : nil)
        if let index = r.currentItemIndex, new.indices.contains(index) {
            playItem(at: at + index, startTime: r.currentTime, now: now)
        } else if let id = r.currentItemId, let index = items.firstIndex(where: { $0.itemId == id }) {
            playItem(at: index, startTime: r.currentTime, now: now)
        }
        return .status
    }

    mutating func queueRemove(_ r: QueueItemsRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        let remove = Set(r.itemIds)
        guard !remove.isEmpty else { return .error(type: "INVALID_REQUEST", reason: .invalidParams) }
        let oldIndex = currentIndex ?? 0
        let removesCurrent = currentItemId.map(remove.contains) ?? false
        let removed = items.compactMap(\.itemId).filter(remove.contains)
        items.removeAll { remove.contains($0.itemId ?? -1) }
        if !removed.isEmpty { noteQueueChange(.remove, removed) }
        if items.isEmpty {
            rebase(now)
            playerState = .idle
            idleReason = .finished
            breakPlayback = nil
            currentItemId = nil
        } else if let id = r.currentItemId, let index = items.firstIndex(where: { $0.itemId == id }) {
            playItem(at: index, startTime: r.currentTime, now: now)
        } else if removesCurrent {
            playItem(at: min(oldIndex, items.count - 1), startTime: nil, now: now)
        }
        return .status
    }

    mutating func queueReorder(_ r: QueueItemsRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        let ids = r.itemIds
        guard !ids.isEmpty, ids.allSatisfy({ id in items.contains { $0.itemId == id } }) else {
            return .error(type: "INVALID_REQUEST", reason: .invalidParams)
        }
        let moving = ids.compactMap { id in items.first { $0.itemId == id } }
        items.removeAll { ids.contains($0.itemId ?? -1) }
        let at = r.insertBefore.flatMap { id in items.firstIndex { $0.itemId == id } } ?? items.count
        items.insert(contentsOf: moving, at: at)
        noteQueueChange(.update, items.compactMap(\.itemId), reorder: ids)
        return .status
    }

    mutating func queueUpdate(_ r: QueueUpdateRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        if let mode = r.repeatMode { repeatMode = mode }
        var changed: [Int] = []
        for update in r.items ?? [] {
            if let index = items.firstIndex(where: { $0.itemId == update.itemId && update.itemId != nil }) {
                var merged = update
                if merged.media == nil { merged.media = items[index].media }
                items[index] = merged
                changed.append(index)
            }
        }
        if !changed.isEmpty { noteQueueChange(.itemsChange, changed.compactMap { items[$0].itemId }) }
        if r.shuffle == true { shuffle() }
        if let jump = r.jump, jump != 0 {
            return self.jump(by: jump, now: now)
        }
        if let id = r.currentItemId {
            guard let index = items.firstIndex(where: { $0.itemId == id }) else {
                return .error(type: "INVALID_REQUEST", reason: .invalidParams)
            }
            playItem(at: index, startTime: r.currentTime, now: now)
        }
        return .status
    }

    mutating func jump(_ r: MediaSessionRequest, by offset: Int, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        return jump(by: offset, now: now)
    }

    mutating func jump(by offset: Int, now: Double) -> Reply {
        guard let index = currentIndex, !items.isEmpty else { return .error(type: "INVALID_PLAYER_STATE", reason: nil) }
        var target = index + offset
        if !items.indices.contains(target) {
            switch repeatMode {
            case .all, .allAndShuffle:
                target = ((target % items.count) + items.count) % items.count
            default:
                return .error(type: "INVALID_REQUEST", reason: .endOfQueue)
            }
        }
        playItem(at: target, startTime: nil, now: now)
        return .status
    }
}
