// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated receiver, started in-process on a free loopback port, over real TLS.
import CastClient
import CastProtocol
import CastReceiver
import Foundation
import Testing

let helloWorld = "urn:x-cast:com.google.cast.sample.helloworld"
let customApp = "ABCD1234"

struct Simulator {
    let server: CastReceiverServer
    let address: DeviceAddress

    static func start(faults: FaultInjection = FaultInjection(), port: Int = 0, announcing extra: MediaCommands = []) async throws -> Simulator {
        var config = ReceiverConfiguration()
        config.supportedMediaCommands.formUnion(extra)
        config.host = "127.0.0.1"
        config.port = port
        config.faults = faults
        config.apps = [ReceiverApp(appId: customApp, displayName: "Custom", namespaces: [helloWorld, "urn:x-cast:com.example.game"])]
        let server = CastReceiverServer(configuration: config)
        try await server.start()
        let p = try #require(server.port)
        return Simulator(server: server, address: DeviceAddress(host: "127.0.0.1", port: p))
    }

    func media() async throws -> MediaStatus? { try await server.mediaStatus().first }
    /// The receiver's whole queue, in order.
    func queueIDs() async throws -> [Int] { try await server.queueItems().compactMap(\.itemId) }
    func stop() async { await server.stop() }
}

/// A client configuration for tests: a private session file, no reconnect unless asked.
func testConfiguration(reconnect: Bool = false, timeout: Duration = .seconds(10)) -> CastClientConfiguration {
    var c = CastClientConfiguration()
    c.requestTimeout = timeout
    c.reconnect = reconnect ? ReconnectPolicy(initialDelay: .milliseconds(200), maximumDelay: .seconds(2), jitter: 0.1, maxAttempts: 60) : .disabled
    c.sessionStore = SessionStore(fileURL: FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-test-\(UUID().uuidString)/sessions.json"))
    return c
}

let sampleMedia = MediaInformation(
    contentId: "https://example.com/bunny.mp4", contentType: "video/mp4",
    metadata: MediaMetadata(metadataType: .movie, title: "Big Buck Bunny", subtitle: "Blender", images: [CastImage(url: "https://example.com/p.jpg")]),
    duration: 600,
    tracks: [
        MediaTrack(
            trackId: 1, type: .text, subtype: .subtitles, trackContentId: "https://example.com/en.vtt", trackContentType: "text/vtt", name: "English",
            language: "en"),
        MediaTrack(
            trackId: 2, type: .text, subtype: .subtitles, trackContentId: "https://example.com/fr.vtt", trackContentType: "text/vtt", name: "Français",
            language: "fr"),
    ])

/// Waits (as a hang guard, never as a speed assertion) until `condition` holds.
func eventually(_ what: String, within seconds: Double = 15, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("timed out waiting for \(what)")
    throw CancellationError()
}

/// Collects the values of a stream in the background.
actor Collector<T: Sendable> {
    private(set) var values: [T] = []
    private var task: Task<Void, Never>?
    func add(_ v: T) { values.append(v) }
    nonisolated func start(_ stream: AsyncStream<T>) -> Task<Void, Never> {
        Task { for await v in stream { await self.add(v) } }
    }
    func clear() { values = [] }
}
