// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastProtocol
import CastReceiver
import XCTest

/// AppModel on the real CastClient against the simulated receiver: every command goes over
/// TLS and every state the model shows comes back from the receiver.
@MainActor
final class AppModelTests: XCTestCase {
    var h: Harness!
    var prefs: MemoryStylePreferences!
    var model: AppModel!

    override func setUp() async throws {
        h = try await Harness.start()
        prefs = MemoryStylePreferences()
        model = h.model(preferences: prefs)
        let device = try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV"))
        await model.connect(to: device)
        XCTAssertTrue(model.isConnected, model.notice?.text ?? "")
    }

    override func tearDown() async throws {
        await model?.disconnect()
        await h?.stop()
    }

    /// Casts the sample and plays its 55 s pre-roll to the end (receiver time).
    func castSampleAndFinishPreRoll() async throws {
        await model.perform(.castSample)
        XCTAssertTrue(model.isPlayingAd)
        try await h.server.advanceClock(by: 55)
        try await waitUntil("the content after the pre-roll") { self.model.mediaStatus?.breakStatus == nil }
    }

    func testRateSegmentRule() {
        XCTAssertEqual(AppModel.rateSegment(for: 0.75), 0.5)
        XCTAssertEqual(AppModel.rateSegment(for: 0.5), 0.5)
        XCTAssertEqual(AppModel.rateSegment(for: 1.0), 1)
        XCTAssertEqual(AppModel.rateSegment(for: 1.25), 2)
        XCTAssertEqual(AppModel.rateSegment(for: 2), 2)
    }

    func testPositionIsInterpolatedFromTheLatestStatusOnly() async throws {
        try await castSampleAndFinishPreRoll()
        try await h.server.advanceClock(by: 10)
        await model.perform(.setRate(2))
        let playing = try XCTUnwrap(model.snapshot)
        let t = try XCTUnwrap(playing.status?.currentTime)
        XCTAssertEqual(model.position(at: playing.receivedAt + .seconds(3)), t + 6, accuracy: 0.001)
        XCTAssertEqual(model.selectedRate, 2)
        await model.perform(.togglePlayPause)
        XCTAssertFalse(model.isPlaying)
        let paused = try XCTUnwrap(model.snapshot)
        let p = try XCTUnwrap(paused.status?.currentTime)
        XCTAssertEqual(model.position(at: paused.receivedAt + .seconds(30)), p, accuracy: 0.001, "paused media does not advance")
    }

    func testDuringABreakTheContentHoldsAndTheClipClockRuns() async throws {
        await model.perform(.castSample)
        let s = try XCTUnwrap(model.snapshot)
        XCTAssertNotNil(s.status?.breakStatus)
        let held = model.position(at: s.receivedAt)
        XCTAssertEqual(model.position(at: s.receivedAt + .seconds(4)), held, "the content does not move during an ad")
        let early = try XCTUnwrap(model.adState(at: s.receivedAt))
        let later = try XCTUnwrap(model.adState(at: s.receivedAt + .seconds(4)))
        XCTAssertEqual(early.remaining - later.remaining, 4, accuracy: 0.001, "the clip clock runs at 1×")
    }

    func testAnotherSendersChangeShowsWithTheNextStatus() async throws {
        try await castSampleAndFinishPreRoll()
        XCTAssertEqual(model.selectedRate, 1)
        let phone = try await h.otherSender()
        defer { Task { await phone.leave() } }
        try await phone.media.setPlaybackRate(0.5)
        try await waitUntil("the other sender's rate") { self.model.selectedRate == 0.5 }
    }

