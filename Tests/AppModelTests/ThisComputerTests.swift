// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import Foundation
import LocalMedia
import XCTest

@testable import AppModel

/// Media served from this computer (issue 35, "the window says something untrue"): the CORS
/// check never asks CastDeck's own media server (it answers only the device), a CORS problem of
/// another server keeps the server's answer behind Details, Ctrl+Q offers what can really
/// happen, and a cast whose server is gone is named as such when Play Again fails.
@MainActor
final class ThisComputerTests: XCTestCase {
    var dirs: [String] = []

    override func tearDown() async throws {
        for d in dirs { try? FileManager.default.removeItem(atPath: d) }
    }

    /// A short H.264/AAC MP4 the device plays as it is, with `film.en.srt` beside it when asked.
    func makeFilm(_ name: String = "film.mp4", subtitles: Bool = false, in dir: String? = nil) throws -> String {
        let dir =
            dir
            ?? {
                let d = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-here-\(UUID().uuidString)").path
                dirs.append(d)
                return d
            }()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let out = (dir as NSString).appendingPathComponent(name)
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:duration=30",
            "-f", "lavfi", "-i", "sine=duration=30", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-shortest", "-movflags", "+faststart", out,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        XCTAssertEqual(ffmpeg.terminationStatus, 0, "ffmpeg could not make the test file")
        if subtitles {
            let srt = ((out as NSString).deletingPathExtension as String) + ".en.srt"
            try "1\n00:00:01,000 --> 00:00:20,000\nHello\n".write(toFile: srt, atomically: true, encoding: .utf8)
        }
        return out
    }

    func connected(_ h: Harness, _ model: AppModel? = nil) async throws -> AppModel {
        let model = model ?? h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Living Room TV")))
        XCTAssertTrue(model.isConnected, model.notice?.text ?? "")
        return model
    }

    /// The notice posted after `serial`, if any (a CORS check posts its warnings last).
    func notice(_ model: AppModel, after serial: Int) -> AppModel.Notice? {
        model.notice.flatMap { $0.serial > serial ? $0 : nil }
    }

    // MARK: 1. the CORS check and CastDeck's own files

    func testTheCORSCheckNeverAsksCastDecksOwnMediaServer() async throws {
        // The device on another address than this computer's side of the connection, as on a
        // network: the media server shares with the device only and answers 403 to this computer.
        let host = "127.\(Int.random(in: 1...250)).\(Int.random(in: 1...250)).\(Int.random(in: 2...250))"
        let h = try await Harness.start(host: host)
        let model = try await connected(h)
        let file = try makeFilm(subtitles: true)
        await model.castFiles([file])
        try await waitUntil("the file playing") { model.isPlaying }
        let media = try XCTUnwrap(model.media)
        XCTAssertEqual(media.tracks?.filter { $0.type == .text }.count, 1, "the sidecar subtitles went as a text track")
        XCTAssertTrue(model.isServedFromThisComputer)
        // The media server really refuses this computer: a check of it would have warned.
        let served = try XCTUnwrap(MediaServerURL(media.contentId))
        XCTAssertNotEqual(served.host, host, "the media server listens on this computer's address, not the device's")
        let asked = await CORSCheck.problems(for: media)
        XCTAssertEqual(
            asked.map(\.reason), [.status(403, "Forbidden"), .status(403, "Forbidden")],
            "asked from here, the device's share answers 403")

        await model.corsCheck?.value
        let last = model.notice?.text ?? ""
        XCTAssertFalse(
            last.contains("127.0.0.1") || last.contains("403") || last.contains("Cast device"),
            "a CORS warning about CastDeck's own media server: \(last)")
        await model.disconnect()
        await h.stop()
    }

    func testACORSProblemOfAnotherServerKeepsItsAnswerBehindDetails() async throws {
        let h = try await Harness.start()
        let model = try await connected(h)
        // Another server: a media server on a loopback address that is not this computer's side of
        // the connection, sharing with someone else, so it answers this computer 403 Forbidden.
        let other = try await MediaServer.start(host: "127.0.0.2")
        let share = other.share(bytes: Array("#EXTM3U\n".utf8), name: "live.m3u8", contentType: "application/x-mpegurl", peer: "192.0.2.7")
        var serial = model.notice?.serial ?? 0
        await model.load(MediaInformation(contentId: share.url, contentType: "application/x-mpegurl", metadata: MediaMetadata(title: "Live")))
        await model.corsCheck?.value
        let warning = try XCTUnwrap(notice(model, after: serial), "no CORS warning")
        XCTAssertEqual(warning.text, "The media from 127.0.0.2 will not play: that server does not let a Cast device read it.")
        XCTAssertFalse(warning.text.contains("403"), "the HTTP status belongs behind Details")
        XCTAssertEqual(warning.detail, "GET \(share.url) with Origin: https://www.gstatic.com: answered 403 Forbidden")

        // A server that does not answer at all: nothing known about CORS, said as such.
        serial = warning.serial
        await model.load(MediaInformation(contentId: "http://127.0.0.1:9/gone.m3u8", contentType: "application/x-mpegurl"))
        await model.corsCheck?.value
        let unreachable = try XCTUnwrap(notice(model, after: serial), "no notice for an unreachable server")
        XCTAssertEqual(unreachable.text, "CastDeck could not reach 127.0.0.1 to check that a Cast device may read the media there.")
        XCTAssertEqual(unreachable.detail?.hasPrefix("GET http://127.0.0.1:9/gone.m3u8"), true)
        await other.stop()
        await model.disconnect()
        await h.stop()
    }

