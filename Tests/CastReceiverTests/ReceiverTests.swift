// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import CastReceiver
import NIOCore
import NIOPosix
import XCTest

/// Shared set-up: a simulator on a free port with a manual clock, and test senders.
class ReceiverTestCase: XCTestCase, @unchecked Sendable {
    var server: CastReceiverServer!
    var clock: ManualClock!
    var group: MultiThreadedEventLoopGroup!
    var senders: [TestSender] = []

    func startServer(_ adjust: (inout ReceiverConfiguration) -> Void = { _ in }) async throws {
        var config = ReceiverConfiguration()
        config.port = 0
        clock = ManualClock()
        config.clock = clock
        adjust(&config)
        server = CastReceiverServer(configuration: config)
        try await server.start()
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    override func tearDown() async throws {
        for s in senders { await s.close() }
        senders = []
        await server?.stop()
        try await group?.shutdownGracefully()
    }

    func sender(_ id: String = "sender-0") async throws -> TestSender {
        let s = try await TestSender.connect(port: server.port!, id: id, group: group)
        senders.append(s)
        try await s.connect(to: CastEndpoint.receiver)
        return s
    }

    /// Launches the Default Media Receiver (or `appId`) and joins its transport; returns the transport id.
    @discardableResult
    func launch(_ s: TestSender, appId: String = CastAppID.defaultMediaReceiver, requestId: Int = 1) async throws -> String {
        try await s.send(ReceiverMessage.launch(LaunchRequest(requestId: requestId, appId: appId)), to: CastEndpoint.receiver)
        guard case .receiverStatus(let st) = try await s.receiverReply(requestId: requestId), let app = st.status.runningApp else {
            XCTFail("LAUNCH did not answer with a RECEIVER_STATUS naming the app")
            return ""
        }
        XCTAssertEqual(app.appId, appId)
        try await s.connect(to: app.transportId)
        return app.transportId
    }

    static let movie = MediaInformation(
        contentId: "https://example.com/movie.mp4", streamType: .buffered, contentType: "video/mp4",
        metadata: MediaMetadata(metadataType: .movie, title: "Sintel", images: [CastImage(url: "https://example.com/p.jpg", width: 480, height: 720)]),
        duration: 100,
        tracks: [
            MediaTrack(
                trackId: 1, type: .text, subtype: .subtitles, trackContentId: "https://example.com/en.vtt", trackContentType: "text/vtt", name: "English",
                language: "en-US"),
            MediaTrack(
                trackId: 2, type: .text, subtype: .subtitles, trackContentId: "https://example.com/fr.vtt", trackContentType: "text/vtt", name: "Français",
                language: "fr"),
        ])

    static let withAds: MediaInformation = {
        var m = movie
        m.breaks = [
            AdBreak(id: "pre", position: 0, breakClipIds: ["c1", "c2"]),
            AdBreak(id: "mid", position: 40, breakClipIds: ["c3"]),
            AdBreak(id: "mid2", position: 70, breakClipIds: ["c3"]),
            AdBreak(id: "post", position: -1, breakClipIds: ["c1"]),
        ]
        m.breakClips = [
            AdBreakClip(id: "c1", title: "Ad 1", duration: 10, whenSkippable: 5),
            AdBreakClip(id: "c2", title: "Ad 2", duration: 8),
            AdBreakClip(id: "c3", title: "Ad 3", duration: 6, whenSkippable: 2),
        ]
        return m
    }()

    func load(
        _ s: TestSender, on transport: String, media: MediaInformation = movie, requestId: Int = 10, autoplay: Bool = true, currentTime: Double? = nil
    ) async throws -> MediaStatus {
        try await s.send(MediaMessage.load(LoadRequest(requestId: requestId, media: media, autoplay: autoplay, currentTime: currentTime)), to: transport)
        let reply = try await s.mediaStatus(requestId: requestId)
        return try XCTUnwrap(reply.status.first)
    }

    func status(_ s: TestSender, _ transport: String, requestId: Int, _ message: MediaMessage) async throws -> MediaStatus {
        try await s.send(message, to: transport)
        let reply = try await s.mediaReply(requestId: requestId)
        guard case .mediaStatus(let m) = reply, let st = m.status.first else {
            XCTFail("expected a MEDIA_STATUS for \(requestId), got \(reply)")
            throw TestSender.Timeout(what: "status")
        }
        return st
    }
}

/// Drives the simulator over real TLS on loopback, as a sender would.
final class ReceiverTests: ReceiverTestCase, @unchecked Sendable {
    // MARK: - Platform

