import Foundation
import LocalMedia
import XCTest

// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
@testable import AppModel

/// "Send surround sound as is", per device, in the window's model: off by default, a file with
/// AC-3 5.1 cast to the device has its sound converted; on, the same file keeps it (the plan
/// copies it); the setting is kept in the preferences, followed when changed elsewhere, and
/// offered for every device in the list.
@MainActor
final class SurroundModelTests: XCTestCase {
    var h: Harness!
    var dir = ""

    override func setUp() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed")
        h = try await Harness.start()
        dir = NSTemporaryDirectory() + "castdeck-surround-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        await h?.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    func testSurroundPerDeviceDecidesWhetherAC3IsConverted() async throws {
        let file = dir + "/film.mkv"
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:duration=4", "-f", "lavfi", "-i",
            "sine=duration=4", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "ac3", "-ac", "6", file,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        XCTAssertEqual(ffmpeg.terminationStatus, 0)

        let prefs = MemoryPlaybackPreferences()
        let model = h.model()
        model.playbackPreferences = prefs
        let device = try XCTUnwrap(model.addDevice(address: h.address))
        await model.connect(to: device)
        let id = try XCTUnwrap(model.connectedDevice?.id)
        XCTAssertFalse(model.sendsSurround(to: id), "off unless turned on")
        XCTAssertEqual(model.surroundChoices.map(\.id), [id])

        await model.castFiles([file])
        XCTAssertEqual(model.localCast?.plan?.audio.first?.action, .convert)

        model.setSurround(true, for: id)
        XCTAssertEqual(prefs.surroundDevices, [id])
        await model.castFiles([file])
        XCTAssertEqual(model.localCast?.plan?.audio.first?.action, .remux)
        XCTAssertTrue(model.localCast?.plan?.audio.first?.reason.contains("AV receiver") == true)

        // Changed elsewhere (gsettings set): followed.
        prefs.surroundDevices = []
        model.surroundPreferencesChanged()
        XCTAssertFalse(model.sendsSurround(to: id))
        // A device turned on that is no longer listed can still be turned off.
        prefs.surroundDevices = ["gone-device"]
        model.surroundPreferencesChanged()
        XCTAssertEqual(model.surroundChoices.map(\.id), [id, "gone-device"])
        model.setSurround(false, for: "gone-device")
        XCTAssertEqual(prefs.surroundDevices, [])
        await model.disconnect()
    }
}
