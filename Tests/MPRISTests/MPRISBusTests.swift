// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastDiscovery
import CastProtocol
import CastReceiver
import Foundation
import GLibInterop
import MPRIS
import XCTest

/// MPRISService on a real session bus (run the suite under `dbus-run-session`; without a bus
/// it is skipped), an AppModel connected to the simulator, and playerctl and dbus-monitor as
/// the clients. The GLib main context is pumped by hand: no GTK loop runs in XCTest.
@MainActor
final class MPRISBusTests: XCTestCase {
    /// Runs a command to completion while GDBus dispatches calls to our object.
    func run(_ args: [String]) async throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        while p.isRunning { await pump() }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func pump() async {
        for _ in 0..<20 { DBusConnection.iterate() }
        try? await Task.sleep(for: .milliseconds(10))
    }

    func waitUntil(_ what: String, tries: Int = 500, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<tries {
            if try await condition() { return }
            await pump()
        }
        XCTFail("timed out waiting for \(what)")
    }

    func testPlayerctlReadsAndControlsTheModelAndSeeksAreSignalled() async throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus (run under dbus-run-session)")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl") else {
            throw XCTSkip("playerctl is not installed (scripts/setup.sh)")
        }
        var config = ReceiverConfiguration()
        config.port = 0
        config.friendlyName = "Test TV"
        let server = CastReceiverServer(configuration: config)
        try await server.start()
        defer { Task { await server.stop() } }
        let storeDir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-mpris-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storeDir) }
        let client = CastClientConfiguration()
        let store = ManualDeviceStore(fileURL: storeDir.appendingPathComponent("devices.json"))
        let model = AppModel(
            directory: DeviceDirectory(store: store, prober: CastClientProber(configuration: client), browser: nil),
            client: client, preferences: MemoryStylePreferences())
        model.start()

        let name = "CastDeckTest\(getpid())"
        var raised = 0
        let service = MPRISService(
            model: model, connection: try DBusConnection.session(),
            hooks: .init(raise: { raised += 1 }, quit: {}),
            desktopEntry: "io.github.castdeck.CastDeck", busName: "org.mpris.MediaPlayer2.\(name)")
        try service.start()
        defer { service.stop() }

        // Nothing cast yet: stopped, the reserved track id.
        try await waitUntil("the player on the bus") { try await self.run(["playerctl", "-l"]).contains(name) }
        let idle = try await run(["playerctl", "-p", name, "status"])
        XCTAssertEqual(idle, "Stopped")

        let device = model.addDevice(address: "127.0.0.1:\(server.port!)", name: "Test TV")!
        await model.connect(to: device)
        // No ad break (seeking is off during one): a plain film.
        await model.load(
            MediaInformation(
                contentId: "http://127.0.0.1:9/film.mp4", contentType: "video/mp4",
                metadata: MediaMetadata(title: "Test Film"), duration: 600))
        try await waitUntil("playing") { model.isPlaying }
        try await waitUntil("Playing on the bus") { try await self.run(["playerctl", "-p", name, "status"]) == "Playing" }
        let title = try await run(["playerctl", "-p", name, "metadata", "xesam:title"])
        XCTAssertEqual(title, "Test Film")
        let length = try await run(["playerctl", "-p", name, "metadata", "mpris:length"])
        XCTAssertEqual(Int(length), Int(MPRIS.microseconds(model.duration ?? 0)))

        // A pause from the client goes through the action table to the receiver.
        _ = try await run(["playerctl", "-p", name, "pause"])
        try await waitUntil("paused on the receiver") { !model.isPlaying }

        // A seek (here ours; run-mpris.sh has another sender's) gives Seeked near the target.
        let log = storeDir.appendingPathComponent("seeked.txt")
        try FileManager.default.createDirectory(at: storeDir, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let monitor = Process()
        monitor.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        monitor.arguments = ["--session", "type='signal',member='Seeked'"]
        monitor.standardOutput = try FileHandle(forWritingTo: log)
        monitor.standardError = FileHandle.nullDevice
        try monitor.run()
        defer { monitor.terminate() }
        for _ in 0..<50 { await pump() }
        _ = try await run(["playerctl", "-p", name, "position", "100"])
        try await waitUntil("Seeked(100 s)") {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.range(of: #"int64 (99\d{6}|100\d{6})\b"#, options: .regularExpression) != nil
        }

        // OpenUri casts a URL on the connected device.
        _ = try await run(["playerctl", "-p", name, "open", "http://127.0.0.1:9/other.mp4"])
        try await waitUntil("the opened URL on the receiver") { model.media?.contentId == "http://127.0.0.1:9/other.mp4" }
        try await waitUntil("a new track id") {
            try await self.run(["playerctl", "-p", name, "metadata", "mpris:trackid"]).hasSuffix("/track/2'")
        }

        // Raise reaches the application's hook.
        _ = try await run([
            "gdbus", "call", "--session", "--dest", "org.mpris.MediaPlayer2.\(name)",
            "--object-path", MPRIS.objectPath, "--method", "org.mpris.MediaPlayer2.Raise",
        ])
        XCTAssertEqual(raised, 1)
        await model.disconnect()
    }
}
