// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import GLibInterop
import MPRIS
import XCTest

/// During a break a media card shows the ad: "Ad 2 of 3", the clip's title as the artist, its
/// poster and its own length; the content's album and URL are not mixed in.
final class MPRISAdsTests: XCTestCase {
    func testTheAdsMetadata() throws {
        var s = MediaStatus(mediaSessionId: 1, playerState: .playing)
        s.currentTime = 0
        s.media = MediaInformation(
            contentId: "http://example.com/film.mp4", metadata: MediaMetadata(metadataType: .movie, title: "Film"), duration: 600,
            breaks: [AdBreak(id: "pre", position: 0, breakClipIds: ["a", "b", "c"])],
            breakClips: [AdBreakClip(id: "a"), AdBreakClip(id: "b", title: "Winter Tyres", duration: 20), AdBreakClip(id: "c")])
        s.breakStatus = BreakStatus(breakId: "pre", breakClipId: "b", currentBreakClipTime: 3)
        let now = ContinuousClock.now
        let ad = try XCTUnwrap(MediaStatusSnapshot(status: s, receivedAt: now).ad(at: now))
        let m = Dictionary(uniqueKeysWithValues: MPRIS.adMetadata(trackID: "/t/2", ad: ad, artworkPath: "/cache/poster.png"))
        XCTAssertEqual(m["xesam:title"], .string("Ad 2 of 3"))
        XCTAssertEqual(m["xesam:artist"], .strings(["Winter Tyres"]))
        XCTAssertEqual(m["mpris:length"], .int64(20_000_000))
        XCTAssertEqual(m["mpris:artUrl"], .string("file:///cache/poster.png"))
        XCTAssertEqual(m["mpris:trackid"], .objectPath("/t/2"))
        XCTAssertNil(m["xesam:url"])
        XCTAssertNil(m["xesam:album"])
    }
}