    func testReceiverPlatform() async throws {
        try await startServer { $0.apps = [ReceiverApp(appId: "ABCD1234", namespaces: [ReceiverApp.helloWorldNamespace])] }
        let s = try await sender()
        try await s.send(ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: 1)), to: CastEndpoint.receiver)
        guard case .receiverStatus(let st) = try await s.receiverReply(requestId: 1) else { return XCTFail("no RECEIVER_STATUS") }
        XCTAssertEqual(st.status.applications ?? [], [])
        XCTAssertEqual(st.status.volume?.level, 1)

        try await s.send(ReceiverMessage.launch(LaunchRequest(requestId: 2, appId: "DEADBEEF")), to: CastEndpoint.receiver)
        guard case .launchError(let e) = try await s.receiverReply(requestId: 2) else { return XCTFail("no LAUNCH_ERROR") }
        XCTAssertEqual(e.reason, .notFound)

        try await s.send(
            ReceiverMessage.getAppAvailability(AppAvailabilityRequest(requestId: 3, appId: ["CC1AD845", "ABCD1234", "DEADBEEF"])), to: CastEndpoint.receiver)
        guard case .appAvailability(let a) = try await s.receiverReply(requestId: 3) else { return XCTFail("no availability") }
        XCTAssertEqual(a.availability, ["CC1AD845": "APP_AVAILABLE", "ABCD1234": "APP_AVAILABLE", "DEADBEEF": "APP_UNAVAILABLE"])

        try await s.send(ReceiverMessage.setVolume(SetVolumeRequest(requestId: 4, volume: Volume(level: 0.25))), to: CastEndpoint.receiver)
        guard case .receiverStatus(let v) = try await s.receiverReply(requestId: 4) else { return XCTFail("no status after SET_VOLUME") }
        XCTAssertEqual(v.status.volume?.level, 0.25)
        try await s.send(ReceiverMessage.setVolume(SetVolumeRequest(requestId: 5, volume: Volume(muted: true))), to: CastEndpoint.receiver)
        guard case .receiverStatus(let m) = try await s.receiverReply(requestId: 5) else { return XCTFail("no status after mute") }
        XCTAssertEqual(m.status.volume?.muted, true)
        XCTAssertEqual(m.status.volume?.level, 0.25)

        let transport = try await launch(s, requestId: 6)
        let dmr = try await server.receiverStatus().runningApp
        XCTAssertEqual(dmr?.transportId, transport)
        XCTAssertTrue(dmr?.handles(CastNamespace.mediaURN) ?? false)

