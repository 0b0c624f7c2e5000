// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later

import XCTest

@testable import CastDiscovery

final class DeviceRegistryTests: XCTestCase {
    let id = "9569eea099be6d71923747fbf22da8dd"

    func service(
        _ iface: Int32, _ family: ServiceInstanceKey.IPFamily, address: String, rs: String = "", name: String = "Chromecast-x", id: String? = nil
    ) -> ResolvedService {
        ResolvedService(
            key: ServiceInstanceKey(interface: iface, ipFamily: family, name: name), hostName: "x.local", address: address,
            addressIsIPv6: family == .ipv6, port: 8009, txt: ["id": id ?? self.id, "fn": "TV", "rs": rs])
    }

    func testOneDeviceAcrossInterfacesAndFamilies() {
        var registry = DeviceRegistry()
        XCTAssertEqual(registry.resolved(service(2, .ipv6, address: "fe80::1%eth0")).map(\.kind), ["added"])
        XCTAssertEqual(registry.devices.first?.host, "fe80::1%eth0")
        // IPv4 on the same interface: same device, now reached over IPv4.
        XCTAssertEqual(registry.resolved(service(2, .ipv4, address: "10.0.0.5")).map(\.kind), ["updated"])
        XCTAssertEqual(registry.devices.first?.host, "10.0.0.5")
        // Another interface, same TXT: nothing to tell.
        XCTAssertEqual(registry.resolved(service(3, .ipv4, address: "10.0.0.5")).map(\.kind), [])
        XCTAssertEqual(registry.devices.count, 1)
        // Removal only when the last instance goes.
        XCTAssertEqual(registry.removed(ServiceInstanceKey(interface: 2, ipFamily: .ipv4, name: "Chromecast-x")).map(\.kind), [])
        XCTAssertEqual(registry.removed(ServiceInstanceKey(interface: 2, ipFamily: .ipv6, name: "Chromecast-x")).map(\.kind), [])
        XCTAssertEqual(registry.removed(ServiceInstanceKey(interface: 3, ipFamily: .ipv4, name: "Chromecast-x")).map(\.kind), ["removed"])
        XCTAssertTrue(registry.devices.isEmpty)
        XCTAssertEqual(registry.removed(ServiceInstanceKey(interface: 3, ipFamily: .ipv4, name: "Chromecast-x")).map(\.kind), [])
    }

    func testTXTChangeIsAnUpdate() {
        var registry = DeviceRegistry()
        _ = registry.resolved(service(2, .ipv4, address: "10.0.0.5"))
        let events = registry.resolved(service(2, .ipv4, address: "10.0.0.5", rs: "Now playing: Sintel"))
        XCTAssertEqual(events.map(\.kind), ["updated"])
        XCTAssertEqual(events.first?.device?.statusText, "Now playing: Sintel")
    }

    func testInstanceChangingIDMovesBetweenDevices() {
        var registry = DeviceRegistry()
        _ = registry.resolved(service(2, .ipv4, address: "10.0.0.5"))
        let other = "0123456789abcdef0123456789abcdef"
        let events = registry.resolved(service(2, .ipv4, address: "10.0.0.5", id: other))
        XCTAssertEqual(Set(events.map { "\($0.kind) \($0.device!.id)" }), ["removed \(id)", "added \(other)"])
    }

    func testRemoveAll() {
        var registry = DeviceRegistry()
        _ = registry.resolved(service(2, .ipv4, address: "10.0.0.5"))
        _ = registry.resolved(service(2, .ipv4, address: "10.0.0.6", name: "other", id: "0123456789abcdef0123456789abcdef"))
        XCTAssertEqual(registry.removeAll().map(\.kind), ["removed", "removed"])
        XCTAssertTrue(registry.devices.isEmpty)
    }
}

extension DiscoveryEvent {
    var kind: String {
        switch self {
        case .added: "added"
        case .updated: "updated"
        case .removed: "removed"
        case .unavailable: "unavailable"
        case .browsing: "browsing"
        }
    }
}
