// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import CastReceiver
import Foundation
import XCTest

@testable import AppModel

/// What the window shows must be what the device does (issue: "The window tells the truth"):
/// a vanished device, media that ended, the device's own volume, an app CastDeck cannot
/// control, a device known only by address. Each against the simulated receiver over TLS.
@MainActor
final class WindowTruthTests: XCTestCase {
    /// Media with no breaks that ends after `duration` seconds of receiver time.
    static func shortMedia(_ duration: Double = 20) -> MediaInformation {
        MediaInformation(
            contentId: "https://media.example/short.mp4", contentType: "video/mp4",
            metadata: MediaMetadata(title: "Short Film"), duration: duration)
    }

    func connected(_ h: Harness) async throws -> AppModel {
        let model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV")))
        XCTAssertTrue(model.isConnected, model.notice?.text ?? "")
        return model
    }

    func testAVanishedDeviceFreezesTheClockUntilItIsBack() async throws {
        let h = try await Harness.start(reconnect: true)
        let port = try XCTUnwrap(h.server.port)
        let model = try await connected(h)
        await model.load(Self.shortMedia(600))
        try await waitUntil("playing") { model.isPlaying }
        try await h.server.advanceClock(by: 30)
        _ = try await model.session?.media.requestStatus()
        try await waitUntil("the status at 30 s") { (model.mediaStatus?.currentTime ?? 0) >= 30 }
        XCTAssertTrue(model.isEnabled(.togglePlayPause))

        await h.server.stop()
        try await waitUntil("reconnecting") { model.isReconnecting }
        let frozen = model.position(at: .now)
        XCTAssertEqual(model.position(at: .now + .seconds(60)), frozen, "the clock stands still while the device is gone")
        for name in [AppAction.Name.togglePlayPause, .seekForward, .seekTo, .stopCasting, .setVolume, .setRate] {
            XCTAssertFalse(model.isEnabled(name), "\(name) stays live while reconnecting")
        }
        XCTAssertTrue(model.isEnabled(.disconnect), "Disconnect is offered")
        XCTAssertNil(model.adState)

        // The device comes back (restarted: nothing plays there now) and the window follows it.
        let back = try await Harness.start(port: port, reconnect: true)
        try await waitUntil("connected again") { model.isConnected }
        XCTAssertFalse(model.isReconnecting)
        try await waitUntil("what plays there now (nothing)") { !model.hasMedia }
        await model.disconnect()
        await back.stop()
        await h.stop()
    }

    func testFinishedMediaOffersPlayAgainWhichPlaysIt() async throws {
        let h = try await Harness.start()
        let model = try await connected(h)
        await model.load(Self.shortMedia(20))
        try await waitUntil("playing") { model.isPlaying }
        XCTAssertFalse(model.isEnabled(.playAgain))
        try await h.server.advanceClock(by: 25)
        try await waitUntil("finished") { model.phase == .finished }
        XCTAssertFalse(model.hasMedia, "finished media is not loaded: the mini controller goes")
        XCTAssertTrue(model.showsPlayer, "the player stays to offer Play Again")
        XCTAssertFalse(model.isEnabled(.togglePlayPause), "Play cannot work on finished media")
        XCTAssertFalse(model.isEnabled(.seekTo))
        XCTAssertTrue(model.isEnabled(.playAgain))

        await model.perform(.playAgain)
        try await waitUntil("playing again") { model.phase == .playing }
        let status = try await h.receiverMedia()
        XCTAssertEqual(status?.playerState, .playing)
        XCTAssertEqual(status?.media?.contentId, Self.shortMedia().contentId)
        XCTAssertLessThan(status?.currentTime ?? 99, 1, "from the start")

        await model.perform(.stopCasting)
        try await waitUntil("stopped") { model.phase == .stopped }
        XCTAssertTrue(model.isEnabled(.playAgain))
        await model.disconnect()
        await h.stop()
    }

    func testTheVolumeIsTheDevicesAndFollowsOtherSenders() async throws {
        let h = try await Harness.start()
        let model = try await connected(h)
        XCTAssertTrue(model.isEnabled(.setVolume), "the device volume works with nothing playing")
        // Another sender (castctl volume 0.4, a phone): the platform only, no app joined.
        let other = CastSession(device: try DeviceAddress(parsing: h.address), configuration: h.client)
        _ = try await other.connect()
        try await other.setVolume(0.4)
        try await waitUntil("another sender's volume") { abs(model.volumeLevel - 0.4) < 0.001 }
        await model.perform(.setVolume(0.25))
        let level = try await h.server.receiverStatus().volume?.level
        XCTAssertEqual(level ?? 0, 0.25, accuracy: 0.001)
        await model.perform(.toggleMute)
        let muted = try await h.server.receiverStatus().volume?.muted
        XCTAssertEqual(muted, true)
        try await waitUntil("muted shows") { model.isMuted }
        await other.leave()
        await model.disconnect()
        await h.stop()
    }

    func testAnAppCastDeckCannotControlIsNamed() async throws {
        let party = ReceiverApp(appId: "5C3F0A3C", displayName: "Backdrop Party", namespaces: ["urn:x-cast:com.example.party"])
        let h = try await Harness.start(apps: [party])
        let model = try await connected(h)
        XCTAssertNil(model.foreignApp)
        let other = CastSession(device: try DeviceAddress(parsing: h.address), configuration: h.client)
        _ = try await other.start(appID: party.appId)
        try await waitUntil("the foreign app is named") { model.foreignApp == "Backdrop Party" }
        XCTAssertFalse(model.hasMedia)
        // When media starts there (another sender launches the media receiver), the window joins it.
        await other.leave()
        let phone = CastSession(device: try DeviceAddress(parsing: h.address), configuration: h.client)
        _ = try await phone.start()
        _ = try await phone.media.load(Self.shortMedia())
        try await waitUntil("the window follows the device") { model.title == "Short Film" }
        await phone.leave()
        await model.disconnect()
        await h.stop()
    }

