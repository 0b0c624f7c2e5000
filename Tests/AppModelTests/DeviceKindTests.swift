// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastCore
import CastProtocol
import CastReceiver
import Foundation
import XCTest

@testable import AppModel

/// Issue 30, items 3–5: the simulator's device kinds as the window's model meets them, apps
/// CastDeck did not start, and the ways a session goes away (each one sentence; Resume where
/// CastDeck cast the media). The receiver runs on a manual clock: ambient mode and a hub's
/// idle timeout come from ADVANCE_CLOCK, the rest from the device-event hooks.
@MainActor
final class DeviceKindTests: XCTestCase {
    struct IconProvider: ArtworkProvider {
        func localPath(for images: [CastImage], use: ImageUse, scale: Int) async -> String? {
            images.first.map { "/icons/" + String($0.url.suffix(8)) + ".png" }
        }
    }

    static let film = MediaInformation(
        contentId: "https://media.example/film.mp4", contentType: "video/mp4", metadata: MediaMetadata(title: "Long Film"), duration: 3600,
        tracks: [MediaTrack(trackId: 1, type: .text, trackContentId: "https://media.example/en.vtt", language: "en")])

    func connected(_ h: Harness, artwork: any ArtworkProvider = LocalArtworkProvider()) async throws -> AppModel {
        let model = AppModel(directory: h.directory(), client: h.client, artwork: artwork, preferences: MemoryStylePreferences())
        model.sampleMedia = Self.film
        model.start()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Living Room TV")))
        XCTAssertTrue(model.isConnected, model.notice?.text ?? "")
        return model
    }

    func event(_ h: Harness, _ json: String) async throws {
        let ok = try await h.server.deviceEvent(try JSONValue(parsing: Array(json.utf8)))
        XCTAssertTrue(ok, json)
    }

    func testEachKindReportsWhatItsRealDeviceDoes() async throws {
        let expected: [(ReceiverKind, String, Bool, String?)] = [
            (.chromecast, "attenuation", true, CastAppID.backdrop), (.googleTV, "fixed", false, nil), (.nestHub, "master", false, CastAppID.backdrop),
            (.speaker, "master", false, nil), (.projector, "fixed", true, nil), (.tv, "master", true, nil),
        ]
        for (kind, control, input, idle) in expected {
            let h = try await Harness.start(kind: kind)
            let status = try await h.server.receiverStatus()
            XCTAssertEqual(status.volume?.controlType, control, kind.rawValue)
            XCTAssertEqual(status.isActiveInput != nil, input, kind.rawValue)
            XCTAssertEqual(status.applications?.first?.appId, idle, kind.rawValue)
            XCTAssertEqual(status.applications?.first?.isIdleScreen, idle == nil ? nil : true, kind.rawValue)
            XCTAssertEqual(h.server.configuration.model, kind.model)
            await h.stop()
        }
    }

