// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastDiscovery
import XCTest

/// The device list as a new user meets it (issue 35): a device that cannot be reached says so
/// in a word, with the sentence and the error behind Details; Add Device saves only what
/// answers; Forget can be undone; the demo's own receiver carries no trust verdict.
@MainActor
final class DeviceListTests: XCTestCase {
    var h: Harness!
    var model: AppModel!

    /// A name no resolver knows (.invalid is reserved for that), and a port that refuses at once.
    let unknownName = "nonsense.invalid"
    let refusing = "127.0.0.1:1"
    let isolated = { (s: String) in "\u{2066}\(s)\u{2069}" }

    override func setUp() async throws {
        h = try await Harness.start()
        model = h.model()
    }

    override func tearDown() async throws {
        await model?.disconnect()
        await h?.stop()
    }

    func device(_ id: String) -> DeviceInfo? { model.devices.first { $0.id == id } }

    func testAFailedProbeIsAWordInTheRowAndTheErrorIsBehindDetails() async throws {
        model.addDevice(address: unknownName)
        model.addDevice(address: refusing)
        let lost = "\(unknownName):8009"
        try await waitUntil("both probes to fail") { self.device(lost)?.problem != nil && self.device(self.refusing)?.problem != nil }

        let notFound = try XCTUnwrap(device(lost)?.problem)
        XCTAssertEqual(notFound.kind, .notFound)
        XCTAssertEqual(notFound.state, "Not found")
        XCTAssertEqual(notFound.sentence, "No device called “\(unknownName)” was found. Check the name, or enter the device's IP address.")
        XCTAssertNil(device(lost)?.statusText, "the raw error is not shown in the row")
        XCTAssertTrue(notFound.detail.contains(unknownName), notFound.detail)

        let silent = try XCTUnwrap(device(refusing)?.problem)
        XCTAssertEqual(silent.kind, .notAnswering)
        XCTAssertEqual(silent.state, "Not answering")
        XCTAssertEqual(silent.sentence, "\(isolated(refusing)) did not answer. Check that it is on and on this network.")
        XCTAssertTrue(silent.detail.contains("Connection refused"), silent.detail)

        // Details: the sentence as the heading, the library's text below, and Try Again.
        let details = try XCTUnwrap(model.details(of: try XCTUnwrap(device(refusing))))
        XCTAssertEqual(details.text, silent.sentence)
        XCTAssertEqual(details.detail, silent.detail)
        XCTAssertEqual(details.retryDeviceID, refusing)
        XCTAssertNil(model.details(of: try XCTUnwrap(model.addDevice(address: h.address))), "an answering device has no details")
    }

    func testConnectingToANameThatDoesNotResolveSaysSo() async throws {
        let lost = try XCTUnwrap(model.addDevice(address: unknownName))
        await model.connect(to: lost)
        let notice = try XCTUnwrap(model.notice)
        XCTAssertEqual(notice.text, "No device called “\(unknownName)” was found. Check the name, or enter the device's IP address.")
        XCTAssertEqual(notice.retryDeviceID, lost.id)
    }

    func testAddDeviceSavesOnlyADeviceThatAnswers() async throws {
        guard case .failed(let noName, let detail) = await model.addDeviceIfAnswering(address: unknownName) else {
            return XCTFail("a name that does not resolve was added")
        }
        XCTAssertEqual(noName, "No device called “\(unknownName)” was found. Check the name, or enter the device's IP address.")
        XCTAssertTrue(detail?.contains(unknownName) == true, detail ?? "no detail")

        guard case .failed(let silent, _) = await model.addDeviceIfAnswering(address: refusing) else {
            return XCTFail("an address where nothing answers was added")
        }
        XCTAssertEqual(silent, "\(isolated(refusing)) did not answer. Check that it is on and on this network.")
        XCTAssertNotEqual(silent, noName)

        guard case .failed(let typo, nil) = await model.addDeviceIfAnswering(address: "host:x") else {
            return XCTFail("a text that is not an address was added")
        }
        XCTAssertEqual(typo, "“host:x” is not an address. Enter a host name or IP address, optionally with :port.")

        XCTAssertEqual(try h.store.load(), [], "nothing that failed was saved")
        XCTAssertTrue(model.devices.isEmpty, "nothing that failed is listed")

        // A device that answers is saved and listed with the name it gives.
        guard case .added(let added) = await model.addDeviceIfAnswering(address: " \(h.address) ") else {
            return XCTFail("the receiver was not added")
        }
        XCTAssertEqual(added.id, h.address)
        XCTAssertNil(added.problem)
        XCTAssertEqual(try h.store.load().map(\.address.description), [h.address])
        XCTAssertEqual(model.devices.map(\.id), [h.address])
    }

    func testForgetOffersUndoThatRestoresTheDeviceAsItWas() async throws {
        model.addDevice(address: h.address, name: "Living Room TV")
        model.addDevice(address: refusing, name: "Kitchen")
        try await waitUntil("both saved and probed") {
            (try? self.h.store.load().count) == 2 && self.device(self.refusing)?.problem != nil
        }
        let saved = try h.store.load()
        let living = try XCTUnwrap(device(h.address))

        model.forget(living)
        try await waitUntil("the notice") { self.model.notice?.undo != nil }
        let notice = try XCTUnwrap(model.notice)
        XCTAssertEqual(notice.text, "Forgot “Living Room TV”")
        XCTAssertEqual(try h.store.load().map(\.address.description), [refusing])
        XCTAssertNil(device(h.address))

        await model.undo(try XCTUnwrap(notice.undo))
        XCTAssertEqual(try h.store.load(), saved, "remembered again as before, in its place")
        XCTAssertEqual(model.devices.map(\.id), [h.address, refusing], "listed again in its place")
        XCTAssertEqual(device(h.address)?.friendlyName, "Living Room TV")

        // Forgetting a device whose probe failed brings back its state with it.
        model.forget(try XCTUnwrap(device(refusing)))
        try await waitUntil("the second notice") { self.model.notice?.text == "Forgot “Kitchen”" }
        await model.undo(try XCTUnwrap(model.notice?.undo))
        XCTAssertEqual(device(refusing)?.problem?.kind, .notAnswering)
        XCTAssertEqual(try h.store.load(), saved)
    }

    func testTheDemosOwnReceiverHasNoTrustVerdict() async throws {
        // The simulator has no Cast credentials: as a device added by address it is unverified.
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV")))
        try await waitUntil("the verdict") { if case .unverified = self.model.trust { true } else { false } }
        await model.disconnect()

        // The same receiver as the demo's own (inside CastDeck): there is nothing to say.
        let port = try XCTUnwrap(h.server.port)
        let demo = DeviceInfo(
            id: "demo", friendlyName: "Demo Receiver", model: "CastDeck demo",
            host: "127.0.0.1", port: port, origin: .demo)
        model.showDevice(demo)
        await model.connect(to: demo)
        XCTAssertTrue(model.isConnected, model.notice?.text ?? "")
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertEqual(model.trust, .unknown)
    }
}