    // MARK: 2. what quitting can do

    func testQuittingOffersWhatCanReallyHappen() async throws {
        let h = try await Harness.start()
        let model = try await connected(h)
        // A link: the device fetches it from elsewhere and plays on without CastDeck.
        await model.load(WindowTruthTests.shortMedia(600))
        try await waitUntil("the link playing") { model.isPlaying }
        XCTAssertFalse(model.isServedFromThisComputer)
        XCTAssertEqual(model.quitChoice, .keepPlaying)

        // A file: the device plays it from this computer's media server, which quits with CastDeck.
        let film = try makeFilm()
        await model.castFiles([film])
        try await waitUntil("the file playing") { model.isPlaying && model.media?.contentId.hasPrefix("http://127.0.0.1:") == true }
        XCTAssertTrue(model.isServedFromThisComputer)
        XCTAssertEqual(model.quitChoice, .keepRunning)

        // A queue of files: the same, whichever item plays.
        let second = try makeFilm("second.mp4", in: (film as NSString).deletingLastPathComponent)
        await model.castQueue([film, second], mode: .playNow)
        try await waitUntil("the queue playing") { model.queue.count == 2 && model.isPlaying }
        XCTAssertEqual(model.quitChoice, .keepRunning)
        await model.perform(.queueNext)
        try await waitUntil("the second item") { model.media?.contentId.hasSuffix("/second.mp4") == true && model.isPlaying }
        XCTAssertEqual(model.quitChoice, .keepRunning)

        // Back to a link: nothing of this computer's is needed any more.
        await model.load(WindowTruthTests.shortMedia(600))
        try await waitUntil("the link playing again") { model.media?.contentId == WindowTruthTests.shortMedia().contentId && model.isPlaying }
        XCTAssertFalse(model.isServedFromThisComputer)
        XCTAssertEqual(model.quitChoice, .keepPlaying)
        await model.disconnect()
        await h.stop()
    }

    func testTheDemoReceiverOffersOnlyStop() async throws {
        let h = try await Harness.start()
        let model = h.model()
        let port = try XCTUnwrap(h.server.port)
        let demo = DeviceInfo(
            id: "demo-\(port)", friendlyName: "Demo Receiver", model: "Simulated receiver",
            host: "127.0.0.1", port: port, origin: .demo)
        model.showDevice(demo)
        await model.connect(to: demo)
        await model.perform(.castSample)
        try await waitUntil("the sample playing") { model.hasMedia }
        XCTAssertEqual(model.quitChoice, .stopOnly, "the demo receiver quits with CastDeck: nothing can keep playing")
        // Even a file from this computer: the receiver ends with CastDeck all the same.
        await model.castFiles([try makeFilm()])
        try await waitUntil("the file playing") { model.isServedFromThisComputer && model.isPlaying }
        XCTAssertEqual(model.quitChoice, .stopOnly)
        await model.disconnect()
        await h.stop()
    }

    // MARK: 2. a cast whose server is gone

    func testPlayAgainOfACastWhoseServerIsGoneSaysSo() async throws {
        // A receiver that fetches what it loads, as a device does.
        let h = try await Harness.start(fetchMedia: true)
        let first = try await connected(h)
        await first.castFiles([try makeFilm()])
        try await waitUntil("the file playing") { first.isPlaying }
        let url = try XCTUnwrap(first.media?.contentId)
        // CastDeck quits, leaving the device playing: the session is left, the share ends with it.
        await first.disconnect()
        try await waitUntil("the share to end") { await !first.mediaShare.isServing(url) }

        // The next launch joins the device, which still shows the cast.
        let next = try await connected(h)
        try await waitUntil("the old cast shown") { next.media?.contentId == url }
        XCTAssertFalse(next.isServedFromThisComputer, "nothing of this launch serves it")
        let isEnded = await next.isEndedShare(url)
        XCTAssertTrue(isEnded, "the URL points at this computer's media server, and no share has its token")
        await next.perform(.stopCasting)
        try await waitUntil("stopped") { next.isEnabled(.playAgain) }
        let serial = next.notice?.serial ?? 0
        await next.perform(.playAgain)
        try await waitUntil("Play Again to fail") { self.notice(next, after: serial) != nil }
        let notice = try XCTUnwrap(self.notice(next, after: serial))
        XCTAssertEqual(notice.text, "This computer's media server no longer shares this file. Cast it again.")
        XCTAssertFalse(notice.text.contains("format"), "the format is not to blame")
        XCTAssertEqual(notice.detail?.hasPrefix("Living Room TV could not load \(url): "), true, notice.detail ?? "")

        // A link that fails is still explained as before: only this computer's ended shares are.
        let broken = MediaInformation(contentId: "http://127.0.0.1:9/film.mp4", contentType: "video/mp4")
        let elsewhere = await next.isEndedShare(broken.contentId)
        XCTAssertFalse(elsewhere, "not a share's URL")
        await next.disconnect()
        await h.stop()
    }
}
