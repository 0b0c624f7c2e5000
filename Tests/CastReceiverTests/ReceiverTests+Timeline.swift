// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import CastReceiver
import NIOCore
import NIOPosix
import XCTest

extension ReceiverTests {
    // MARK: - Ad breaks on a clock the test controls

    func testPreRollSkipAndMidRoll() async throws {
        try await startServer()
        let s = try await sender()
        let t = try await launch(s)
        let st = try await load(s, on: t, media: Self.withAds, requestId: 2)
        let id = st.mediaSessionId
        XCTAssertEqual(st.breakStatus?.breakId, "pre")
        XCTAssertEqual(st.breakStatus?.breakClipId, "c1")
        XCTAssertEqual(st.breakStatus?.whenSkippable, 5)
        XCTAssertEqual(st.currentTime, 0)

        try await server.advanceClock(by: 2)
        try await s.send(MediaMessage.skipAd(MediaSessionRequest(requestId: 3, mediaSessionId: id)), to: t)
        guard case .invalidRequest = try await s.mediaReply(requestId: 3) else { return XCTFail("SKIP_AD before whenSkippable accepted") }
        var now = try await status(s, t, requestId: 4, .getStatus(MediaSessionRequest(requestId: 4, mediaSessionId: id)))
        XCTAssertEqual(now.breakStatus?.currentBreakClipTime, 2)

        try await server.advanceClock(by: 3)
        now = try await status(s, t, requestId: 5, .skipAd(MediaSessionRequest(requestId: 5, mediaSessionId: id)))
        XCTAssertEqual(now.breakStatus?.breakClipId, "c2", "skipping c1 moves to the next clip of the break")
        XCTAssertEqual(now.breakStatus?.currentBreakTime, 5)
        XCTAssertNil(now.breakStatus?.whenSkippable, "c2 is not skippable")

        s.clear()
        try await server.advanceClock(by: 8)  // c2 over: pre-roll watched, content starts at 0
        let afterPre = try await s.firstStatus(requestId: 0)
        XCTAssertNil(afterPre.breakStatus)
        XCTAssertEqual(afterPre.currentTime, 0)
        XCTAssertEqual(afterPre.media?.breaks?.first { $0.id == "pre" }?.isWatched, true)

        s.clear()
        try await server.advanceClock(by: 42)  // reaches the mid-roll at 40 after 40 s, 2 s into it
        let mid = try await s.firstStatus(requestId: 0)
        XCTAssertEqual(mid.breakStatus?.breakId, "mid")
        now = try await status(s, t, requestId: 6, .getStatus(MediaSessionRequest(requestId: 6, mediaSessionId: id)))
        XCTAssertEqual(now.currentTime, 40)
        XCTAssertEqual(now.breakStatus?.currentBreakClipTime, 2)
        try await s.send(MediaMessage.seek(SeekRequest(requestId: 7, mediaSessionId: id, currentTime: 10)), to: t)
        guard case .invalidPlayerState = try await s.mediaReply(requestId: 7) else { return XCTFail("seek during an ad accepted") }
        now = try await status(s, t, requestId: 8, .skipAd(MediaSessionRequest(requestId: 8, mediaSessionId: id)))
        XCTAssertNil(now.breakStatus)
        XCTAssertEqual(now.currentTime, 40)
        XCTAssertEqual(now.media?.breaks?.first { $0.id == "mid" }?.isWatched, true)

        // Seeking back over a watched break plays nothing.
        now = try await status(s, t, requestId: 9, .seek(SeekRequest(requestId: 9, mediaSessionId: id, currentTime: 20)))
        XCTAssertNil(now.breakStatus)
        now = try await status(s, t, requestId: 10, .seek(SeekRequest(requestId: 10, mediaSessionId: id, currentTime: 45)))
        XCTAssertNil(now.breakStatus, "the mid-roll at 40 is watched")
        XCTAssertEqual(now.currentTime, 45)
    }