    func testADeviceAddedByAddressShowsItsOwnName() async throws {
        // A device on the standard ports (8009, setup API on 8008) at its own loopback address.
        let host = "127.\(Int.random(in: 1...250)).\(Int.random(in: 1...250)).\(Int.random(in: 2...250))"
        var config = ReceiverConfiguration()
        config.host = host
        config.port = 8009
        config.setupPort = 8008
        config.friendlyName = "Living Room TV"
        config.model = "Chromecast Ultra"
        let server = CastReceiverServer(configuration: config)
        try await server.start()
        XCTAssertEqual(server.setupPort, 8008)
        let info = await DeviceSetupInfo.fetch(DeviceAddress(host: host, port: 8009))
        XCTAssertEqual(info?.name, "Living Room TV")
        XCTAssertEqual(info?.model, "Chromecast Ultra")

        let h = try await Harness.start()
        let model = h.model()
        let added = try XCTUnwrap(model.addDevice(address: host))
        XCTAssertEqual(added.friendlyName, "\(host):8009", "the address until the device has said its name")
        try await waitUntil("the device's name") { model.devices.contains { $0.friendlyName == "Living Room TV" } }
        XCTAssertEqual(model.devices.first { $0.host == host }?.model, "Chromecast Ultra")
        await server.stop()
        await h.stop()
    }

    func testSetupInfoIgnoresWhatIsNotAName() {
        XCTAssertNil(DeviceSetupInfo.parse(Array("not json".utf8)))
        XCTAssertNil(DeviceSetupInfo.parse(Array("{\"name\": 5}".utf8)))
        let hostile = DeviceSetupInfo.parse(Array("{\"name\": \"TV\\u0000\\n\\u001b[31m red\"}".utf8))
        XCTAssertEqual(hostile?.name, "TV[31m red", "control characters are dropped from a name")
    }

    func testFailuresAreOneTranslatedSentence() {
        XCTAssertEqual(
            AppModel.explain(.connectionFailed(device: "10.0.0.2:8009", reason: "connection refused (errno: 111)"), device: "Living Room TV"),
            "Living Room TV did not answer. Check that it is on and on this network.")
        // The command that failed is named by the table, not by the wire.
        XCTAssertEqual(
            AppModel.explain(.commandNotSupported(command: "SET_PLAYBACK_RATE"), command: .setRate), "This receiver cannot change the playback speed.")
        XCTAssertEqual(AppModel.explain(.commandNotSupported(command: "SKIP_AD"), command: .skipAd), "This ad cannot be skipped yet.")
        XCTAssertFalse(AppModel.explain(.invalidPlayerState(command: "PLAY")).contains("PLAY"))
        XCTAssertNil(AppModel.addressProblem("10.0.0.2:8009"))
        XCTAssertNotNil(AppModel.addressProblem("nonsense:port"))
        XCTAssertTrue(AppModel.isWebLink("https://example.com/a.mp4"))
        XCTAssertFalse(AppModel.isWebLink("file:///etc/passwd"))
        XCTAssertFalse(AppModel.isWebLink("example.com/a.mp4"))
    }
}

/// A file that must be converted: the window knows what it is preparing, can draw an embedded
/// subtitle into the picture (recasting from where it was), and shows how far conversion got.
@MainActor
final class ConvertedFileTests: XCTestCase {
    func makeMatroskaWithSubtitles() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-burn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let srt = dir.appendingPathComponent("fr.srt").path
        try "1\n00:00:00,500 --> 00:00:20,000\nBonjour\n".write(toFile: srt, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("film.mkv").path
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:duration=20",
            "-f", "lavfi", "-i", "sine=duration=20", "-i", srt, "-map", "0", "-map", "1", "-map", "2",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "ac3", "-c:s", "srt",
            "-metadata:s:s:0", "language=fre", "-metadata:s:s:0", "title=Français", out,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        XCTAssertEqual(ffmpeg.terminationStatus, 0, "ffmpeg could not make the test file")
        return out
    }

    func testBurningInASubtitleCastsTheFileAgainWithIt() async throws {
        let file = try makeMatroskaWithSubtitles()
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        let h = try await Harness.start()
        let model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV")))
        await model.castFiles([file])
        XCTAssertNil(model.preparingFile, "preparing ends once the first segment exists")
        try await waitUntil("the converted file playing") { model.media?.contentType == "application/x-mpegurl" }
        let first = try XCTUnwrap(model.media?.contentId)
        let subs = model.burnableSubtitles
        XCTAssertEqual(subs.map(\.number), [1])
        // The stream (French, titled "Français") is named as it is among the text tracks.
        XCTAssertEqual(subs.first?.label, "\u{200E}French")
        XCTAssertEqual(subs.first?.label, model.textTracks.first.map(AppModel.trackLabel))
        XCTAssertEqual(subs.first?.isBurned, false)
        XCTAssertTrue(model.isEnabled(.burnSubtitles))
        let hls = try XCTUnwrap(model.localCast?.hls)
        XCTAssertFalse(hls.producedRanges.isEmpty, "conversion progress is known while it plays")
        XCTAssertTrue(model.convertedRanges.isEmpty || model.convertedRanges == hls.producedRanges, "empty only once all is made")

        await model.perform(.burnSubtitles(1))
        try await waitUntil("the file cast again with the subtitle drawn in") {
            model.media?.contentId != first && model.burnableSubtitles.first?.isBurned == true
        }
        XCTAssertEqual(model.state(of: .burnSubtitles), .int(1))
        await model.disconnect()
        await h.stop()
    }
}