    func testRateIsRefusedWhenTheReceiverCannotChangeIt() async throws {
        await model.disconnect()
        await h.stop()
        h = try await Harness.start(supported: [.pause, .seek, .streamVolume, .streamMute, .skipAd, .editTracks])
        model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address)))
        await model.perform(.castSample)
        XCTAssertFalse(model.supports(.playbackRate))
        let outcome = await model.perform(.setRate(2))
        XCTAssertEqual(outcome, .refused("This receiver cannot change the playback speed."))
        let rate = try await h.receiverMedia()?.playbackRate
        XCTAssertEqual(rate, 1, "nothing was sent")
    }

    func testLikeAndDislikeGoThroughTheTable() async throws {
        XCTAssertFalse(model.isEnabled(.like), "nothing loaded, and the default receiver takes no likes")
        await model.disconnect()
        await h.stop()
        h = try await Harness.start(supported: [.pause, .seek, .streamVolume, .streamMute, .skipAd, .editTracks, .playbackRate, .like, .dislike])
        model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address)))
        await model.perform(.castSample)
        XCTAssertTrue(model.offersRating)
        XCTAssertEqual(model.state(of: .like), .bool(false))
        let liked = await model.perform(.like)
        XCTAssertEqual(liked, .performed)
        XCTAssertEqual(model.state(of: .like), .bool(true), "current when the command returns")
        let onReceiver = try await h.receiverMedia()?.media?.userActionStates?.map(\.userAction)
        XCTAssertEqual(onReceiver, [.like])
        await model.perform(.dislike)
        XCTAssertEqual(model.userActions, [.dislike])
        await model.perform(.dislike)
        XCTAssertEqual(model.userActions, [], "pressed again, the dislike is taken back")
    }

    func testAdBannerAndSkipCountdown() async throws {
        await model.perform(.castSample)
        try await h.server.advanceClock(by: 2)
        try await model.session!.media.requestStatus()
        let s = try XCTUnwrap(model.snapshot)
        var ad = try XCTUnwrap(model.adState(at: s.receivedAt))
        XCTAssertEqual(ad.clipIndex, 1)
        XCTAssertEqual(ad.clipCount, 3)
        XCTAssertEqual(ad.remaining, 13, accuracy: 0.001)
        XCTAssertEqual(ad.skippableIn, 3)
        let seek = await model.perform(.seekBy(30))
        XCTAssertEqual(seek, .refused("Seeking is not possible while an ad plays."))
        // The receiver's clock moves to 5.5 s into the clip: now it may be skipped.
        try await h.server.advanceClock(by: 3.5)
        try await model.session!.media.requestStatus()
        ad = try XCTUnwrap(model.adState(at: model.snapshot!.receivedAt))
        XCTAssertTrue(ad.isSkippable)
        await model.perform(.skipAd)
        let clip = try await h.receiverMedia()?.breakStatus?.breakClipId
        XCTAssertEqual(clip, "pre-2")
    }

    func testSkipBeforeItIsAllowedOnlyExplains() async throws {
        await model.perform(.castSample)
        let outcome = await model.perform(.skipAd)
        guard case .refused(let why?) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertNotNil(why.range(of: "can be skipped in"), why)
        let clip = try await h.receiverMedia()?.breakStatus?.breakClipId
        XCTAssertEqual(clip, "pre-1")
    }

    func testBreakMarkers() async throws {
        await model.perform(.castSample)
        XCTAssertEqual(model.breakMarkers, [.init(position: 0, isWatched: false), .init(position: 300, isWatched: false)])
        try await h.server.advanceClock(by: 55)
        try await waitUntil("the pre-roll marked watched") { self.model.breakMarkers.first?.isWatched == true }
        XCTAssertEqual(model.breakMarkers, [.init(position: 0, isWatched: true), .init(position: 300, isWatched: false)])
    }

    func testTrackSelectionKeepsTheOtherKind() async throws {
        try await castSampleAndFinishPreRoll()
        await model.perform(.selectAudioTrack(3))
        await model.perform(.selectTextTrack(1))
        let seen1 = try await h.receiverMedia()?.activeTrackIds?.sorted()
        XCTAssertEqual(seen1, [1, 3])
        XCTAssertEqual(model.activeTextTrackID, 1)
        await model.perform(.selectTextTrack(nil))
        let seen2 = try await h.receiverMedia()?.activeTrackIds
        XCTAssertEqual(seen2, [3])
        await model.perform(.selectTextTrack(2))
        await model.perform(.selectAudioTrack(4))
        let seen3 = try await h.receiverMedia()?.activeTrackIds?.sorted()
        XCTAssertEqual(seen3, [2, 4])
        XCTAssertEqual(model.activeAudioTrackID, 4)
    }

    func testDefaultStyleIsSentWithEveryLaterLoad() async throws {
        await model.perform(.castSample)
        let seen4 = try await h.receiverMedia()?.media?.textTrackStyle?.foregroundColor
        XCTAssertNil(seen4)
        model.draftStyle.foregroundColor = "#FFFF00FF"
        await model.perform(.applyStyle)
        XCTAssertEqual(model.notice?.text, "The subtitle style is shown on Demo TV.")
        await model.perform(.useStyleAsDefault)
        XCTAssertEqual(prefs.defaultTextTrackStyle?.foregroundColor, "#FFFF00FF")
        await model.perform(.castSample)
        let seen5 = try await h.receiverMedia()?.media?.textTrackStyle?.foregroundColor
        XCTAssertEqual(seen5, "#FFFF00FF")
    }

    func testErrorsBecomeNotices() async throws {
        try await castSampleAndFinishPreRoll()
        await model.perform(.setRate(4))  // the receiver allows 0.5 ... 2
        // One sentence for people; the protocol's words only behind "Details".
        let refusal = try XCTUnwrap(model.notice)
        XCTAssertEqual(refusal.text, "Demo TV refused the request.")
        XCTAssertNotNil(refusal.detail?.range(of: "SET_PLAYBACK_RATE"), refusal.detail ?? "no detail")
        let seen6 = try await h.receiverMedia()?.playbackRate
        XCTAssertEqual(seen6, 1)
        await model.perform(.togglePlayPause)
        let seen7 = try await h.receiverMedia()?.playerState
        XCTAssertEqual(seen7, .paused, "the session still works")
    }

    func testConnectFailureIsReported() async throws {
        let m = h.model()
        let d = try XCTUnwrap(m.addDevice(address: "127.0.0.1:1"))
        await m.connect(to: d)
        XCTAssertEqual(m.connection, .disconnected)
        let notice = try XCTUnwrap(m.notice)
        // The address stays left to right inside a sentence of either direction.
        XCTAssertEqual(notice.text, "\u{2066}\(d.friendlyName)\u{2069} did not answer. Check that it is on and on this network.")
        XCTAssertTrue(notice.detail?.contains("Connection refused") == true, notice.detail ?? "no detail")
        XCTAssertEqual(notice.retryDeviceID, d.id, "the toast offers to try again")
    }

    func testAddingDevicesByAddress() async throws {
        XCTAssertNil(model.addDevice(address: "host:x"))
        XCTAssertEqual(model.notice?.text, "“host:x” is not an address. Enter a host name or IP address, optionally with :port.")
        let again = model.addDevice(address: " \(h.address) ")
        XCTAssertEqual(again?.id, h.address, "the same address is the same device")
        XCTAssertEqual(model.devices.filter { $0.port == h.server.port }.count, 1)
    }

    func testTheEndOfTheConnectionIsNoticed() async throws {
        try await castSampleAndFinishPreRoll()
        await h.server.stop()
        try await waitUntil("the model to notice") { !self.model.isConnected }
        XCTAssertEqual(model.notice?.text, "The connection to Demo TV was lost.")
        XCTAssertNil(model.mediaStatus)
    }

    func testCastSampleThenChangeRate() async throws {
        await model.perform(.castSample)
        try await waitUntil("the sample's status") { self.model.title == "Big Buck Bunny" }
        XCTAssertEqual(model.adState?.clipCount, 3, "the sample starts in its pre-roll")
        await model.perform(.setRate(2))
        XCTAssertEqual(model.selectedRate, 2)
        let seen8 = try await h.receiverMedia()?.playbackRate
        XCTAssertEqual(seen8, 2)
        await model.disconnect()
        XCTAssertFalse(model.isConnected)
        XCTAssertNil(model.mediaStatus)
    }
}

/// Connecting elsewhere keeps the working session until the new one is up.
@MainActor
final class SwitchingDevicesTests: XCTestCase {
    func testAFailedConnectionKeepsTheSessionThatWorks() async throws {
        let h = try await Harness.start()
        let model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV")))
        await model.perform(.castSample)
        let working = try XCTUnwrap(model.session)
        // Port 1 on loopback refuses at once: the attempt fails with a notice.
        let nowhere = try XCTUnwrap(model.addDevice(address: "127.0.0.1:1"))
        await model.connect(to: nowhere)
        XCTAssertTrue(model.session === working, "the working session was dropped")
        XCTAssertTrue(model.isConnected)
        XCTAssertNotNil(model.notice)
        // And it still controls the receiver.
        await model.perform(.togglePlayPause)
        let state = try await h.receiverMedia()?.playerState
        XCTAssertEqual(state, .paused)
        await model.disconnect()
        await h.stop()
    }
}
