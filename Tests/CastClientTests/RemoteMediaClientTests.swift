// SPDX-License-Identifier: GPL-3.0-or-later
// Every RemoteMediaClient operation against the simulator, checked by reading the receiver's own status back.
import CastClient
import CastProtocol
import Foundation
import Testing

@testable import CastClient

@Suite("RemoteMediaClient against the simulated receiver", .serialized, .timeLimit(.minutes(2)))
struct RemoteMediaClientTests {
    func withLoaded(announcing extra: MediaCommands = [], _ body: (Simulator, CastSession) async throws -> Void) async throws {
        let sim = try await Simulator.start(announcing: extra)
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        do {
            try await session.start()
            try await session.media.load(sampleMedia, autoplay: true)
            try await body(sim, session)
        } catch {
            await session.leave()
            await sim.stop()
            throw error
        }
        await session.leave()
        await sim.stop()
    }

    @Test func loadReportsTheMediaAndPlays() async throws {
        try await withLoaded { sim, session in
            let remote = try #require(try await sim.media())
            #expect(remote.effectiveMedia?.contentId == sampleMedia.contentId)
            #expect(await session.media.status?.mediaSessionId == remote.mediaSessionId)
            #expect(await session.media.mediaInformation?.metadata?.title == "Big Buck Bunny")
            #expect([.playing, .buffering].contains(remote.playerState))
        }
    }

    @Test func loadWithStartTimeRateAndTracks() async throws {
        let sim = try await Simulator.start()
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        try await session.start()
        try await session.media.load(sampleMedia, autoplay: false, startTime: 42, activeTrackIDs: [2], playbackRate: 1.5)
        let remote = try #require(try await sim.media())
        #expect(remote.playerState == .paused)
        #expect(abs((remote.currentTime ?? 0) - 42) < 0.5)
        #expect(remote.activeTrackIds == [2])
        #expect(remote.playbackRate == 1.5)
        await session.leave()
        await sim.stop()
    }

    @Test func pausePlayStop() async throws {
        try await withLoaded { sim, session in
            try await session.media.pause()
            #expect(try await sim.media()?.playerState == .paused)
            #expect(await session.media.status?.playerState == .paused)
            try await session.media.play()
            #expect(try await sim.media()?.playerState == .playing)
            try await session.media.stop()
            let after = try await sim.media()
            #expect(after == nil || after?.playerState == .idle)
        }
    }

    @Test func seekAbsoluteAndRelative() async throws {
        try await withLoaded { sim, session in
            try await session.media.pause()
            try await session.media.seek(to: 120)
            #expect(abs((try await sim.media()?.currentTime ?? 0) - 120) < 0.5)
            try await session.media.seek(by: -20)
            #expect(abs((try await sim.media()?.currentTime ?? 0) - 100) < 0.5)
            try await session.media.seek(to: 30, resumeState: .playbackStart)
            #expect(try await sim.media()?.playerState == .playing)
        }
    }

    @Test func playbackRate() async throws {
        try await withLoaded { sim, session in
            try await session.media.setPlaybackRate(2)
            #expect(try await sim.media()?.playbackRate == 2)
            #expect(await session.media.status?.playbackRate == 2)
            // The simulator refuses rates outside 0.5 ... 2 with INVALID_REQUEST.
            await #expect(throws: CastClientError.self) { try await session.media.setPlaybackRate(3) }
            #expect(try await sim.media()?.playbackRate == 2)
        }
    }

    /// The same commands with the session on a network thread (what castctl does): the code
    /// resumes there after every answer, and the answers are the receiver's.
    @Test func aSessionOnANetworkThread() async throws {
        let sim = try await Simulator.start()
        #expect(!runsOnNetworkThread())
        try await withNetworkThreadExecution { () async throws -> Void in
            let session = CastSession(device: sim.address, configuration: testConfiguration())
            do {
                try await session.start()
                #expect(runsOnNetworkThread())
                try await session.media.load(sampleMedia, autoplay: true)
                for rate in [2.0, 1.0, 1.5] {
                    try await session.media.setPlaybackRate(rate)
                    #expect(await session.media.status?.playbackRate == rate)
                    #expect(runsOnNetworkThread())
                }
                await #expect(throws: CastClientError.self) { try await session.media.setPlaybackRate(3) }
                #expect(try await sim.media()?.playbackRate == 1.5)
            } catch {
                await session.leave()
                throw error
            }
            await session.leave()
        }
        await sim.stop()
    }

    @Test func activeTracksAndAllOff() async throws {
        try await withLoaded { sim, session in
            try await session.media.setActiveTrackIDs([1])
            #expect(try await sim.media()?.activeTrackIds == [1])
            try await session.media.setActiveTrackIDs([])
            #expect((try await sim.media()?.activeTrackIds ?? []).isEmpty)
            await #expect(throws: CastClientError.self) { try await session.media.setActiveTrackIDs([99]) }
        }
    }

