// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastProtocol
import Foundation
import LocalMedia
import XCTest

/// A live stream in the window's model (AppModel+Live.swift) against the simulator, whose
/// LIVE streams have a 120 s replay window on its manual clock.
@MainActor
final class LiveModelTests: XCTestCase {
    static let channel = MediaInformation(
        contentId: "https://tv.example/news/live.m3u8", streamType: .live, contentType: "application/x-mpegURL",
        metadata: MediaMetadata(title: "News 24"))

    func testTheSeekBarSpansTheWindowAndGoToLiveJumpsToTheEdge() async throws {
        let h = try await Harness.start()
        defer { Task { await h.stop() } }
        let model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV")))
        await model.load(Self.channel)
        try await waitUntil("playing live") { model.isPlaying && model.isLive }
        XCTAssertNil(model.duration, "a live stream has no length")
        let range = try XCTUnwrap(model.seekableRange)
        XCTAssertEqual(range.lowerBound, 0, accuracy: 1)
        XCTAssertEqual(range.upperBound, 120, accuracy: 1)
        XCTAssertTrue(model.isEnabled(.seekTo))
        XCTAssertTrue(model.isEnabled(.goToLive))
        XCTAssertFalse(try XCTUnwrap(model.live).isBehindLive, "a live stream starts at its edge")
        XCTAssertTrue(model.castingLine.hasPrefix("Live"), model.castingLine)

        // Back 30 s, then past the window's start: a seek stays inside the window.
        await model.perform(.seekBy(-30))
        try await waitUntil("30 s behind live") { abs(((try await h.receiverMedia())?.currentTime ?? 0) - 90) < 1 }
        try await waitUntil("the model behind live") { model.live?.isBehindLive == true }
        XCTAssertEqual(try XCTUnwrap(model.live?.behindLive), 30, accuracy: 1)
        XCTAssertEqual(model.progressFraction(at: .now), 0.75, accuracy: 0.02)
        await model.perform(.seekTo(-500))
        try await waitUntil("the window's start") { ((try await h.receiverMedia())?.currentTime ?? 99) < 1 }

        // The edge moved on 40 s (the receiver's clock; the model hears of it with the next status).
        try await h.server.advanceClock(by: 40)
        _ = try await model.session?.media.requestStatus()
        try await waitUntil("the window at 40…160") { abs((model.live?.liveEdge ?? 0) - 160) < 1 }
        await model.perform(.goToLive)
        try await waitUntil("the live edge") { (try await h.receiverMedia())?.currentTime == 160 }
        try await waitUntil("the model at the edge") { model.live?.isBehindLive == false }
    }

    /// Cast a Link with an HLS playlist that has no ENDLIST loads it as LIVE (a playlist with one
    /// as BUFFERED), as castctl cast does: the playlists come from a local HTTP server.
    func testALinkToAGrowingPlaylistIsCastLive() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let head = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg0.ts\n"
        try head.write(to: dir.appendingPathComponent("live.m3u8"), atomically: true, encoding: .utf8)
        try (head + "#EXT-X-ENDLIST\n").write(to: dir.appendingPathComponent("vod.m3u8"), atomically: true, encoding: .utf8)
        let port = Int.random(in: 20000..<60000)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory", dir.path, String(port)]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate() }
        try await waitUntil("the HTTP server") { await HLSLiveCheck.isLive("http://127.0.0.1:\(port)/vod.m3u8") == false }

        let h = try await Harness.start()
        defer { Task { await h.stop() } }
        let model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV")))
        await model.castLink("http://127.0.0.1:\(port)/live.m3u8")
        try await waitUntil("the live playlist loaded") { model.media?.contentId.hasSuffix("live.m3u8") == true }
        let live = try await h.receiverMedia()?.media?.streamType
        XCTAssertEqual(live, .live)
        XCTAssertTrue(model.isLive)
        await model.castLink("http://127.0.0.1:\(port)/vod.m3u8")
        try await waitUntil("the finished playlist loaded") { model.media?.contentId.hasSuffix("vod.m3u8") == true }
        let finished = try await h.receiverMedia()?.media?.streamType
        XCTAssertNotEqual(finished, .live)
    }
}
