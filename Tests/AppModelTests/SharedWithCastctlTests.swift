// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastDiscovery
import XCTest

@testable import CastCtlCommands

/// The window and castctl share one status, one position rule and one device list.
@MainActor
final class SharedWithCastctlTests: XCTestCase {
    func testCastctlAndTheWindowShowTheSamePosition() async throws {
        let h = try await Harness.start()
        defer { Task { await h.stop() } }
        let model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address)))
        await model.perform(.castSample)
        let session = try XCTUnwrap(model.session)
        // In the pre-roll (the content holds), then playing at 2× (the content moves).
        for step in 0..<2 {
            if step == 1 {
                try await h.server.advanceClock(by: 60)
                try await waitUntil("the content") { model.mediaStatus?.breakStatus == nil }
                await model.perform(.setRate(2))
            }
            let snapshot = try XCTUnwrap(model.snapshot)
            for seconds in [0.0, 1.5, 7] {
                let t = snapshot.receivedAt + .milliseconds(Int64(seconds * 1000))
                let castctl = await StatusReport(device: "Demo TV", session: session, info: nil, at: t)
                XCTAssertEqual(castctl.position, model.position(at: t), "step \(step), +\(seconds) s")
                XCTAssertEqual(castctl.breakClipTime == nil, model.adState(at: t) == nil)
            }
        }
        await model.disconnect()
    }

    func testADeviceAddedInTheWindowIsListedByCastctlDiscoverAndBack() async throws {
        let h = try await Harness.start()
        defer { Task { await h.stop() } }
        let model = h.model()
        model.addDevice(address: h.address, name: "Living Room")
        // castctl discover builds its own directory on the same file.
        try await waitUntil("the window's device on disk") {
            (try? h.store.load())?.contains { $0.address.description == h.address } == true
        }
        let castctl = h.directory()
        await castctl.start()
        let listed = await castctl.devices.map(\.address)
        XCTAssertTrue(listed.contains(h.address), "\(listed)")
        // And the reverse: added by castctl, shown by a window started afterwards.
        try await castctl.add(address: "127.0.0.1:8010")
        await castctl.stop()
        let window = h.model()
        try await waitUntil("castctl's device in the window") { window.devices.contains { $0.id == "127.0.0.1:8010" } }
        XCTAssertEqual(window.devices.first { $0.id == h.address }?.friendlyName, "Living Room")
    }
}
