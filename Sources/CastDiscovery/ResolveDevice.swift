// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore

/// Turns what a person typed after `--device` into an address to connect to.
///
/// Accepted, in this order:
/// 1. an address: an IP literal or anything with `:PORT` (`192.168.1.20`, `tv.lan:8009`, `[fe80::1%eth0]:8009`);
/// 2. a device added by address, by its remembered name or id;
/// 3. a discovered device, by TXT id (dashes and case do not matter) or friendly name
///    (case-insensitive): browsing stops as soon as one matches;
/// 4. a host name (`tv.local`), when nothing else matched.
///
/// - Throws: `DiscoveryError.deviceNotFound` (listing what was seen), `.ambiguousName`, or
///   `.avahiNotRunning` when the name could only have been found by browsing.
public func resolveDevice(
    _ query: String, timeout: Duration = .seconds(3), store: ManualDeviceStore = .standard(),
    serviceType: String = CastBrowser.castServiceType
) async throws(DiscoveryError) -> (host: String, port: Int) {
    let trimmed = query.trimmingWhitespace()
    if DeviceAddress.looksLikeAddress(trimmed) {
        do {
            let address = try DeviceAddress(parsing: trimmed)
            return (address.host, address.port)
        } catch {
            throw .invalidAddress(error)
        }
    }
    let wantedID = TXTRecord.normalizedID(trimmed) ?? trimmed.lowercased()
    if let remembered = try? store.load(),
        let hit = remembered.first(where: { $0.name?.lowercased() == trimmed.lowercased() || $0.id == wantedID })
    {
        return (hit.host, hit.port)
    }

    let browser = CastBrowser(serviceType: serviceType)
    browser.start()
    let deadline = Task {
        try? await Task.sleep(for: timeout)
        browser.stop()
    }
    defer {
        deadline.cancel()
        browser.stop()
    }
    var seen: [String: CastDevice] = [:]
    var failure: DiscoveryError?
    for await event in browser.events {
        switch event {
        case let .added(d), let .updated(d):
            seen[d.id] = d
            if d.id == wantedID { return (d.host, d.port) }
            if d.friendlyName.lowercased() == trimmed.lowercased() {
                let same = seen.values.filter { $0.friendlyName.lowercased() == trimmed.lowercased() }
                if same.count > 1 { throw .ambiguousName(query: trimmed, ids: same.map(\.id).sorted()) }
                return (d.host, d.port)
            }
        case let .removed(d):
            seen[d.id] = nil
        case let .unavailable(error):
            failure = error
            browser.stop()
        case .browsing:
            break
        }
    }
    if let address = try? DeviceAddress(parsing: trimmed), address.host.contains(".") {
        return (address.host, address.port)  // a host name such as tv.local or tv.lan
    }
    if let failure { throw failure }
    throw .deviceNotFound(query: trimmed, seen: seen.values.map(\.friendlyName).sorted())
}
