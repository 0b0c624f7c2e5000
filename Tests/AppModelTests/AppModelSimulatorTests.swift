import AppModel
import CastProtocol
import CastReceiver
import Dispatch
import XCTest

/// AppModel on the real CastClient against the real simulated receiver over TLS on loopback.
@MainActor
final class AppModelSimulatorTests: XCTestCase {
    func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(25)) }
        XCTAssertTrue(condition(), "timed out waiting for \(what)")
    }

    func testCastSampleThenChangeRateOnTheSimulator() async throws {
        var config = ReceiverConfiguration()
        config.port = 0
        config.friendlyName = "Test TV"
        let server = CastReceiverServer(configuration: config)
        try await server.start()
        defer { Task { await server.stop() } }
        let model = AppModel(connector: CastClientConnector(), preferences: MemoryStylePreferences(),
                             clock: { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 })
        model.sampleMedia = SampleMedia.bigBuckBunny(artworkPath: nil)
        let device = model.addDevice(address: "127.0.0.1:\(server.port!)", name: "Test TV")!
        await model.connect(to: device)
        XCTAssertTrue(model.isConnected, model.notice?.text ?? "")
        await model.castSample()
        try await waitUntil("the sample's status") { model.title == "Big Buck Bunny" }
        XCTAssertNotNil(model.adState, "the sample starts in its pre-roll")
        XCTAssertEqual(model.adState?.clipCount, 3)
        await model.setRate(2)
        try await waitUntil("rate 2") { model.selectedRate == 2 }
        let statuses = try await server.mediaStatus()
        XCTAssertEqual(statuses.first?.playbackRate, 2)
        await model.disconnect()
        XCTAssertFalse(model.isConnected)
    }
}
