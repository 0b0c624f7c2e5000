// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastDiscovery
import CastProtocol
import CastReceiver
import Foundation
import XCTest

/// The real parts for AppModel tests: the simulated receiver over TLS on loopback (on a
/// manual clock, so receiver time moves only when a test says so), a CastClient configuration
/// that neither reconnects nor remembers sessions, and a device list stored in a temporary
/// directory (never the user's).
@MainActor
struct Harness {
    let server: CastReceiverServer
    let clock: ManualClock
    let storeURL: URL
    let client: CastClientConfiguration

    /// - Parameters:
    ///   - host: the receiver's address: another loopback address than 127.0.0.1 puts the
    ///     device on a host other than this computer's side of the connection, as on a network.
    ///   - fetchMedia: the receiver fetches what it is asked to load, as a device does.
    static func start(
        name: String = "Demo TV", supported: MediaCommands? = nil, port: Int = 0,
        apps: [ReceiverApp] = [], reconnect: Bool = false, host: String = "127.0.0.1",
        fetchMedia: Bool = false, kind: ReceiverKind? = nil, ambientAfter: Double? = nil, mirrorOutput: String? = nil
    ) async throws -> Harness {
        let clock = ManualClock()
        var config = ReceiverConfiguration()
        config.host = host
        config.fetchMedia = fetchMedia
        config.port = port
        config.friendlyName = name
        config.clock = clock
        config.apps = apps
        if let supported { config.supportedMediaCommands = supported }
        kind?.configure(&config)
        config.ambientAfter = ambientAfter
        // The mirroring apps, as `castctl receiver --mirror-output` runs them.
        if let mirrorOutput {
            config.mirrorOutput = mirrorOutput
            config.apps += [ReceiverApp.chromeMirroring, ReceiverApp.audioMirroring]
        }
        let server = CastReceiverServer(configuration: config)
        try await server.start()
        var client = CastClientConfiguration()
        client.reconnect =
            reconnect
            ? ReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .seconds(1), jitter: 0, eagerDelay: .milliseconds(200))
            : .disabled
        client.sessionStore = nil
        client.requestTimeout = .seconds(10)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-appmodel-\(UUID().uuidString)")
        return Harness(server: server, clock: clock, storeURL: dir.appendingPathComponent("devices.json"), client: client)
    }

    var address: String { "\(server.configuration.host):\(server.port!)" }
    var store: ManualDeviceStore { ManualDeviceStore(fileURL: storeURL) }

    /// A device list as the window or `castctl discover` makes one: this store, probed, no mDNS.
    func directory() -> DeviceDirectory {
        DeviceDirectory(store: store, prober: CastClientProber(configuration: client), browser: nil)
    }

    func model(preferences: any StylePreferences = MemoryStylePreferences(), artwork: any ArtworkProvider = LocalArtworkProvider()) -> AppModel {
        let model = AppModel(directory: directory(), client: client, artwork: artwork, preferences: preferences)
        model.sampleMedia = SampleMedia.bigBuckBunny(artworkPath: nil)
        model.start()
        return model
    }

    /// Another sender on the same receiver (a phone, or castctl), joined to the running app.
    func otherSender() async throws -> CastSession {
        let session = CastSession(device: try DeviceAddress(parsing: address), configuration: client)
        try await session.connect()
        _ = try await session.join()
        _ = try await session.media.requestStatus()
        return session
    }

    func receiverMedia() async throws -> MediaStatus? { try await server.mediaStatus().first }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: storeURL.deletingLastPathComponent())
    }
}

/// Waits (as a hang guard, never as a measure of speed) until `condition` holds.
@MainActor
func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
    for _ in 0..<400 {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(25))
    }
    XCTFail("timed out waiting for \(what)")
    throw CancellationError()
}

/// An MP3 of a sine tone made by ffmpeg, with a title tag (queue and resume tests).
func makeAudio(_ path: String, title: String, seconds: Int = 30) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [
        "ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "sine=duration=\(seconds)", "-metadata", "title=\(title)",
        "-c:a", "libmp3lame", "-q:a", "9", path,
    ]
    try p.run()
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 0, "ffmpeg failed for \(path)")
}
