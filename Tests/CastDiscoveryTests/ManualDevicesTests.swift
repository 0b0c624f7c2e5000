// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import XCTest

@testable import CastDiscovery

final class ManualDevicesTests: XCTestCase {
    var dir: URL!

    override func setUp() {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-disc-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func testAddressParsing() throws {
        XCTAssertEqual(try DeviceAddress(parsing: "192.168.1.20"), DeviceAddress(host: "192.168.1.20", port: 8009))
        XCTAssertEqual(try DeviceAddress(parsing: " tv.lan:8010 "), DeviceAddress(host: "tv.lan", port: 8010))
        XCTAssertEqual(try DeviceAddress(parsing: "[fe80::1%eth0]:9000"), DeviceAddress(host: "fe80::1%eth0", port: 9000))
        XCTAssertEqual(try DeviceAddress(parsing: "::1"), DeviceAddress(host: "::1", port: 8009))
        XCTAssertEqual(DeviceAddress(host: "::1", port: 8009).description, "[::1]:8009")
        for bad in ["", "host:0", "host:70000", "host:abc", "[::1", "[::1]x", "a b"] {
            XCTAssertThrowsError(try DeviceAddress(parsing: bad), bad) { XCTAssertEqual(($0 as? DeviceAddressError)?.text, bad) }
        }
        XCTAssertTrue(DeviceAddress.looksLikeAddress("10.0.0.5"))
        XCTAssertTrue(DeviceAddress.looksLikeAddress("tv:8009"))
        XCTAssertTrue(DeviceAddress.looksLikeAddress("fe80::1"))
        XCTAssertFalse(DeviceAddress.looksLikeAddress("Living Room TV"))
        XCTAssertFalse(DeviceAddress.looksLikeAddress("Kitchen"))
    }

    func testStoreFollowsXDGAndRoundTrips() throws {
        let store = ManualDeviceStore.standard(environment: ["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"])
        XCTAssertEqual(store.fileURL.path, dir.path + "/castdeck/devices.json")
        XCTAssertEqual(ManualDeviceStore.standard(environment: ["HOME": "/home/u"]).fileURL.path, "/home/u/.config/castdeck/devices.json")
        XCTAssertEqual(try store.load(), [])
        let devices = [ManualDevice(host: "10.0.0.9", port: 8009, name: "Den"), ManualDevice(host: "::1", port: 9000)]
        try store.save(devices)
        XCTAssertEqual(try store.load(), devices)
    }

    func testBrokenFileIsReportedAndNeverOverwritten() async throws {
        let store = ManualDeviceStore(fileURL: dir.appendingPathComponent("devices.json"))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: store.fileURL)
        XCTAssertThrowsError(try store.load())
        let directory = DeviceDirectory(store: store, browser: nil)
        await directory.start()
        let problem = await directory.storeProblem
        XCTAssertNotNil(problem)
        do {
            try await directory.add(address: "10.0.0.9")
            XCTFail("adding must refuse while the file is broken")
        } catch {
            XCTAssertEqual(error, problem)
        }
        XCTAssertEqual(try String(contentsOf: store.fileURL, encoding: .utf8), "{ not json")
    }

    struct FixedProber: DeviceProber {
        func probe(_ address: DeviceAddress, timeout: Duration) async throws -> ProbeResult {
            if address.port == 9999 { throw DiscoveryError.deviceNotFound(query: address.description, seen: []) }
            return ProbeResult(friendlyName: "Den TV", statusText: "Backdrop")
        }
    }

