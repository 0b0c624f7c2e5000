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
        XCTAssertEqual(st.items?.count, 2)
        let ids = st.items?.compactMap(\.itemId) ?? []
        XCTAssertEqual(st.currentItemId, ids.first)
        let id = st.mediaSessionId
        var now = try await status(s, t, requestId: 3, .queueInsert(QueueInsertRequest(requestId: 3, mediaSessionId: id, items: [item(3)])))
        XCTAssertEqual(now.items?.count, 3)
        now = try await status(s, t, requestId: 4, .queueNext(MediaSessionRequest(requestId: 4, mediaSessionId: id)))
        XCTAssertEqual(now.currentItemId, ids[1])
        XCTAssertEqual(now.media?.contentId, "https://example.com/2.mp3")
        now = try await status(s, t, requestId: 5, .queueUpdate(QueueUpdateRequest(requestId: 5, mediaSessionId: id, jump: -1)))
        XCTAssertEqual(now.currentItemId, ids[0])
        now = try await status(s, t, requestId: 6, .queueRemove(QueueItemsRequest(requestId: 6, mediaSessionId: id, itemIds: [ids[1]])))
        XCTAssertEqual(now.items?.count, 2)
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
