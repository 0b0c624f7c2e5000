// SPDX-License-Identifier: GPL-3.0-or-later
// The queue model (MediaQueue) of two senders against the in-process simulator.
import CastProtocol
import Foundation
import Testing

@testable import CastClient

@Suite("MediaQueue kept in step with the receiver", .serialized, .timeLimit(.minutes(2)))
struct MediaQueueTests {
    static func song(_ n: Int) -> QueueItem {
        var metadata = MediaMetadata(metadataType: .musicTrack, title: "Song \(n)")
        metadata.artist = "Band"
        return QueueItem(
            media: MediaInformation(contentId: "https://example.com/music/\(n).mp3", contentType: "audio/mpeg", metadata: metadata, duration: 200),
            autoplay: true)
    }

    @Test func twoSendersSeeEachOthersEdits() async throws {
        let sim = try await Simulator.start()
        let a = CastSession(device: sim.address, configuration: testConfiguration())
        let b = CastSession(device: sim.address, configuration: testConfiguration())
        defer {
            Task {
                await a.leave()
                await b.leave()
                await sim.stop()
            }
        }
        try await a.start()
        try await a.media.queueLoad((1...5).map(Self.song), startIndex: 0, repeatMode: .off)
        try await b.join()
        // Subscribing makes B fetch the ids by itself.
        let updates = await b.media.queueUpdates()
        _ = updates
        try await eventually("B to know the five ids") {
            let q = await b.media.queue
            return q.itemIDs.count == 5 && !q.isStale
        }
        let ids = try await sim.queueIDs()
        #expect(await b.media.queue.itemIDs == ids)
        #expect(await b.media.queue.currentItemID == ids[0])
        // The current item came with the status: cached without a fetch.
        #expect(await b.media.queue.cachedItems[ids[0]]?.media?.metadata?.title == "Song 1")

        // A: play next → B sees it right after the current item.
        _ = await a.media.queueUpdates()
        try await eventually("A to know the ids") { await a.media.queue.itemIDs.count == 5 }
        try await a.media.queueInsertNext([Self.song(6)])
        try await eventually("B to see the insert") { await b.media.queue.itemIDs.count == 6 }
        let afterInsert = try await sim.queueIDs()
        #expect(await b.media.queue.itemIDs == afterInsert)
        #expect(afterInsert.count == 6 && !ids.contains(afterInsert[1]))
        let items = try await b.media.queueItems(at: 0..<3)
        #expect(items.map { $0.media?.metadata?.title } == ["Song 1", "Song 6", "Song 2"])

        // B: move the last item to the front, remove one; A follows.
        try await b.media.queueMove(from: 5, to: 0)
        try await eventually("A to see the move") { await a.media.queue.itemIDs.first == ids[4] }
        try await b.media.queueRemove([ids[1]])
        try await eventually("A to see the removal") { await !a.media.queue.itemIDs.contains(ids[1]) }
        #expect(await a.media.queue.itemIDs == (try await sim.queueIDs()))
        #expect(await a.media.queue.cachedItems[ids[1]] == nil)

        // Jump, next, repeat: both see the current item and mode.
        // Now: 5, 1, 6, 3, 4.
        try await a.media.queueJump(to: ids[2])
        try await eventually("B to see the jump") { await b.media.queue.currentItemID == ids[2] }
        try await b.media.queueNext()
        try await eventually("A to see next") { await a.media.queue.currentItemID == ids[3] }
        #expect(await a.media.queue.currentIndex == 4)
        for mode: RepeatMode in [.all, .single, .allAndShuffle, .off] {
            try await b.media.setRepeatMode(mode)
            #expect(try await sim.media()?.repeatMode == mode)
            try await eventually("A to see \(mode)") { await a.media.queue.repeatMode == mode }
        }
        try await a.media.queueShuffle()
        let shuffled = try await sim.queueIDs()
        try await eventually("B to see the shuffle") { await b.media.queue.itemIDs == shuffled }
        #expect(await b.media.queue.currentItemID == shuffled.first)
    }

    /// A queue of 1,000 items: loaded in pieces that fit a frame, listed by id, and only
    /// the windows looked at are fetched.
    @Test func aLongQueueIsFetchedLazily() async throws {
        let sim = try await Simulator.start()
        let a = CastSession(device: sim.address, configuration: testConfiguration())
        defer {
            Task {
                await a.leave()
                await sim.stop()
            }
        }
        try await a.start()
        try await a.media.queueLoad((1...1000).map(Self.song), startIndex: 0)
        #expect(try await sim.queueIDs().count == 1000)
        let b = CastSession(device: sim.address, configuration: testConfiguration())
        defer { Task { await b.leave() } }
        try await b.join()
        _ = await b.media.queueUpdates()
        try await eventually("the ids") { await b.media.queue.itemIDs.count == 1000 }
        let window = try await b.media.queueItems(at: 500..<530)
        #expect(window.map { $0.media?.metadata?.title } == (501...530).map { "Song \($0)" })
        #expect(await b.media.queueItemsFetched == 30)
        // Again: served from the cache.
        _ = try await b.media.queueItems(at: 510..<520)
        #expect(await b.media.queueItemsFetched == 30)
        #expect(await b.media.queue.cachedItems.count < 40)
    }

    /// Starting in the middle of a long queue keeps the order.
    @Test func aLongQueueStartingLaterKeepsItsOrder() async throws {
        let sim = try await Simulator.start()
        let a = CastSession(device: sim.address, configuration: testConfiguration())
        defer {
            Task {
                await a.leave()
                await sim.stop()
            }
        }
        try await a.start()
        try await a.media.queueLoad((1...600).map(Self.song), startIndex: 450)
        let items = try await sim.server.queueItems()
        #expect(items.map { $0.media?.metadata?.title } == (1...600).map { "Song \($0)" })
        #expect(try await sim.media()?.media?.metadata?.title == "Song 451")
    }

    /// A missed QUEUE_CHANGE (a gap in the sequence numbers) makes the list stale.
    @Test func aGapInSequenceNumbersMarksTheListStale() {
        var q = MediaQueue()
        q.apply(ids: QueueItemIDsMessage(requestId: 1, itemIds: [1, 2, 3], sequenceNumber: 4))
        #expect(!q.isStale)
        q.apply(change: QueueChangeMessage(requestId: 0, changeType: .insert, itemIds: [9], insertBefore: 2, sequenceNumber: 5))
        #expect(q.itemIDs == [1, 9, 2, 3] && !q.isStale)
        q.apply(change: QueueChangeMessage(requestId: 0, changeType: .remove, itemIds: [1], sequenceNumber: 7))
        #expect(q.isStale)
        // An old change (already in a newer list) is ignored.
        q.apply(ids: QueueItemIDsMessage(requestId: 2, itemIds: [9, 2, 3], sequenceNumber: 7))
        q.apply(change: QueueChangeMessage(requestId: 0, changeType: .insert, itemIds: [1], sequenceNumber: 6))
        #expect(q.itemIDs == [9, 2, 3] && !q.isStale)
        q.apply(change: QueueChangeMessage(requestId: 0, changeType: .update, itemIds: [3, 9, 2], sequenceNumber: 8))
        #expect(q.itemIDs == [3, 9, 2])
    }
}
