import AppModel
import CastProtocol
import XCTest

/// A session that records the commands it gets and lets the test push receiver statuses.
/// (The model's collaborators are protocols; the real ones are wired in the app.)
final class RecordingSession: CastSessionHandle, @unchecked Sendable {
    var commands: [String] = []
    var loaded: MediaInformation?
    var failNext: (any Error)?
    let stream: AsyncStream<MediaStatus?>
    let continuation: AsyncStream<MediaStatus?>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream() }

    func mediaStatuses() -> AsyncStream<MediaStatus?> { stream }
    private func record(_ c: String) throws {
        if let e = failNext { failNext = nil; throw e }
        commands.append(c)
    }
    func load(_ media: MediaInformation, autoplay: Bool, activeTrackIds: [Int]?) async throws {
        try record("load"); loaded = media
    }
    func play() async throws { try record("play") }
    func pause() async throws { try record("pause") }
    func seek(to seconds: Double) async throws { try record("seek \(seconds)") }
    func setPlaybackRate(_ rate: Double) async throws { try record("rate \(rate)") }
    func setActiveTracks(_ ids: [Int]) async throws { try record("tracks \(ids)") }
    func setTextTrackStyle(_ style: TextTrackStyle) async throws { try record("style \(style.foregroundColor ?? "")") }
    func skipAd() async throws { try record("skipAd") }
    func setVolume(_ level: Double) async throws { try record("volume \(level)") }
    func setMuted(_ muted: Bool) async throws { try record("muted \(muted)") }
    func stopMedia() async throws { try record("stop") }
    func disconnect() async { commands.append("disconnect") }
}

struct Refusal: Error, CustomStringConvertible { var description: String }

struct OneSessionConnector: CastConnector {
    let session: RecordingSession
    var failure: Refusal?
    func connect(to device: DeviceInfo) async throws -> any CastSessionHandle {
        if let failure { throw failure }
        return session
    }
}

final class Clock: @unchecked Sendable { var now = 100.0 }

@MainActor
final class AppModelTests: XCTestCase {
    var session: RecordingSession!
    var clock: Clock!
    var prefs: MemoryStylePreferences!
    var model: AppModel!

    override func setUp() async throws {
        session = RecordingSession()
        clock = Clock()
        prefs = MemoryStylePreferences()
        let c = clock!
        model = AppModel(connector: OneSessionConnector(session: session), preferences: prefs, clock: { c.now })
        model.sampleMedia = SampleMedia.bigBuckBunny(artworkPath: nil)
        let device = model.addDevice(address: "127.0.0.1:8009", name: "Demo TV")!
        await model.connect(to: device)
    }

    func status(_ state: PlayerState = .playing, time: Double = 10, rate: Double = 1,
                breakStatus: BreakStatus? = nil) -> MediaStatus {
        var s = MediaStatus(mediaSessionId: 1, playerState: state)
        s.currentTime = time
        s.playbackRate = rate
        s.media = SampleMedia.bigBuckBunny(artworkPath: nil)
        s.supportedMediaCommands = .allBasicMedia
        s.volume = Volume(level: 0.5, muted: false)
        s.breakStatus = breakStatus
        return s
    }

    func testRateSegmentRule() {
        XCTAssertEqual(AppModel.rateSegment(for: 0.75), 0.5)
        XCTAssertEqual(AppModel.rateSegment(for: 0.5), 0.5)
        XCTAssertEqual(AppModel.rateSegment(for: 1.0), 1)
        XCTAssertEqual(AppModel.rateSegment(for: 1.25), 2)
        XCTAssertEqual(AppModel.rateSegment(for: 2), 2)
    }

    func testPositionIsInterpolatedFromTheLatestStatusOnly() {
        model.receive(status(time: 10, rate: 2))
        clock.now += 3
        XCTAssertEqual(model.position, 16, accuracy: 0.001)
        XCTAssertEqual(model.selectedRate, 2)
        model.receive(status(.paused, time: 20, rate: 2))
        clock.now += 30
        XCTAssertEqual(model.position, 20, accuracy: 0.001, "paused media does not advance")
        XCTAssertFalse(model.isPlaying)
    }

    func testAnotherSendersChangeShowsWithTheNextStatus() {
        model.receive(status(rate: 1))
        XCTAssertEqual(model.selectedRate, 1)
        model.receive(status(rate: 0.5))
        XCTAssertEqual(model.selectedRate, 0.5)
    }

    func testRateIsRefusedWhenUnsupported() async {
        var s = status()
        s.supportedMediaCommands = [.pause, .seek]
        model.receive(s)
        await model.setRate(2)
        XCTAssertFalse(session.commands.contains("rate 2.0"))
        XCTAssertNotNil(model.notice)
        model.receive(status())
        await model.setRate(2)
        XCTAssertTrue(session.commands.contains("rate 2.0"))
    }

