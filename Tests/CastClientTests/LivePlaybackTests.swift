// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// CastClient's one rule for live streams (MediaStatusSnapshot+Live.swift), on made-up statuses.
import CastClient
import CastProtocol
import Testing

@Suite("Live streams: LivePlayback from a status")
struct LivePlaybackTests {
    let t0 = ContinuousClock.now

    func live(_ state: PlayerState = .playing, at time: Double, range: LiveSeekableRange?, streamType: StreamType = .live) -> MediaStatusSnapshot {
        var s = MediaStatus(mediaSessionId: 1, playerState: state)
        s.currentTime = time
        s.media = MediaInformation(contentId: "https://example.com/live.m3u8", streamType: streamType, duration: 9999)
        s.liveSeekableRange = range
        return MediaStatusSnapshot(status: s, receivedAt: t0)
    }

    @Test func theWindowMovesWithTimeAndThePositionStaysInIt() throws {
        let snapshot = live(at: 100, range: LiveSeekableRange(start: 0, end: 120, isMovingWindow: true, isLiveDone: false))
        let later = try #require(snapshot.live(at: t0 + .seconds(30)))
        #expect(later.seekableRange == 30...150)
        #expect(later.position == 130)
        #expect(later.behindLive == 20)
        #expect(later.isBehindLive && later.isLive)
        #expect(later.liveEdge == 150)
        #expect(snapshot.isLiveStream)
    }

    @Test func pausedTheWindowDragsThePositionAlong() {
        let snapshot = live(.paused, at: 10, range: LiveSeekableRange(start: 0, end: 120, isMovingWindow: true))
        #expect(snapshot.streamPosition(at: t0 + .seconds(60)) == 60)
        #expect(snapshot.live(at: t0 + .seconds(60))?.behindLive == 120)
    }

    @Test func aFixedWindowGrowsAtItsEndOnly() {
        let snapshot = live(at: 120, range: LiveSeekableRange(start: 0, end: 120, isMovingWindow: false))
        #expect(snapshot.live(at: t0 + .seconds(10))?.seekableRange == 0...130)
        // Faster than real time, the position stops at the live edge.
        var fast = snapshot.status!
        fast.playbackRate = 2
        #expect(MediaStatusSnapshot(status: fast, receivedAt: t0).streamPosition(at: t0 + .seconds(10)) == 130)
        #expect(snapshot.live(at: t0 + .seconds(10))?.isBehindLive == false, "at the edge")
    }

    @Test func anEndedStreamIsARecordingThatNoLongerMoves() throws {
        let snapshot = live(at: 100, range: LiveSeekableRange(start: 10, end: 120, isMovingWindow: true, isLiveDone: true))
        let facts = try #require(snapshot.live(at: t0 + .seconds(5)))
        #expect(facts.seekableRange == 10...120)
        #expect(!facts.isLive)
        #expect(facts.behindLive == nil && facts.liveEdge == nil && !facts.isBehindLive)
        #expect(facts.position == 105)
    }

    @Test func aLiveStreamWithoutAWindowHasNoRangeAndNoLength() throws {
        let snapshot = live(at: 42, range: nil)
        let facts = try #require(snapshot.live(at: t0 + .seconds(5000)))
        #expect(facts.seekableRange == nil && facts.behindLive == nil && facts.isLive)
        #expect(facts.position == 5042, "the duration a live stream carries is not its end")
    }

    @Test func bufferedMediaIsNotLiveAndUnreadableRangesAreIgnored() {
        #expect(live(at: 1, range: nil, streamType: .buffered).live(at: t0) == nil)
        // A range sent with BUFFERED media makes it live (an event stream).
        #expect(live(at: 1, range: LiveSeekableRange(start: 0, end: 60), streamType: .buffered).isLiveStream)
        #expect(live(at: 1, range: LiveSeekableRange(start: 90, end: 60)).live(at: t0)?.seekableRange == nil)
        #expect(live(at: 1, range: LiveSeekableRange(start: 0, end: .infinity)).live(at: t0)?.seekableRange == nil)
    }
}
