// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import Testing

@Suite("The ad playing, derived once from a status (AdPlayback)")
struct AdPlaybackTests {
    static func status(embedded: Bool, clipTime: Double, rate: Double = 1, link: String? = "https://example.com/sale") -> MediaStatus {
        var clip = AdBreakClip(
            id: "c2", title: "Sale", duration: 10, whenSkippable: 5, posterUrl: "https://example.com/sale.png", clickThroughUrl: link)
        clip.vastAdsRequest = AdsRequest(adTagUrl: "https://ads.example.com/vast.xml")
        let media = MediaInformation(
            contentId: "https://example.com/film.mp4", duration: 200,
            breaks: [AdBreak(id: "b", position: 60, breakClipIds: ["c1", "c2", "c3"], isEmbedded: embedded)],
            breakClips: [AdBreakClip(id: "c1", duration: 5), clip, AdBreakClip(id: "c3", duration: 5)])
        var s = MediaStatus(mediaSessionId: 1, playerState: .playing)
        s.media = media
        s.currentTime = 70
        s.playbackRate = rate
        s.breakStatus = BreakStatus(breakId: "b", breakClipId: "c2", currentBreakTime: 5 + clipTime, currentBreakClipTime: clipTime)
        return s
    }

    @Test func theClipsFactsComeFromTheMediasBreakClips() throws {
        let t0 = ContinuousClock.now
        let snapshot = MediaStatusSnapshot(status: Self.status(embedded: false, clipTime: 2), receivedAt: t0)
        let ad = try #require(snapshot.ad(at: t0 + .seconds(1)))
        #expect(ad.clipIndex == 2 && ad.clipCount == 3)
        #expect(ad.clipTitle == "Sale")
        #expect(ad.posterURL == "https://example.com/sale.png")
        #expect(ad.learnMoreURL == "https://example.com/sale")
        #expect(ad.vastAdsRequest?.adTagUrl == "https://ads.example.com/vast.xml")
        #expect(ad.clipTime == 3 && ad.remaining == 7 && ad.skippableIn == 2)
        #expect(!ad.isEmbedded)
        #expect(snapshot.streamPosition(at: t0 + .seconds(1)) == 70, "a separate break holds the content position")
        #expect(MediaStatusSnapshot(status: nil, receivedAt: t0).ad(at: t0) == nil)
    }

    @Test func anEmbeddedBreakMovesTheContentAndTheClipAtTheRate() throws {
        let t0 = ContinuousClock.now
        let snapshot = MediaStatusSnapshot(status: Self.status(embedded: true, clipTime: 2, rate: 2), receivedAt: t0)
        #expect(snapshot.isInEmbeddedBreak)
        #expect(snapshot.streamPosition(at: t0 + .seconds(1)) == 72)
        let ad = try #require(snapshot.ad(at: t0 + .seconds(1)))
        #expect(ad.isEmbedded && ad.clipTime == 4)
        // A separate break's clip runs at 1× whatever the content's rate.
        let separate = MediaStatusSnapshot(status: Self.status(embedded: false, clipTime: 2, rate: 2), receivedAt: t0)
        #expect(separate.breakClipTime(at: t0 + .seconds(1)) == 3)
    }

    @Test(arguments: [
        ("https://example.com/sale", true), ("HTTP://example.com", true), ("http://example.com:8080/x?y#z", true),
        ("file:///etc/passwd", false), ("javascript:alert(1)", false), ("ftp://example.com", false),
        ("https://", false), ("https:///path", false), ("https://user@evil.example", false),
        ("https://example.com/a b", false), ("https://exa\u{202E}mple.com", false), ("https://example.com/\n", false),
        (" https://example.com", false), ("smb://host/share", false), ("https://:80", false),
    ])
    func onlyWebLinksAreOffered(link: String, offered: Bool) {
        #expect((AdPlayback.webLink(link) != nil) == offered)
        let status = Self.status(embedded: false, clipTime: 0, link: link)
        let ad = MediaStatusSnapshot(status: status, receivedAt: .now).ad(at: .now)
        #expect((ad?.learnMoreURL != nil) == offered)
    }
}