    @Test func textTrackStyle() async throws {
        try await withLoaded { sim, session in
            let style = TextTrackStyle(foregroundColor: "#FFFF00FF", backgroundColor: "#00000080", edgeType: .outline, fontScale: 1.5, fontStyle: .bold)
            try await session.media.setTextTrackStyle(style)
            let remote = try await sim.media()?.effectiveMedia?.textTrackStyle
            #expect(remote?.foregroundColor == "#FFFF00FF")
            #expect(remote?.fontScale == 1.5)
            #expect(remote?.edgeType == .outline)
            #expect(await session.media.mediaInformation?.textTrackStyle?.fontStyle == .bold)
            await #expect(throws: CastClientError.invalidArgument("“red” is not a color: write #RRGGBBAA or #RRGGBB.")) {
                try await session.media.setTextTrackStyle(TextTrackStyle(foregroundColor: "red"))
            }
        }
    }

    @Test func streamVolumeAndMute() async throws {
        try await withLoaded { sim, session in
            try await session.media.setStreamVolume(0.25)
            #expect(try await sim.media()?.volume?.level == 0.25)
            try await session.media.setStreamMuted(true)
            #expect(try await sim.media()?.volume?.muted == true)
            try await session.media.setStreamMuted(false)
            #expect(try await sim.media()?.volume?.muted == false)
        }
    }

    @Test func receiverVolumeAndMute() async throws {
        try await withLoaded { sim, session in
            try await session.setVolume(0.4)
            #expect(try await sim.server.receiverStatus().volume?.level == 0.4)
            try await session.setMuted(true)
            #expect(try await sim.server.receiverStatus().volume?.muted == true)
            try await session.setMuted(false)
            #expect(try await sim.server.receiverStatus().volume?.muted == false)
        }
    }

    @Test func adBreakSkip() async throws {
        let sim = try await Simulator.start()
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        try await session.start()
        var media = sampleMedia
        media.breaks = [AdBreak(id: "b1", position: 0, breakClipIds: ["c1"], duration: 30)]
        media.breakClips = [
            AdBreakClip(id: "c1", title: "Ad", contentId: "https://example.com/ad.mp4", contentType: "video/mp4", duration: 30, whenSkippable: 0)
        ]
        try await session.media.load(media)
        try await eventually("the pre-roll to play") { try await sim.media()?.breakStatus != nil }
        try await session.media.requestStatus()
        try await session.media.skipAd()
        try await eventually("the break to end") { try await sim.media()?.breakStatus == nil }
        await session.leave()
        await sim.stop()
    }

    @Test func queueOperations() async throws {
        let sim = try await Simulator.start()
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        try await session.start()
        let items = (1...3).map { n in
            QueueItem(
                media: MediaInformation(
                    contentId: "https://example.com/\(n).mp3", contentType: "audio/mpeg", metadata: MediaMetadata(title: "Song \(n)"), duration: 100),
                autoplay: true)
        }
        try await session.media.queueLoad(items, startIndex: 0)
        let ids = try await sim.queueIDs()
        #expect(ids.count == 3)
        #expect(try await sim.media()?.currentItemId == ids[0])

        try await session.media.queueNext()
        #expect(try await sim.media()?.currentItemId == ids[1])
        try await session.media.queuePrev()
        #expect(try await sim.media()?.currentItemId == ids[0])
        try await session.media.queueJump(to: ids[2])
        #expect(try await sim.media()?.currentItemId == ids[2])

        let extra = QueueItem(media: MediaInformation(contentId: "https://example.com/4.mp3", contentType: "audio/mpeg", duration: 100))
        try await session.media.queueInsert([extra])
        let after = try await sim.server.queueItems()
        #expect(after.count == 4)
        #expect(after.last?.media?.contentId == "https://example.com/4.mp3")

        try await session.media.queueRemove([ids[0]])
        #expect(try await sim.queueIDs().contains(ids[0]) == false)
        await session.leave()
        await sim.stop()
    }

    @Test func refusedCommandsAreTypedErrors() async throws {
        try await withLoaded { sim, session in
            // No ad break plays: the receiver answers INVALID_PLAYER_STATE.
            await #expect(throws: CastClientError.invalidPlayerState(command: "SKIP_AD")) { try await session.media.skipAd() }
            // An unknown track: INVALID_REQUEST with a reason.
            do {
                try await session.media.setActiveTrackIDs([42])
                Issue.record("expected a refusal")
            } catch let error as CastClientError {
                guard case .invalidRequest(let command, _) = error else {
                    Issue.record("got \(error)")
                    return
                }
                #expect(command == "EDIT_TRACKS_INFO")
                #expect(error.description.contains("refused EDIT_TRACKS_INFO"))
            }
            // The link is still fine.
            try await session.media.pause()
            #expect(try await sim.media()?.playerState == .paused)
        }
    }

    @Test func likeAndDislikeExcludeEachOtherAndClearTakesBack() async throws {
        try await withLoaded(announcing: [.like, .dislike]) { sim, session in
            func states() async throws -> [UserAction] { try await sim.media()?.media?.userActionStates?.map(\.userAction) ?? [] }
            let liked = try await session.media.userAction(.like)
            #expect(liked?.effectiveMedia?.userActionStates?.map(\.userAction) == [.like])
            #expect(try await states() == [.like])
            try await session.media.userAction(.dislike)
            #expect(try await states() == [.dislike])
            try await session.media.userAction(.dislike, clear: true)
            #expect(try await states() == [])
            #expect(await session.media.mediaInformation?.userActionStates == [])
        }
    }

    @Test func likeIsRefusedWhereTheAppDoesNotOfferIt() async throws {
        try await withLoaded { sim, session in
            await #expect(throws: CastClientError.commandNotSupported(command: "USER_ACTION")) {
                try await session.media.userAction(.like)
            }
            let states = try await sim.media()?.media?.userActionStates
            #expect(states == nil)
        }
    }

    @Test func aLateIdleOfAReplacedSessionDoesNotHideTheNewOne() async throws {
        try await withLoaded { sim, session in
            let current = try #require(await session.media.status)
            var late = MediaStatus(mediaSessionId: current.mediaSessionId - 1, playerState: .idle)
            late.idleReason = .interrupted
            await session.media.handle(.mediaStatus(MediaStatusMessage(requestId: 0, status: [late])))
            #expect(await session.media.status?.mediaSessionId == current.mediaSessionId)
            #expect(await session.media.status?.playerState == current.playerState)
        }
    }

    @Test func unsupportedCommandFailsFastWithoutAsking() async throws {
        try await withLoaded { sim, session in
            var limited = try #require(await session.media.status)
            limited.supportedMediaCommands = [.pause]
            await session.media.handle(.mediaStatus(MediaStatusMessage(requestId: 0, status: [limited])))
            await #expect(throws: CastClientError.commandNotSupported(command: "SET_PLAYBACK_RATE")) {
                try await session.media.setPlaybackRate(2)
            }
            #expect(try await sim.media()?.playbackRate == 1)
        }
    }

    @Test func commandsWithoutMediaFailClearly() async throws {
        let sim = try await Simulator.start()
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        try await session.start()
        await #expect(throws: CastClientError.noMediaSession) { try await session.media.pause() }
        await session.leave()
        let detached = CastSession(device: sim.address, configuration: testConfiguration())
        await #expect(throws: CastClientError.notConnected) { try await detached.media.play() }
        await sim.stop()
    }

    @Test func positionInterpolatesWithRateAndState() {
        var s = MediaStatus(mediaSessionId: 1, playerState: .playing)
        s.currentTime = 10
        s.playbackRate = 2
        let t0 = ContinuousClock.now
        func position(_ s: MediaStatus?, after seconds: Int64) -> Double? {
            MediaStatusSnapshot(status: s, receivedAt: t0).streamPosition(at: t0 + .seconds(seconds))
        }
        #expect(position(s, after: 3) == 16)
        s.playerState = .paused
        #expect(position(s, after: 3) == 10)
        s.playerState = .playing
        s.media = MediaInformation(contentId: "x", duration: 12)
        #expect(position(s, after: 30) == 12)
        #expect(position(nil, after: 0) == nil)
    }

    @Test func duringABreakTheContentHoldsAndTheClipClockRunsAtNormalSpeed() {
        var s = MediaStatus(mediaSessionId: 1, playerState: .playing)
        s.currentTime = 300
        s.playbackRate = 2
        s.breakStatus = BreakStatus(breakId: "mid", breakClipId: "mid-1", currentBreakTime: 4, currentBreakClipTime: 4)
        let t0 = ContinuousClock.now
        let snapshot = MediaStatusSnapshot(status: s, receivedAt: t0)
        #expect(snapshot.streamPosition(at: t0 + .seconds(5)) == 300)
        #expect(snapshot.breakClipTime(at: t0 + .seconds(5)) == 9)
        s.playerState = .paused
        #expect(MediaStatusSnapshot(status: s, receivedAt: t0).breakClipTime(at: t0 + .seconds(5)) == 4)
        s.breakStatus = nil
        #expect(MediaStatusSnapshot(status: s, receivedAt: t0).breakClipTime(at: t0) == nil)
    }
}