    func testSeekAcrossUnwatchedBreakAndPostRoll() async throws {
        try await startServer()
        let s = try await sender()
        let t = try await launch(s)
        // Start at 20: the pre-roll still plays first (position 0 ≤ 20), then content resumes at 20.
        let st = try await load(s, on: t, media: Self.withAds, requestId: 2, currentTime: 20)
        XCTAssertEqual(st.breakStatus?.breakId, "pre")
        let id = st.mediaSessionId
        try await server.advanceClock(by: 18)
        var now = try await status(s, t, requestId: 3, .getStatus(MediaSessionRequest(requestId: 3, mediaSessionId: id)))
        XCTAssertNil(now.breakStatus)
        XCTAssertEqual(now.currentTime, 20)

        // Seek from 20 to 90 crosses "mid" (40) and "mid2" (70): the last one plays, then 90.
        now = try await status(s, t, requestId: 4, .seek(SeekRequest(requestId: 4, mediaSessionId: id, currentTime: 90)))
        XCTAssertEqual(now.breakStatus?.breakId, "mid2")
        XCTAssertEqual(now.currentTime, 70)
        s.clear()
        try await server.advanceClock(by: 6)
        let resumed = try await s.firstStatus(requestId: 0)
        XCTAssertNil(resumed.breakStatus)
        XCTAssertEqual(resumed.currentTime, 90)
        XCTAssertEqual(resumed.media?.breaks?.first { $0.id == "mid2" }?.isWatched, true)
        XCTAssertEqual(resumed.media?.breaks?.first { $0.id == "mid" }?.isWatched, false)

        // At 100 the post-roll plays, then the media finishes.
        s.clear()
        try await server.advanceClock(by: 12)
        let post = try await s.firstStatus(requestId: 0)
        XCTAssertEqual(post.breakStatus?.breakId, "post")
        XCTAssertEqual(post.currentTime, 100)
        s.clear()
        try await server.advanceClock(by: 10)
        let done = try await s.firstStatus(requestId: 0)
        XCTAssertEqual(done.playerState, .idle)
        XCTAssertEqual(done.idleReason, .finished)
    }

    // MARK: - Queue

    func testQueue() async throws {
        try await startServer()
        let s = try await sender()
        let t = try await launch(s)
        func item(_ n: Int) -> QueueItem {
            QueueItem(media: MediaInformation(contentId: "https://example.com/\(n).mp3", contentType: "audio/mpeg", duration: 30), autoplay: true)
        }
        try await s.send(MediaMessage.queueLoad(QueueLoadRequest(requestId: 2, items: [item(1), item(2)], startIndex: 0, repeatMode: .off)), to: t)
        let st = try await s.firstStatus(requestId: 2)
        // The status carries only the current item; the ids come on request.
        XCTAssertEqual(st.items?.count, 1)
        let id = st.mediaSessionId
        let ids = try await itemIDs(s, t, id, requestId: 20)
        XCTAssertEqual(ids.count, 2)
        XCTAssertEqual(st.currentItemId, ids.first)
        XCTAssertEqual(st.items?.first?.itemId, ids.first)
        var now = try await status(s, t, requestId: 3, .queueInsert(QueueInsertRequest(requestId: 3, mediaSessionId: id, items: [item(3)])))
        let afterInsert = try await itemIDs(s, t, id, requestId: 21)
        XCTAssertEqual(afterInsert.count, 3)
        now = try await status(s, t, requestId: 4, .queueNext(MediaSessionRequest(requestId: 4, mediaSessionId: id)))
        XCTAssertEqual(now.currentItemId, ids[1])
        XCTAssertEqual(now.media?.contentId, "https://example.com/2.mp3")
        now = try await status(s, t, requestId: 5, .queueUpdate(QueueUpdateRequest(requestId: 5, mediaSessionId: id, jump: -1)))
        XCTAssertEqual(now.currentItemId, ids[0])
        now = try await status(s, t, requestId: 6, .queueRemove(QueueItemsRequest(requestId: 6, mediaSessionId: id, itemIds: [ids[1]])))
        let afterRemove = try await itemIDs(s, t, id, requestId: 22)
        XCTAssertEqual(afterRemove.count, 2)
        // The end of item 1 moves on to the next item; the end of the last one finishes.
        s.clear()
        try await server.advanceClock(by: 30)
        let next = try await s.firstStatus(requestId: 0)
        XCTAssertEqual(next.media?.contentId, "https://example.com/3.mp3")
        XCTAssertEqual(next.playerState, .playing)
        try await s.send(MediaMessage.queueNext(MediaSessionRequest(requestId: 7, mediaSessionId: id)), to: t)
        guard case .invalidRequest(let end) = try await s.mediaReply(requestId: 7) else { return XCTFail("next past the end accepted") }
        XCTAssertEqual(end.reason, .endOfQueue)
        now = try await status(s, t, requestId: 8, .queueUpdate(QueueUpdateRequest(requestId: 8, mediaSessionId: id, repeatMode: .all)))
        XCTAssertEqual(now.repeatMode, .all)
        now = try await status(s, t, requestId: 9, .queueNext(MediaSessionRequest(requestId: 9, mediaSessionId: id)))
        XCTAssertEqual(now.media?.contentId, "https://example.com/1.mp3", "REPEAT_ALL wraps")
    }