        // Launching another app stops the first: its transport is closed.
        try await s.send(ReceiverMessage.launch(LaunchRequest(requestId: 7, appId: "ABCD1234")), to: CastEndpoint.receiver)
        try await s.next("CLOSE of the old transport") { $0.namespace == CastNamespace.connectionURN && $0.sourceID == transport }
        guard case .receiverStatus(let hello) = try await s.receiverReply(requestId: 7) else { return XCTFail("no status") }
        let helloTransport = try XCTUnwrap(hello.status.runningApp?.transportId)
        try await s.connect(to: helloTransport)
        try await s.send(json: #"{"text":"hi"}"#, namespace: ReceiverApp.helloWorldNamespace, to: helloTransport)
        let echo = try await s.next("helloworld echo") { $0.namespace == ReceiverApp.helloWorldNamespace }
        XCTAssertEqual(echo.utf8, #"{"text":"hi"}"#)
        XCTAssertEqual(echo.sourceID, helloTransport)
        // Media is not a namespace of this app: dropped, no reply; the socket stays usable.
        try await s.send(MediaMessage.getStatus(MediaSessionRequest(requestId: 8, mediaSessionId: nil)), to: helloTransport)
        try await s.send(ReceiverMessage.stop(StopSessionRequest(requestId: 9, sessionId: "nope")), to: CastEndpoint.receiver)
        guard case .invalidRequest(let bad) = try await s.receiverReply(requestId: 9) else { return XCTFail("unknown session not refused") }
        XCTAssertEqual(bad.reason, .invalidSessionID)
        XCTAssertFalse(s.received.contains { (try? $0.decoded()).map { if case .media = $0 { true } else { false } } ?? false })
        try await s.send(ReceiverMessage.stop(StopSessionRequest(requestId: 10)), to: CastEndpoint.receiver)
        guard case .receiverStatus(let stopped) = try await s.receiverReply(requestId: 10) else { return XCTFail("no status after STOP") }
        XCTAssertEqual(stopped.status.applications ?? [], [])
    }

    // MARK: - Media

    func testLoadAndControls() async throws {
        try await startServer()
        let s = try await sender()
        let t = try await launch(s)
        try await s.send(MediaMessage.getStatus(MediaSessionRequest(requestId: 2, mediaSessionId: nil)), to: t)
        let empty = try await s.mediaStatus(requestId: 2)
        XCTAssertEqual(empty.status, [])

        var media = Self.movie
        media.textTrackStyle = TextTrackStyle(foregroundColor: "#FFFF00FF", fontScale: 1.2)
        var load = LoadRequest(requestId: 3, media: media, autoplay: true, currentTime: 5, activeTrackIds: [1])
        load.mediaSessionId = 77  // pychromecast sends a stale one; it must be ignored
        try await s.send(MediaMessage.load(load), to: t)
        let st = try await s.firstStatus(requestId: 3)
        XCTAssertEqual(st.playerState, .playing)
        XCTAssertEqual(st.currentTime, 5)
        XCTAssertEqual(st.activeTrackIds, [1])
        XCTAssertEqual(st.media?.metadata?.images?.first?.url, "https://example.com/p.jpg")
        XCTAssertEqual(st.media?.textTrackStyle?.foregroundColor, "#FFFF00FF")
        for c: MediaCommands in [.pause, .seek, .streamVolume, .streamMute, .queueNext, .queuePrev, .queueShuffle, .skipAd, .editTracks, .playbackRate] {
            XCTAssertTrue(st.supports(c), "supportedMediaCommands lacks \(c)")
        }
        let id = st.mediaSessionId

        clock.advance(by: 10)  // the clock alone: GET_STATUS computes the position
        var now = try await status(s, t, requestId: 4, .getStatus(MediaSessionRequest(requestId: 4, mediaSessionId: id)))
        XCTAssertEqual(now.currentTime, 15)

        now = try await status(s, t, requestId: 5, .pause(MediaSessionRequest(requestId: 5, mediaSessionId: id)))
        XCTAssertEqual(now.playerState, .paused)
        try await server.advanceClock(by: 30)
        now = try await status(s, t, requestId: 6, .getStatus(MediaSessionRequest(requestId: 6, mediaSessionId: id)))
        XCTAssertEqual(now.currentTime, 15, "a paused player does not move")

        now = try await status(s, t, requestId: 7, .seek(SeekRequest(requestId: 7, mediaSessionId: id, currentTime: 50, resumeState: .playbackStart)))
        XCTAssertEqual(now.currentTime, 50)
        XCTAssertEqual(now.playerState, .playing)

        try await s.send(MediaMessage.setPlaybackRate(SetPlaybackRateRequest(requestId: 8, mediaSessionId: id, playbackRate: 3)), to: t)
        guard case .invalidRequest(let tooFast) = try await s.mediaReply(requestId: 8) else { return XCTFail("rate 3 accepted") }
        XCTAssertEqual(tooFast.reason, .invalidParams)
        try await s.send(MediaMessage.setPlaybackRate(SetPlaybackRateRequest(requestId: 9, mediaSessionId: id, playbackRate: 0.25)), to: t)
        guard case .invalidRequest = try await s.mediaReply(requestId: 9) else { return XCTFail("rate 0.25 accepted") }
        now = try await status(s, t, requestId: 10, .setPlaybackRate(SetPlaybackRateRequest(requestId: 10, mediaSessionId: id, playbackRate: 2)))
        XCTAssertEqual(now.playbackRate, 2)
        try await server.advanceClock(by: 5)
        now = try await status(s, t, requestId: 11, .getStatus(MediaSessionRequest(requestId: 11, mediaSessionId: id)))
        XCTAssertEqual(now.currentTime, 60, "10 s of content in 5 s at 2×")

        now = try await status(s, t, requestId: 12, .setVolume(SetVolumeRequest(requestId: 12, mediaSessionId: id, volume: Volume(level: 0.4))))
        XCTAssertEqual(now.volume?.level, 0.4)
        now = try await status(s, t, requestId: 13, .setVolume(SetVolumeRequest(requestId: 13, mediaSessionId: id, volume: Volume(muted: true))))
        XCTAssertEqual(now.volume?.muted, true)

        now = try await status(s, t, requestId: 14, .editTracksInfo(EditTracksInfoRequest(requestId: 14, mediaSessionId: id, activeTrackIds: [2])))
        XCTAssertEqual(now.activeTrackIds, [2])
        try await s.send(MediaMessage.editTracksInfo(EditTracksInfoRequest(requestId: 15, mediaSessionId: id, activeTrackIds: [9])), to: t)
        guard case .invalidRequest(let unknownTrack) = try await s.mediaReply(requestId: 15) else { return XCTFail("unknown track accepted") }
        XCTAssertEqual(unknownTrack.reason, .invalidParams)
        let style = TextTrackStyle(foregroundColor: "#00FF00FF", edgeType: .dropShadow, fontScale: 1.5, fontGenericFamily: .serif)
        now = try await status(
            s, t, requestId: 16, .editTracksInfo(EditTracksInfoRequest(requestId: 16, mediaSessionId: id, activeTrackIds: [], textTrackStyle: style)))
        XCTAssertEqual(now.activeTrackIds, [])
        XCTAssertEqual(now.media?.textTrackStyle, style)
        now = try await status(s, t, requestId: 17, .editTracksInfo(EditTracksInfoRequest(requestId: 17, mediaSessionId: id, language: "fr")))
        XCTAssertEqual(now.activeTrackIds, [2])
        XCTAssertEqual(now.media?.textTrackStyle, style, "the style is kept until changed")

        try await s.send(MediaMessage.pause(MediaSessionRequest(requestId: 18, mediaSessionId: id + 5)), to: t)
        guard case .invalidRequest(let wrong) = try await s.mediaReply(requestId: 18) else { return XCTFail("wrong session accepted") }
        XCTAssertEqual(wrong.reason, .invalidMediaSessionID)

        // Play to the end: IDLE/FINISHED, to everyone with requestId 0.
        s.clear()
        try await server.advanceClock(by: 100)
        let finished = try await s.mediaStatus(requestId: 0)
        XCTAssertEqual(finished.status.first?.playerState, .idle)
        XCTAssertEqual(finished.status.first?.idleReason, .finished)
        XCTAssertEqual(finished.status.first?.currentTime, 100)
        try await s.send(MediaMessage.play(MediaSessionRequest(requestId: 19, mediaSessionId: id)), to: t)
        guard case .invalidPlayerState = try await s.mediaReply(requestId: 19) else { return XCTFail("PLAY after the end accepted") }
    }

    /// EDIT_TRACKS_INFO by language or enableTextTracks picks a track a viewer reads, never
    /// the chapter list or a METADATA track listed before it (issue 31).
    func testTextByLanguageSkipsChaptersAndMetadata() async throws {
        try await startServer()
        let s = try await sender()
        let t = try await launch(s)
        var media = Self.movie
        media.tracks = [
            MediaTrack(trackId: 1, type: .text, subtype: .chapters, trackContentId: "https://example.com/ch.vtt", language: "en"),
            MediaTrack(trackId: 2, type: .text, subtype: .metadata, trackContentId: "https://example.com/m.vtt", language: "en"),
            MediaTrack(trackId: 3, type: .text, subtype: .captions, trackContentId: "https://example.com/cc.vtt", language: "en"),
        ]
        try await s.send(MediaMessage.load(LoadRequest(requestId: 2, media: media, autoplay: true)), to: t)
        let id = try await s.firstStatus(requestId: 2).mediaSessionId
        var now = try await status(s, t, requestId: 3, .editTracksInfo(EditTracksInfoRequest(requestId: 3, mediaSessionId: id, language: "en")))
        XCTAssertEqual(now.activeTrackIds, [3])
        now = try await status(s, t, requestId: 4, .editTracksInfo(EditTracksInfoRequest(requestId: 4, mediaSessionId: id, enableTextTracks: false)))
        XCTAssertEqual(now.activeTrackIds, [])
        now = try await status(s, t, requestId: 5, .editTracksInfo(EditTracksInfoRequest(requestId: 5, mediaSessionId: id, enableTextTracks: true)))
        XCTAssertEqual(now.activeTrackIds, [3])
    }

    func testLoadInterruptsAndStopCancels() async throws {
        try await startServer()
        let s = try await sender()
        let t = try await launch(s)
        let first = try await load(s, on: t, requestId: 2)
        s.clear()
        let second = try await load(s, on: t, requestId: 3)
        XCTAssertEqual(second.mediaSessionId, first.mediaSessionId + 1)
        let interrupted = try await s.mediaStatus(requestId: 0)
        XCTAssertEqual(interrupted.status.first?.mediaSessionId, first.mediaSessionId)
        XCTAssertEqual(interrupted.status.first?.idleReason, .interrupted)
        let stopped = try await status(s, t, requestId: 4, .stop(MediaSessionRequest(requestId: 4, mediaSessionId: second.mediaSessionId)))
        XCTAssertEqual(stopped.playerState, .idle)
        XCTAssertEqual(stopped.idleReason, .cancelled)
    }

    func testEverySenderSeesEveryChange() async throws {
        try await startServer()
        let a = try await sender("sender-a")
        let b = try await sender("sender-b")
        let t = try await launch(a)
        try await b.connect(to: t)
        // Two sockets have no common order: let b's CONNECT land before a's LOAD.
        try await b.send(MediaMessage.getStatus(MediaSessionRequest(requestId: 1, mediaSessionId: nil)), to: t)
        _ = try await b.mediaStatus(requestId: 1)
        let loaded = try await load(a, on: t, requestId: 2)
        let bSawLoad = try await b.mediaStatus(requestId: 0)
        XCTAssertEqual(bSawLoad.status.first?.mediaSessionId, loaded.mediaSessionId)
        _ = try await status(b, t, requestId: 3, .pause(MediaSessionRequest(requestId: 3, mediaSessionId: loaded.mediaSessionId)))
        let aSawPause = try await a.mediaStatus(requestId: 0)
        XCTAssertEqual(aSawPause.status.first?.playerState, .paused)
        XCTAssertFalse(
            a.received.contains { (try? $0.decoded()).map { m in if case .media(.mediaStatus(let s)) = m { s.requestId == 3 } else { false } } ?? false },
            "only the asker gets its requestId")
        // Device volume: a RECEIVER_STATUS with requestId 0 reaches the other sender.
        try await b.send(ReceiverMessage.setVolume(SetVolumeRequest(requestId: 4, volume: Volume(level: 0.3))), to: CastEndpoint.receiver)
        _ = try await b.receiverReply(requestId: 4)
        guard case .receiverStatus(let seen) = try await a.receiverReply(requestId: 0) else { return XCTFail("no broadcast") }
        XCTAssertEqual(seen.status.volume?.level, 0.3)
    }
}
