// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastDiscovery
import CastReceiver
import CastStreaming
import Foundation
import GLibInterop
import MPRIS
import XCTest

/// Mirroring on the bus (MPRIS+Mirror.swift): the screen of the X display the tests run on,
/// mirrored to the simulator's mirroring app, shows as "Screen" by the device, Playing, with
/// nothing to pause; playerctl's Stop ends mirroring and the app on the device. Run under
/// dbus-run-session and xvfb-run (make check does); skipped without a bus or a display.
/// (The bus helpers, `run` and `waitUntil`, are MPRISBusTests'.)
extension MPRISBusTests {
    func testMirroringIsTheScreenByTheDeviceAndStopEndsIt() async throws {
        let env = ProcessInfo.processInfo.environment
        guard env["DBUS_SESSION_BUS_ADDRESS"] != nil else { throw XCTSkip("no session bus (run under dbus-run-session)") }
        guard !(env["DISPLAY"] ?? "").isEmpty else { throw XCTSkip("mirroring the screen needs an X display (run under xvfb-run)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl") else { throw XCTSkip("playerctl is not installed") }
        var config = ReceiverConfiguration()
        config.port = 0
        config.friendlyName = "Living Room TV"
        config.apps = [ReceiverApp.chromeMirroring, ReceiverApp.audioMirroring]
        let server = CastReceiverServer(configuration: config)
        try await server.start()
        defer { Task { await server.stop() } }
        let storeDir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-mpris-mirror-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storeDir) }
        var client = CastClientConfiguration()
        client.sessionStore = nil
        let store = ManualDeviceStore(fileURL: storeDir.appendingPathComponent("devices.json"))
        let model = AppModel(
            directory: DeviceDirectory(store: store, prober: CastClientProber(configuration: client), browser: nil),
            client: client, preferences: MemoryStylePreferences())
        model.start()
        let name = "CastDeckMirror\(getpid())"
        let service = MPRISService(
            model: model, connection: try DBusConnection.session(), hooks: .init(raise: {}, quit: {}),
            desktopEntry: "io.github.castdeck.CastDeck", busName: "org.mpris.MediaPlayer2.\(name)")
        try service.start()
        defer { service.stop() }
        try await waitUntil("the player on the bus") { try await self.run(["playerctl", "-l"]).contains(name) }

        let device = try XCTUnwrap(model.addDevice(address: "127.0.0.1:\(server.port!)", name: "Living Room TV"))
        let index = try XCTUnwrap(model.devices.firstIndex { $0.id == device.id })
        // The picture alone: no sound server runs under the unit tests.
        model.setMirrorChoices(quality: .balanced, sound: false)
        await model.perform(AppAction(.mirrorScreen, .int(index)))
        try await waitUntil("streaming") { model.mirroring?.isStreaming == true }

        try await waitUntil("the screen on the bus") { try await self.run(["playerctl", "-p", name, "metadata", "xesam:title"]) == "Screen" }
        let artist = try await run(["playerctl", "-p", name, "metadata", "xesam:artist"])
        XCTAssertEqual(artist, "Living Room TV")
        let playing = try await run(["playerctl", "-p", name, "status"])
        XCTAssertEqual(playing, "Playing")
        let canPause = try await run([
            "gdbus", "call", "--session", "--dest", "org.mpris.MediaPlayer2.\(name)", "--object-path", MPRIS.objectPath,
            "--method", "org.freedesktop.DBus.Properties.Get", MPRIS.playerInterface, "CanPause",
        ])
        XCTAssertEqual(canPause, "(<false>,)")
        // Pause is not offered, and does nothing.
        _ = try await run(["playerctl", "-p", name, "pause"])
        XCTAssertNotNil(model.mirroring)

        _ = try await run(["playerctl", "-p", name, "stop"])
        // Stopping waits for the app to stop on the device.
        try await waitUntil("mirroring to end", tries: 2000) { model.mirroring == nil }
        XCTAssertEqual(model.notice?.text, "Stopped casting your screen to Living Room TV.")
        let apps = try await server.receiverStatus().applications ?? []
        XCTAssertFalse(apps.contains { $0.appId == CastStreamingIDs.mirroringApp }, "Stop stops the app on the device")
        let after = try await run(["playerctl", "-p", name, "status"])
        XCTAssertEqual(after, "Stopped")
    }
}
