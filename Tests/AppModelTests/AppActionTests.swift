// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastDiscovery
import CastProtocol
import CastReceiver
import Dispatch
import Foundation
import XCTest

/// The action table: names, parameters, and enabled states derived from the receiver's
/// supportedMediaCommands and the ad state, on the real client against the simulator.
@MainActor
final class AppActionTests: XCTestCase {
    func testNamesAreUniqueAndParametersDecode() {
        let names = AppAction.Name.allCases.map(\.rawValue)
        XCTAssertEqual(Set(names).count, names.count)
        for name in AppAction.Name.allCases {
            switch name.parameter {
            case .none: XCTAssertEqual(name.action()?.name, name, "\(name)")
            case .pair: XCTAssertNil(name.action(int: 1), "\(name) takes two ids, from a gesture only")
            case .double:
                XCTAssertNil(name.action(), "\(name) needs its parameter")
                XCTAssertEqual(name.action(double: 1)?.name, name)
            case .int:
                XCTAssertNil(name.action(), "\(name) needs its parameter")
                XCTAssertEqual(name.action(int: 2)?.name, name)
            }
            XCTAssertFalse(name.label.isEmpty)
        }
        XCTAssertEqual(AppAction.Name.selectTextTrack.action(int: -1), .selectTextTrack(nil), "-1 is subtitles off")
        // Space and the arrows yield to the focused widget: not global accelerators.
        XCTAssertEqual(AppAction.Name.togglePlayPause.accelerators, [])
        XCTAssertEqual(AppAction.Name.togglePlayPause.yieldingKeys, ["space"])
        XCTAssertEqual(AppAction.Name.chooseFiles.accelerators, ["<Control>o"])
        XCTAssertEqual(AppAction.Name.seekForward.action(), .seekBy(10))
        XCTAssertEqual(AppAction.Name.seekBackward30.action(), .seekBy(-30))
    }

    func waitUntil(_ what: String, timeout: Int = 400, _ condition: () -> Bool) async throws {
        for _ in 0..<timeout where !condition() { try await Task.sleep(for: .milliseconds(25)) }
        XCTAssertTrue(condition(), "timed out waiting for \(what)")
    }

    func testEnabledStatesFollowTheReceiverAndTheAdBreak() async throws {
        var config = ReceiverConfiguration()
        config.port = 0
        config.friendlyName = "Test TV"
        let server = CastReceiverServer(configuration: config)
        try await server.start()
        defer { Task { await server.stop() } }
        // The device list lives in a temporary store: tests never touch the user's devices.json.
        let storeDir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-actions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storeDir) }
        let store = ManualDeviceStore(fileURL: storeDir.appendingPathComponent("devices.json"))
        let client = CastClientConfiguration()
        let model = AppModel(
            directory: DeviceDirectory(store: store, prober: CastClientProber(configuration: client), browser: nil),
            client: client, preferences: MemoryStylePreferences())
        model.start()
        model.sampleMedia = SampleMedia.bigBuckBunny(artworkPath: nil)
        XCTAssertFalse(model.isEnabled(.togglePlayPause), "nothing to play before connecting")
        XCTAssertFalse(model.isEnabled(.castSample))
        let device = model.addDevice(address: "127.0.0.1:\(server.port!)", name: "Test TV")!
        await model.connect(to: device)
        XCTAssertTrue(model.isEnabled(.castSample))
        XCTAssertTrue(model.isEnabled(.disconnect))
        XCTAssertFalse(model.isEnabled(.stopCasting), "no media yet")

        await model.perform(.castSample)
        try await waitUntil("the pre-roll") { model.adState != nil }
        // During an ad: no seeking, by any route; skip only once the clip allows it.
        XCTAssertTrue(model.isEnabled(.togglePlayPause))
        XCTAssertFalse(model.isEnabled(.seekForward))
        XCTAssertFalse(model.isEnabled(.seekTo))
        XCTAssertFalse(model.isEnabled(.skipAd), "the sample's clips are skippable after 5 s")
        XCTAssertTrue(model.isEnabled(.setRate), "the simulator supports playback rate")
        XCTAssertEqual(model.state(of: .setRate), .double(1))
        let clip = model.mediaStatus?.breakStatus?.breakClipId
        await model.perform(.skipAd)
        let stillThere = try await server.mediaStatus().first?.breakStatus?.breakClipId
        XCTAssertEqual(stillThere, clip, "a disabled action sends nothing")
        try await waitUntil("Skip ad to be enabled") { model.isEnabled(.skipAd) }
        await model.perform(.skipAd)
        try await waitUntil("the next clip") { model.mediaStatus?.breakStatus?.breakClipId != clip }

        await model.perform(.setRate(2))
        try await waitUntil("rate 2") { model.state(of: .setRate) == .double(2) }
        await model.perform(.toggleMute)
        try await waitUntil("muted") { model.state(of: .toggleMute) == .bool(true) }
        await model.disconnect()
        XCTAssertFalse(model.isEnabled(.togglePlayPause))
        XCTAssertFalse(model.isEnabled(.disconnect))
    }
}
