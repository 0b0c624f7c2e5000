// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import CastReceiver
import XCTest

extension ReceiverTests {
    // MARK: - Embedded breaks (the ad is part of the content's stream) and VAST pass-through

    /// 100 s of content with a 15 s embedded break at 30 (two clips: 10 s skippable at 3, and
    /// 5 s), the first clip carrying a poster, a link and a VAST request.
    static let withEmbeddedAd: MediaInformation = {
        var m = movie
        m.breaks = [AdBreak(id: "emb", position: 30, breakClipIds: ["e1", "e2"], duration: 15, isEmbedded: true)]
        var e1 = AdBreakClip(
            id: "e1", title: "Sale", duration: 10, whenSkippable: 3, posterUrl: "https://example.com/sale.png",
            clickThroughUrl: "https://example.com/sale")
        e1.vastAdsRequest = AdsRequest(adTagUrl: "https://ads.example.com/vast.xml")
        m.breakClips = [e1, AdBreakClip(id: "e2", title: "Tyres", duration: 5)]
        return m
    }()

    func testEmbeddedBreakMovesTheContentThroughTheAd() async throws {
        try await startServer()
        let s = try await sender()
        let t = try await launch(s)
        let st = try await load(s, on: t, media: Self.withEmbeddedAd, requestId: 2)
        let id = st.mediaSessionId
        XCTAssertNil(st.breakStatus, "an embedded break at 30 is not a pre-roll")

        try await server.advanceClock(by: 32)
        var now = try await status(s, t, requestId: 3, .getStatus(MediaSessionRequest(requestId: 3, mediaSessionId: id)))
        XCTAssertEqual(now.breakStatus?.breakClipId, "e1")
        XCTAssertEqual(now.breakStatus?.currentBreakClipTime, 2)
        XCTAssertEqual(now.currentTime, 32, "the content time includes the ad and moves through it")
        let clip = now.media?.breakClips?.first { $0.id == "e1" }
        XCTAssertEqual(clip?.vastAdsRequest?.adTagUrl, "https://ads.example.com/vast.xml", "the VAST request passes through")
        XCTAssertEqual(clip?.clickThroughUrl, "https://example.com/sale")

        // The ad is the content's stream, so it plays at the content's rate.
        _ = try await status(s, t, requestId: 4, .setPlaybackRate(SetPlaybackRateRequest(requestId: 4, mediaSessionId: id, playbackRate: 2)))
        try await server.advanceClock(by: 1)
        now = try await status(s, t, requestId: 5, .getStatus(MediaSessionRequest(requestId: 5, mediaSessionId: id)))
        XCTAssertEqual(now.currentTime, 34)
        XCTAssertEqual(now.breakStatus?.currentBreakClipTime, 4)

        // Skipping a clip jumps the content to that clip's end in the stream.
        now = try await status(s, t, requestId: 6, .skipAd(MediaSessionRequest(requestId: 6, mediaSessionId: id)))
        XCTAssertEqual(now.breakStatus?.breakClipId, "e2")
        XCTAssertEqual(now.currentTime, 40)
        XCTAssertEqual(now.breakStatus?.currentBreakTime, 10)

        s.clear()
        try await server.advanceClock(by: 3)  // e2 (5 s at 2×) ends after 2.5 s; 0.5 s of content follows
        let after = try await s.firstStatus(requestId: 0)
        XCTAssertNil(after.breakStatus)
        XCTAssertEqual(after.media?.breaks?.first?.isWatched, true)
        now = try await status(s, t, requestId: 7, .getStatus(MediaSessionRequest(requestId: 7, mediaSessionId: id)))
        XCTAssertNil(now.breakStatus)
        XCTAssertEqual(now.currentTime, 46)
    }

    func testSeekOverAnEmbeddedBreakPlaysItFromItsStart() async throws {
        try await startServer()
        let s = try await sender()
        let t = try await launch(s)
        let st = try await load(s, on: t, media: Self.withEmbeddedAd, requestId: 2)
        let id = st.mediaSessionId
        var now = try await status(s, t, requestId: 3, .seek(SeekRequest(requestId: 3, mediaSessionId: id, currentTime: 60)))
        XCTAssertEqual(now.breakStatus?.breakClipId, "e1")
        XCTAssertEqual(now.currentTime, 30, "the break's start in the stream")
        try await server.advanceClock(by: 16)  // the 15 s break, then 1 s from the seek target
        now = try await status(s, t, requestId: 4, .getStatus(MediaSessionRequest(requestId: 4, mediaSessionId: id)))
        XCTAssertNil(now.breakStatus)
        XCTAssertEqual(now.currentTime, 61)
    }
}