    func testAddedDevicesAreProbedRememberedAndForgotten() async throws {
        let store = ManualDeviceStore(fileURL: dir.appendingPathComponent("devices.json"))
        let directory = DeviceDirectory(store: store, prober: FixedProber(), browser: nil)
        await directory.start()
        var events = directory.events.makeAsyncIterator()
        let device = try await directory.add(address: "10.0.0.9")
        XCTAssertEqual(device.friendlyName, "10.0.0.9:8009")
        XCTAssertEqual(device.source, .manual)
        let first = await events.next()
        XCTAssertEqual(first?.kind, "added")
        let probed = await events.next()
        XCTAssertEqual(probed?.kind, "updated")
        XCTAssertEqual(probed?.device?.friendlyName, "Den TV")
        XCTAssertEqual(probed?.device?.statusText, "Backdrop")
        try await directory.add(address: "10.0.0.9:9999")
        let second = await events.next()
        XCTAssertEqual(second?.kind, "added")
        let failed = await events.next()
        XCTAssertTrue(failed?.device?.statusText?.hasPrefix("Not answering") == true)
        // An error that is not a ProbeFailure counts as "not answering", its text kept.
        XCTAssertEqual(failed?.device?.probeFailure?.kind, .notAnswering)
        XCTAssertTrue(failed?.device?.probeFailure?.detail.contains("10.0.0.9:9999") == true)
        XCTAssertEqual(try store.load().map(\.name), ["Den TV", nil])

        // A new directory on the same file shows both at once.
        let again = DeviceDirectory(store: store, browser: nil)
        await again.start()
        let names = await again.devices.map(\.friendlyName)
        XCTAssertEqual(names, ["Den TV", "10.0.0.9:9999"])
        try await again.forget(id: "10.0.0.9:9999")
        XCTAssertEqual(try store.load().count, 1)
        await directory.stop()
        await again.stop()
    }

    /// Answers on port 8009 only; a host called "nowhere" does not resolve.
    struct PickyProber: DeviceProber {
        func probe(_ address: DeviceAddress, timeout: Duration) async throws -> ProbeResult {
            if address.host == "nowhere" { throw ProbeFailure(.notFound, detail: "no address for nowhere") }
            guard address.port == 8009 else { throw ProbeFailure(.notAnswering, detail: "refused") }
            return ProbeResult(friendlyName: "Den TV", model: "Chromecast", statusText: "Backdrop")
        }
    }

    func testAddingOnlyWhatAnswersSavesNothingElse() async throws {
        let store = ManualDeviceStore(fileURL: dir.appendingPathComponent("devices.json"))
        let directory = DeviceDirectory(store: store, prober: PickyProber(), browser: nil)
        await directory.start()
        for (text, kind) in [("nowhere", ProbeFailure.Kind.notFound), ("10.0.0.9:9", .notAnswering)] {
            do {
                try await directory.addIfAnswering(address: text)
                XCTFail("\(text) was added")
            } catch {
                XCTAssertEqual(error, .probeFailed(ProbeFailure(kind, detail: kind == .notFound ? "no address for nowhere" : "refused")))
            }
        }
        let none = await directory.devices
        XCTAssertEqual(none, [])
        XCTAssertEqual(try store.load(), [], "a failed check leaves nothing on disk")

        let added = try await directory.addIfAnswering(address: "10.0.0.9")
        XCTAssertEqual(added.friendlyName, "Den TV")
        XCTAssertEqual(added.model, "Chromecast")
        XCTAssertEqual(added.statusText, "Backdrop")
        XCTAssertEqual(try store.load(), [ManualDevice(host: "10.0.0.9", port: 8009, name: "Den TV")])
        await directory.stop()
    }

    func testAForgottenDeviceComesBackAsItWas() async throws {
        let store = ManualDeviceStore(fileURL: dir.appendingPathComponent("devices.json"))
        let directory = DeviceDirectory(store: store, prober: PickyProber(), browser: nil)
        await directory.start()
        try await directory.addIfAnswering(address: "10.0.0.9")
        try await directory.add(address: "10.0.0.10:9", name: "Kitchen")
        try await directory.add(address: "10.0.0.11")
        var shown = await directory.devices
        // Both probes answered (the one that fails, and the one that renames its device).
        for _ in 0..<200 where shown[1].probeFailure == nil || shown[2].statusText == nil {
            try await Task.sleep(for: .milliseconds(10))
            shown = await directory.devices
        }
        XCTAssertEqual(shown[1].probeFailure?.kind, .notAnswering)
        let before = try store.load()
        let removed = try await directory.forget(id: "10.0.0.10:9")
        let forgotten = try XCTUnwrap(removed)
        XCTAssertEqual(forgotten.position, 1)
        XCTAssertEqual(try store.load().count, 2)
        let back = try await directory.restore(forgotten)
        XCTAssertEqual(back.friendlyName, "Kitchen")
        XCTAssertEqual(try store.load(), before, "remembered again in its place")
        let now = await directory.devices
        XCTAssertEqual(now.map(\.id), shown.map(\.id))
        XCTAssertEqual(now[1].probeFailure, shown[1].probeFailure, "shown as it was, its failure too")
        let none = try await directory.forget(id: "10.0.0.99:8009")
        XCTAssertNil(none)
        await directory.stop()
    }
}