    func testAdBannerAndSkipCountdown() async {
        let b = BreakStatus(breakId: "pre-roll", breakClipId: "pre-1", currentBreakTime: 2, currentBreakClipTime: 2)
        model.receive(status(time: 0, breakStatus: b))
        var ad = model.adState!
        XCTAssertEqual(ad.clipIndex, 1)
        XCTAssertEqual(ad.clipCount, 3)
        XCTAssertEqual(ad.remaining, 13, accuracy: 0.001)
        XCTAssertEqual(ad.skippableIn, 3)
        await model.skipAd()
        XCTAssertFalse(session.commands.contains("skipAd"), "not skippable yet")
        await model.seek(by: 30)
        XCTAssertFalse(session.commands.contains { $0.hasPrefix("seek") }, "no seeking during ads")
        clock.now += 3.5
        ad = model.adState!
        XCTAssertTrue(ad.isSkippable)
        await model.skipAd()
        XCTAssertTrue(session.commands.contains("skipAd"))
    }

    func testBreakMarkers() {
        var s = status()
        s.media?.breaks?[0].isWatched = true
        model.receive(s)
        XCTAssertEqual(model.breakMarkers, [.init(position: 0, isWatched: true), .init(position: 300, isWatched: false)])
    }

    func testTrackSelectionKeepsTheOtherKind() async {
        var s = status()
        s.activeTrackIds = [3]
        model.receive(s)
        await model.selectTextTrack(1)
        XCTAssertEqual(session.commands.last, "tracks [3, 1]")
        s.activeTrackIds = [3, 1]
        model.receive(s)
        XCTAssertEqual(model.activeTextTrackID, 1)
        await model.selectTextTrack(nil)
        XCTAssertEqual(session.commands.last, "tracks [3]")
        await model.selectAudioTrack(4)
        XCTAssertEqual(session.commands.last, "tracks [1, 4]")
    }

    func testDefaultStyleIsSentWithEveryLaterLoad() async {
        await model.castSample()
        XCTAssertNil(session.loaded?.textTrackStyle)
        model.draftStyle.foregroundColor = "#FFFF00FF"
        await model.applyStyle()
        XCTAssertEqual(session.commands.last, "style #FFFF00FF")
        model.useStyleAsDefault()
        XCTAssertEqual(prefs.defaultTextTrackStyle?.foregroundColor, "#FFFF00FF")
        await model.castSample()
        XCTAssertEqual(session.loaded?.textTrackStyle?.foregroundColor, "#FFFF00FF")
    }

    func testErrorsBecomeNotices() async {
        model.receive(status())
        session.failNext = Refusal(description: "Demo TV refused: INVALID_REQUEST")
        await model.togglePlayPause()
        XCTAssertEqual(model.notice?.text, "Demo TV refused: INVALID_REQUEST")
        await model.togglePlayPause()
        XCTAssertEqual(session.commands.last, "pause")
    }

    func testConnectFailureIsReported() async {
        let c = clock!
        let m = AppModel(connector: OneSessionConnector(session: session, failure: Refusal(description: "no answer within 10 s")),
                         preferences: prefs, clock: { c.now })
        let d = m.addDevice(address: "10.0.0.9")!
        await m.connect(to: d)
        XCTAssertEqual(m.connection, .disconnected)
        XCTAssertEqual(m.notice?.text, "Could not connect to 10.0.0.9: no answer within 10 s")
    }

    func testAddressParsing() {
        XCTAssertTrue(AppModel.parseAddress("192.168.1.5")! == ("192.168.1.5", 8009))
        XCTAssertTrue(AppModel.parseAddress(" tv.local:8010 ")! == ("tv.local", 8010))
        XCTAssertTrue(AppModel.parseAddress("[::1]:9000")! == ("::1", 9000))
        XCTAssertNil(AppModel.parseAddress(""))
        XCTAssertNil(AppModel.parseAddress("host:99999"))
        XCTAssertNil(AppModel.parseAddress("a b"))
        XCTAssertNil(model.addDevice(address: "host:x"))
        XCTAssertNotNil(model.notice)
    }

    func testStatusStreamDrivesTheModel() async throws {
        session.continuation.yield(status(rate: 0.5))
        for _ in 0..<100 where model.mediaStatus == nil { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(model.selectedRate, 0.5)
        session.continuation.finish()
        for _ in 0..<100 where model.isConnected { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertFalse(model.isConnected, "a finished status stream means the connection ended")
    }
}
