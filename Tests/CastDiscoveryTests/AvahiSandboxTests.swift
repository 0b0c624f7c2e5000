// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// These tests talk to a real avahi-daemon, so they only run inside
// ../shared/scripts/mdns-sandbox (Tests/System/run-discovery.sh runs them there); anywhere
// else they skip, because mDNS must never reach the machine's real network.

import Foundation
import XCTest

@testable import CastDiscovery

struct TimedOut: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "no matching discovery event within \(limit)" }
}

final class AvahiSandboxTests: XCTestCase {
    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["MDNS_SANDBOX_HOST"] != nil else {
            throw XCTSkip("needs avahi-daemon inside the mDNS sandbox: run Tests/System/run-discovery.sh")
        }
    }

    /// Reads events until `match` returns a value, failing after `limit` (a hang guard only).
    func next<T: Sendable>(
        _ events: AsyncStream<DiscoveryEvent>, limit: Duration = .seconds(20), _ match: @escaping @Sendable (DiscoveryEvent) -> T?
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                for await event in events {
                    if ProcessInfo.processInfo.environment["DISCOVERY_TEST_TRACE"] != nil { print("event:", event) }
                    if let hit = match(event) { return hit }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            let first = try await group.next()!
            group.cancelAll()
            guard let first else { throw TimedOut(limit: limit) }
            return first
        }
    }

    func avahiPublish(_ args: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/avahi-publish")
        process.arguments = ["-s"] + args
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func testAvahiPublishedServiceIsFoundWithAllTXTAndRemoved() async throws {
        let id = "4f6c1d2e3a5b4c6d8e9fa0b1c2d3e4f5"
        let publisher = try avahiPublish([
            "Chromecast-\(id)", "_googlecast._tcp", "8009",
            "id=\(id)", "cd=658594ACE5BC795F2DC5D9D58DFEF605", "rm=04124F56BF84DCB9", "ve=05", "md=Chromecast Ultra",
            "ic=/setup/icon.png", "fn=Sandbox TV", "ca=201221", "st=1", "bs=FA8FCA7B4DCD", "nf=2", "rs=Now playing: Sintel",
        ])
        defer { if publisher.isRunning { kill(publisher.processIdentifier, SIGKILL) } }
        let browser = CastBrowser()
        browser.start()
        defer { browser.stop() }
        let device = try await next(browser.events) { event -> CastDevice? in
            if case let .added(d) = event, d.id == id { return d }
            return nil
        }
        XCTAssertEqual(device.friendlyName, "Sandbox TV")
        XCTAssertEqual(device.model, "Chromecast Ultra")
        XCTAssertEqual(device.host, ProcessInfo.processInfo.environment["MDNS_SANDBOX_HOST"])
        XCTAssertEqual(device.port, 8009)
        XCTAssertEqual(device.capabilities.rawValue, 201221)
        XCTAssertEqual(device.statusText, "Now playing: Sintel")
        XCTAssertEqual(device.iconPath, "/setup/icon.png")
        XCTAssertTrue(device.isBusy)
        XCTAssertFalse(device.isGroup)
        XCTAssertEqual(device.serviceName, "Chromecast-\(id)")
        XCTAssertEqual(
            device.txt,
            [
                "id": id, "cd": "658594ACE5BC795F2DC5D9D58DFEF605", "rm": "04124F56BF84DCB9", "ve": "05", "md": "Chromecast Ultra",
                "ic": "/setup/icon.png", "fn": "Sandbox TV", "ca": "201221", "st": "1", "bs": "FA8FCA7B4DCD", "nf": "2",
                "rs": "Now playing: Sintel",
            ])

        // SIGKILL: avahi-daemon sees the client's D-Bus connection close and withdraws the
        // service (SIGTERM may be blocked in a child of the test runner).
        kill(publisher.processIdentifier, SIGKILL)
        publisher.waitUntilExit()
        let gone = try await next(browser.events) { event -> CastDevice? in
            if case let .removed(d) = event, d.id == id { return d }
            return nil
        }
        XCTAssertEqual(gone.friendlyName, "Sandbox TV")
    }

    func testPublisherTXTUpdateArrivesAsUpdate() async throws {
        let record = CastServiceRecord(friendlyName: "Update Test", model: "Chromecast", port: 8009)
        let publisher = CastServicePublisher(record: record)
        defer { publisher.withdraw() }
        _ = try await publisher.publish()
        let browser = CastBrowser()
        browser.start()
        defer { browser.stop() }
        let added = try await next(browser.events) { event -> CastDevice? in
            if case let .added(d) = event, d.id == record.id { return d }
            return nil
        }
        XCTAssertNil(added.statusText)
        XCTAssertFalse(added.isBusy)
        try publisher.update(statusText: "Now playing: Big Buck Bunny", isBusy: true)
        let updated = try await next(browser.events) { event -> CastDevice? in
            if case let .updated(d) = event, d.id == record.id, d.statusText != nil { return d }
            return nil
        }
        XCTAssertEqual(updated.statusText, "Now playing: Big Buck Bunny")
        XCTAssertTrue(updated.isBusy)
        XCTAssertEqual(updated.friendlyName, "Update Test")

        publisher.withdraw()
        _ = try await next(browser.events) { event -> CastDevice? in
            if case let .removed(d) = event, d.id == record.id { return d }
            return nil
        }
    }

    func testNameCollisionIsRenamed() async throws {
        let holder = try avahiPublish(["Collision TV", "_googlecast._tcp", "8010", "id=00000000000000000000000000000001", "fn=Holder"])
        defer { kill(holder.processIdentifier, SIGKILL) }
        // Wait until the holder's service is visible, so the collision is certain.
        let browser = CastBrowser()
        browser.start()
        _ = try await next(browser.events) { event -> Bool? in
            if case let .added(d) = event, d.serviceName == "Collision TV" { return true }
            return nil
        }
        let record = CastServiceRecord(friendlyName: "Second", port: 8011, serviceName: "Collision TV")
        let publisher = CastServicePublisher(record: record)
        defer { publisher.withdraw() }
        let name = try await publisher.publish()
        XCTAssertEqual(name, "Collision TV #2")
        let renamed = try await next(browser.events) { event -> CastDevice? in
            if case let .added(d) = event, d.id == record.id { return d }
            return nil
        }
        XCTAssertEqual(renamed.serviceName, "Collision TV #2")
        XCTAssertTrue(renamed.isGroup, "port 8011 is not 8009")
        browser.stop()
    }

    func testResolveDeviceByNameAndID() async throws {
        let record = CastServiceRecord(friendlyName: "Resolve Me", port: 8012)
        let publisher = CastServicePublisher(record: record)
        defer { publisher.withdraw() }
        _ = try await publisher.publish()
        let store = ManualDeviceStore(fileURL: FileManager.default.temporaryDirectory.appendingPathComponent("none-\(UUID()).json"))
        let byName = try await resolveDevice("resolve me", timeout: .seconds(10), store: store)
        XCTAssertEqual(byName.host, ProcessInfo.processInfo.environment["MDNS_SANDBOX_HOST"])
        XCTAssertEqual(byName.port, 8012)
        let byID = try await resolveDevice(record.id.uppercased(), timeout: .seconds(10), store: store)
        XCTAssertEqual(byID.port, 8012)
        let byAddress = try await resolveDevice("10.1.2.3:9000", store: store)
        XCTAssertEqual(byAddress.host, "10.1.2.3")
        do {
            _ = try await resolveDevice("No Such Device", timeout: .seconds(2), store: store)
            XCTFail("an unknown name must not resolve")
        } catch {
            guard case let .deviceNotFound(query, seen) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(query, "No Such Device")
            XCTAssertTrue(seen.contains("Resolve Me"))
        }
    }
}
