// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import LocalMedia
import XCTest

/// ffmpeg feeding a live share in real time, as the HTTP live path of mirroring runs it
/// (a test pattern stands in for the screen).
final class LiveEncoderTests: XCTestCase {
    var log: String!

    override func setUp() {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-live-\(UUID().uuidString).log").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: log)
    }

    func testEncoderFeedsClientsUntilStopped() async throws {
        let server = try await MediaServer.start(host: "127.0.0.1", port: .exactly(0))
        let stream = LiveStream()
        let encoding = LiveEncoding(width: 320, height: 240, fps: 30, videoKbps: 400)
        let encoder = try LiveEncoder.start(
            inputArguments: ["-re", "-f", "lavfi", "-i", "testsrc=size=640x480:rate=30"], encoding: encoding, stream: stream, logPath: log)
        try await encoder.waitUntilReady()
        let item = server.share(live: stream, name: "screen.mp4", peer: "127.0.0.1")
        let reader = try await LiveReader(item.url)
        try await reader.read(upTo: 30_000)
        encoder.stop()
        try await reader.readToEnd()
        let failure = await encoder.wait()
        XCTAssertNil(failure)
        XCTAssertEqual(stream.ended, .some(nil))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-live-\(UUID().uuidString).mp4").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(reader.received)))
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", file]
        let out = Pipe()
        probe.standardOutput = out
        try probe.run()
        probe.waitUntilExit()
        XCTAssertEqual(
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "h264,320,240")
        await server.stop()
    }

    func testEncoderThatFailsEndsTheStreamWithItsReason() async throws {
        let stream = LiveStream()
        let encoder = try LiveEncoder.start(
            inputArguments: ["-f", "lavfi", "-i", "nosuchsource=size=64x64"], encoding: LiveEncoding(width: 64, height: 64, fps: 10, videoKbps: 100),
            stream: stream, logPath: log)
        var reason = ""
        do {
            try await encoder.waitUntilReady()
        } catch {
            if case .converterFailed(_, let r) = error { reason = r }
        }
        XCTAssertTrue(reason.hasPrefix("The encoder stopped: "), reason)
        let failure = await encoder.wait()
        XCTAssertNotNil(failure)
    }
}