    func testAProjectorHasNoVolumeToSetAndSaysWhenItsInputIsSwitched() async throws {
        let h = try await Harness.start(kind: .projector)
        let model = try await connected(h)
        XCTAssertTrue(model.hasFixedVolume)
        XCTAssertFalse(model.isEnabled(.setVolume))
        XCTAssertFalse(model.isEnabled(.toggleMute))
        await model.perform(.castSample)
        try await waitUntil("the film plays") { model.hasMedia }
        try await event(h, #"{"type": "SWITCH_INPUT", "active": false}"#)
        try await waitUntil("the input is said") { model.isInputSwitchedAway }
        XCTAssertEqual(model.notice?.text, "Living Room TV switched to another input.")
        // A projector's Cast input plays on where nobody looks: nothing to resume.
        XCTAssertNil(model.sessionEnd?.resumeAt)
        XCTAssertTrue(model.hasMedia)
        await model.disconnect()
        await h.stop()
    }

    func testASpeakerRunsTheAudioOnlyReceiverAndIsOfferedNoSubtitlesOrVideo() async throws {
        let h = try await Harness.start(kind: .speaker)
        let model = try await connected(h)
        await model.load(Self.film)
        try await waitUntil("it plays") { model.hasMedia }
        let app = try await h.server.receiverStatus().applications?.first
        XCTAssertEqual(app?.appId, CastAppID.audioDefaultMediaReceiver)
        XCTAssertEqual(app?.appType, "WEB")
        XCTAssertTrue(model.isAudioOnlyDevice)
        XCTAssertNil(model.otherApp, "the audio-only Default Media Receiver is CastDeck's own")
        XCTAssertTrue(model.textTracks.isEmpty)
        XCTAssertFalse(model.isEnabled(.castSample))
        XCTAssertFalse(model.isEnabled(.applyStyle))
        await model.disconnect()
        await h.stop()
    }

    func testYouTubeOnAGoogleTVIsNamedAndControlledAsFarAsItAllows() async throws {
        let h = try await Harness.start(kind: .tv)
        let model = try await connected(h, artwork: IconProvider())
        try await event(
            h,
            #"{"type": "LAUNCH", "appId": "233637DE", "load": {"requestId": 1, "media": {"contentId": "yt:abc", "contentType": "video/mp4", "streamType": "BUFFERED", "duration": 212, "metadata": {"metadataType": 0, "title": "A Video"}}}}"#
        )
        try await waitUntil("YouTube's media is shown") { model.title == "A Video" }
        let app = try XCTUnwrap(model.otherApp)
        XCTAssertEqual(app.name, "YouTube")
        XCTAssertTrue(app.isAndroidTV)
        XCTAssertTrue(app.speaksMedia)
        XCTAssertNil(app.statusText, "its status text says only its name (\"Youtube\")")
        // YouTube allows pause and seek, nothing more.
        XCTAssertTrue(model.isEnabled(.pause), "\(String(describing: model.mediaStatus))")
        XCTAssertTrue(model.isEnabled(.seekForward30))
        XCTAssertFalse(model.isEnabled(.setRate))
        XCTAssertTrue(model.isEnabled(.stopOtherApp))
        let serial = model.notice?.serial
        await model.perform(.stopOtherApp)
        try await waitUntil("YouTube is gone") { model.otherApp == nil }
        XCTAssertEqual(model.notice?.serial, serial, "stopping it ourselves is no news")
        XCTAssertNil(model.sessionEnd)
        await model.disconnect()
        await h.stop()
    }

    func testSpotifysIconComesThroughTheImageCacheAndCastingReplacesIt() async throws {
        let h = try await Harness.start(kind: .speaker)
        let model = try await connected(h, artwork: IconProvider())
        try await event(h, #"{"type": "LAUNCH", "appId": "CC32E753"}"#)
        try await waitUntil("Spotify is named") { model.otherApp?.name == "Spotify" }
        try await waitUntil("its icon is on disk") { model.foreignAppIconPath == "/icons/rWYimVgK.png" }
        let serial = model.notice?.serial
        await model.load(Self.film)
        try await waitUntil("ours plays instead") { model.hasMedia && model.otherApp == nil }
        XCTAssertEqual(model.notice?.serial, serial, "casting over Spotify is not told as Spotify going away")
        await model.disconnect()
        await h.stop()
    }

    func testAmbientModeClosesAPausedFilmAndResumeLoadsItWhereItStood() async throws {
        let h = try await Harness.start(kind: .chromecast, ambientAfter: 1200)
        let model = try await connected(h)
        await model.perform(.castSample)
        try await waitUntil("the film plays") { model.hasMedia }
        try await h.server.advanceClock(by: 100)
        await model.perform(.pause)
        try await waitUntil("paused") { model.phase == .paused }
        try await h.server.advanceClock(by: 1300)
        try await waitUntil("the ending is said") { model.sessionEnd != nil }
        XCTAssertEqual(model.sessionEnd?.ending, .ambientMode)
        XCTAssertEqual(model.notice?.text, "Living Room TV closed Long Film after it had been paused for a long time.")
        XCTAssertEqual(model.notice?.offer, .resumeEnded)
        XCTAssertEqual(model.sessionEnd?.resumeAt ?? 0, 100, accuracy: 0.5)
        XCTAssertTrue(model.isEnabled(.resumeEnded))
        await model.perform(.resumeEnded)
        try await waitUntil("loaded again") { model.hasMedia }
        let media = try await h.receiverMedia()
        XCTAssertEqual(media?.media?.contentId, Self.film.contentId)
        XCTAssertEqual(media?.currentTime ?? 0, 100, accuracy: 0.5)
        XCTAssertNil(model.sessionEnd)
        await model.disconnect()
        await h.stop()
    }

    func testAnotherPhoneTakingOverAndAHubsIdleTimeoutAreEachSaid() async throws {
        let h = try await Harness.start(kind: .nestHub)
        let model = try await connected(h)
        await model.perform(.castSample)
        try await waitUntil("the film plays") { model.hasMedia }
        try await event(h, #"{"type": "LAUNCH", "appId": "CC32E753"}"#)
        try await waitUntil("the takeover is said") { model.sessionEnd != nil }
        XCTAssertEqual(model.notice?.text, "Someone else started Spotify on Living Room TV.")
        XCTAssertEqual(model.notice?.offer, .resumeEnded)
        // Ours again, then stopped: after the hub's idle timeout (600 s) it goes home.
        await model.perform(.resumeEnded)
        try await waitUntil("ours plays") { model.hasMedia && model.otherApp == nil }
        await model.perform(.stopCasting)
        try await waitUntil("stopped") { !model.hasMedia }
        try await h.server.advanceClock(by: 601)
        try await waitUntil("the timeout is said") { model.sessionEnd?.ending == .idleTimeout }
        XCTAssertEqual(model.notice?.text, "Living Room TV went back to its home screen because nothing was playing.")
        let idle = try await h.server.receiverStatus().applications?.first
        XCTAssertEqual(idle?.isIdleScreen, true, "Backdrop is back")
        await model.disconnect()
        await h.stop()
    }

    func testEveryEndingHasItsSentenceInEnglishForCastctl() {
        let cases: [(SessionEnding, String)] = [
            (.ambientMode, "TV closed Film after it had been paused for a long time."),
            (.idleTimeout, "TV went back to its home screen because nothing was playing."),
            (.closed, "Film was stopped on TV."),
            (.takenOver(by: "YouTube"), "Someone else started YouTube on TV."),
            (.inputSwitched, "TV switched to another input."),
            (.restarted, "TV stopped playing Film, probably because it restarted."),
        ]
        for (ending, sentence) in cases { XCTAssertEqual(ending.sentence(device: "TV", title: "Film"), sentence) }
    }
}