    func itemIDs(_ s: TestSender, _ t: String, _ session: Int, requestId: Int) async throws -> [Int] {
        try await s.send(MediaMessage.queueGetItemIDs(MediaSessionRequest(requestId: requestId, mediaSessionId: session)), to: t)
        guard case .queueItemIDs(let m) = try await s.mediaReply(requestId: requestId) else {
            XCTFail("QUEUE_GET_ITEM_IDS not answered with QUEUE_ITEM_IDS")
            return []
        }
        return m.itemIds
    }

    /// The next QUEUE_CHANGE a sender receives.
    func queueChange(_ s: TestSender) async throws -> QueueChangeMessage {
        let m = try await s.next("QUEUE_CHANGE") { m in
            if case .media(.queueChange)? = try? m.decoded() { return true }
            return false
        }
        guard case .media(.queueChange(let c)) = try m.decoded() else { throw TestSender.Timeout(what: "QUEUE_CHANGE") }
        return c
    }

    /// What a Web Receiver does for a sender's queue view: ids and items on request,
    /// QUEUE_CHANGE to every sender with a growing sequence number, a status window of the
    /// current and preloaded items, shuffling.
    func testQueueSyncForEverySender() async throws {
        try await startServer()
        let a = try await sender("sender-a")
        let t = try await launch(a)
        let b = try await sender("sender-b")
        try await b.connect(to: t)
        func item(_ n: Int, preload: Double? = nil) -> QueueItem {
            QueueItem(
                media: MediaInformation(
                    contentId: "https://example.com/\(n).mp3", contentType: "audio/mpeg",
                    metadata: MediaMetadata(metadataType: .musicTrack, title: "Song \(n)"), duration: 30),
                autoplay: true, preloadTime: preload)
        }
        try await a.send(MediaMessage.queueLoad(QueueLoadRequest(requestId: 2, items: (1...5).map { item($0, preload: 10) }, startIndex: 0)), to: t)
        let st = try await a.firstStatus(requestId: 2)
        let session = st.mediaSessionId
        let ids = try await itemIDs(b, t, session, requestId: 3)
        XCTAssertEqual(ids.count, 5)

        // Items by id, in the order asked, unknown ids left out.
        try await b.send(MediaMessage.queueGetItems(QueueGetItemsRequest(requestId: 4, mediaSessionId: session, itemIds: [ids[3], 9999, ids[1]])), to: t)
        guard case .queueItems(let got) = try await b.mediaReply(requestId: 4) else { return XCTFail("no QUEUE_ITEMS") }
        XCTAssertEqual(got.items.map(\.itemId), [ids[3], ids[1]])
        XCTAssertEqual(got.items.first?.media?.metadata?.title, "Song 4")
        // Asking for nothing is a bad request.
        try await b.send(MediaMessage.queueGetItems(QueueGetItemsRequest(requestId: 5, mediaSessionId: session, itemIds: [])), to: t)
        guard case .invalidRequest = try await b.mediaReply(requestId: 5) else { return XCTFail("empty QUEUE_GET_ITEMS accepted") }

        // An insert by A reaches both senders as a numbered QUEUE_CHANGE.
        a.clear()
        b.clear()
        _ = try await status(
            a, t, requestId: 6, .queueInsert(QueueInsertRequest(requestId: 6, mediaSessionId: session, items: [item(6)], insertBefore: ids[2])))
        let ca = try await queueChange(a), cb = try await queueChange(b)
        XCTAssertEqual(ca, cb)
        XCTAssertEqual(ca.changeType, .insert)
        XCTAssertEqual(ca.insertBefore, ids[2])
        let newID = try XCTUnwrap(ca.itemIds?.first)
        let seq = try XCTUnwrap(ca.sequenceNumber)
        // Reorder by B: UPDATE with the whole order; remove: REMOVE; numbers go up by one.
        a.clear()
        _ = try await status(
            b, t, requestId: 7, .queueReorder(QueueItemsRequest(requestId: 7, mediaSessionId: session, itemIds: [ids[4]], insertBefore: ids[0])))
        let reorder = try await queueChange(a)
        XCTAssertEqual(reorder.changeType, .update)
        XCTAssertEqual(reorder.itemIds, [ids[4], ids[0], ids[1], newID, ids[2], ids[3]])
        XCTAssertEqual(reorder.sequenceNumber, seq + 1)
        _ = try await status(b, t, requestId: 8, .queueRemove(QueueItemsRequest(requestId: 8, mediaSessionId: session, itemIds: [ids[3]])))
        let removal = try await queueChange(a)
        XCTAssertEqual(removal.changeType, .remove)
        XCTAssertEqual(removal.itemIds, [ids[3]])
        XCTAssertEqual(removal.sequenceNumber, seq + 2)
        let order = try await itemIDs(a, t, session, requestId: 9)
        XCTAssertEqual(order, [ids[4], ids[0], ids[1], newID, ids[2]])

        // preloadTime: 10 s before the end of the current item, the next one is preloaded and
        // travels in the status beside the current one.
        var now = try await status(a, t, requestId: 10, .getStatus(MediaSessionRequest(requestId: 10, mediaSessionId: session)))
        XCTAssertEqual(now.items?.compactMap(\.itemId), [ids[0]])
        XCTAssertNil(now.preloadedItemId)
        a.clear()
        try await server.advanceClock(by: 21)
        let preloading = try await a.firstStatus(requestId: 0)
        XCTAssertEqual(preloading.preloadedItemId, ids[1])
        XCTAssertEqual(preloading.items?.compactMap(\.itemId), [ids[0], ids[1]])

        // Shuffle: same ids, current first, told to everyone.
        b.clear()
        now = try await status(a, t, requestId: 11, .queueShuffle(MediaSessionRequest(requestId: 11, mediaSessionId: session)))
        let shuffled = try await queueChange(b)
        XCTAssertEqual(shuffled.changeType, .update)
        XCTAssertEqual(Set(shuffled.itemIds ?? []), Set(order))
        XCTAssertEqual(shuffled.itemIds?.first, now.currentItemId)
        let finalOrder = try await itemIDs(b, t, session, requestId: 12)
        XCTAssertEqual(finalOrder, shuffled.itemIds)
    }

    /// REPEAT_ALL_AND_SHUFFLE: when the last item ends, the queue is reshuffled and plays on.
    func testRepeatAllAndShuffleReshufflesAtTheEnd() async throws {
        try await startServer()
        let a = try await sender()
        let t = try await launch(a)
        let items = (1...4).map {
            QueueItem(media: MediaInformation(contentId: "https://example.com/\($0).mp3", contentType: "audio/mpeg", duration: 10), autoplay: true)
        }
        try await a.send(MediaMessage.queueLoad(QueueLoadRequest(requestId: 2, items: items, startIndex: 3, repeatMode: .allAndShuffle)), to: t)
        let st = try await a.firstStatus(requestId: 2)
        XCTAssertEqual(st.repeatMode, .allAndShuffle)
        a.clear()
        try await server.advanceClock(by: 10)
        let change = try await queueChange(a)
        XCTAssertEqual(change.changeType, .update)
        XCTAssertEqual(change.itemIds?.count, 4)
        let after = try await a.firstStatus(requestId: 0)
        XCTAssertEqual(after.playerState, .playing)
        XCTAssertEqual(after.currentItemId, change.itemIds?.first)
    }

    // MARK: - Real time

    func testRealClockPlaysToTheEnd() async throws {
        try await startServer {
            $0.clock = SystemClock()
            $0.tickInterval = .milliseconds(20)
        }
        let s = try await sender()
        let t = try await launch(s)
        var short = Self.movie
        short.duration = 0.3
        let st = try await load(s, on: t, media: short, requestId: 2)
        XCTAssertEqual(st.playerState, .playing)
        let done = try await s.firstStatus(requestId: 0)
        XCTAssertEqual(done.playerState, .idle)
        XCTAssertEqual(done.idleReason, .finished)
        XCTAssertEqual(done.currentTime, 0.3)
        do {
            try await server.advanceClock(by: 1)
            XCTFail("advancing a real clock must be refused")
        } catch let error as CastReceiverError {
            XCTAssertEqual(error, .clockNotManual)
        }
    }

    func testAppSpecParsing() throws {
        let app = try ReceiverApp.parse("abcd1234=urn:x-cast:com.example.a,urn:x-cast:com.example.b")
        XCTAssertEqual(app.appId, "ABCD1234")
        XCTAssertEqual(app.namespaces, ["urn:x-cast:com.example.a", "urn:x-cast:com.example.b"])
        for bad in ["ABCD1234", "XYZ=urn:x-cast:a", "ABCD1234=", "ABCD1234=com.example.a", "ABCD1234=urn:x-cast:"] {
            XCTAssertThrowsError(try ReceiverApp.parse(bad), bad)
        }
    }
}
