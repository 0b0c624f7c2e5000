// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore

/// One mDNS service instance: the same device seen on another interface or over the
/// other IP family is another instance (Avahi reports each separately).
public struct ServiceInstanceKey: Hashable, Sendable {
    public var interface: Int32
    public var ipFamily: IPFamily
    public var name: String
    public var type: String
    public var domain: String

    public enum IPFamily: Sendable, Hashable { case ipv4, ipv6 }

    public init(interface: Int32, ipFamily: IPFamily, name: String, type: String = "_googlecast._tcp", domain: String = "local") {
        self.interface = interface
        self.ipFamily = ipFamily
        self.name = name
        self.type = type
        self.domain = domain
    }
}

/// A resolved service instance: SRV, address and TXT.
public struct ResolvedService: Sendable, Equatable {
    public var key: ServiceInstanceKey
    public var hostName: String
    /// Printable address (IPv6 link-local ones carry `%interface`).
    public var address: String
    public var addressIsIPv6: Bool
    public var port: Int
    public var txt: [String: String]

    public init(key: ServiceInstanceKey, hostName: String, address: String, addressIsIPv6: Bool, port: Int, txt: [String: String]) {
        self.key = key
        self.hostName = hostName
        self.address = address
        self.addressIsIPv6 = addressIsIPv6
        self.port = port
        self.txt = txt
    }
}

/// Folds mDNS instance reports into devices: one device per TXT id, whatever the number of
/// interfaces and IP families it is seen on. Pure state, no I/O, so it is unit-tested directly;
/// the Avahi browser drives it from its poll thread.
public struct DeviceRegistry: Sendable {
    private var instances: [ServiceInstanceKey: ResolvedService] = [:]
    /// Resolution order, newest last: the newest resolution of a device wins for its TXT.
    private var order: [ServiceInstanceKey: UInt64] = [:]
    private var counter: UInt64 = 0
    private var published: [String: CastDevice] = [:]

    public init() {}

    /// The devices as currently known, sorted by friendly name.
    public var devices: [CastDevice] {
        published.values.sorted { ($0.friendlyName.lowercased(), $0.id) < ($1.friendlyName.lowercased(), $1.id) }
    }

    /// An instance was resolved (first time, or its TXT/address changed).
    public mutating func resolved(_ service: ResolvedService) -> [DiscoveryEvent] {
        let before = deviceID(of: service.key)
        instances[service.key] = service
        counter += 1
        order[service.key] = counter
        var ids: Set<String> = [deviceID(of: service.key)!]
        if let before { ids.insert(before) }
        return ids.sorted().flatMap { refresh($0) }
    }

    /// An instance went away (browser REMOVE, or its resolver failed for good).
    public mutating func removed(_ key: ServiceInstanceKey) -> [DiscoveryEvent] {
        guard let id = deviceID(of: key) else { return [] }
        instances[key] = nil
        order[key] = nil
        return refresh(id)
    }

    /// Everything went away (Avahi disconnected): one `removed` per device.
    public mutating func removeAll() -> [DiscoveryEvent] {
        let gone = devices
        instances = [:]
        order = [:]
        published = [:]
        return gone.map { .removed($0) }
    }

    private func deviceID(of key: ServiceInstanceKey) -> String? {
        guard let s = instances[key] else { return nil }
        return TXTRecord.device(txt: s.txt, serviceName: s.key.name, host: "", port: 0).id
    }

    /// Recomputes one device from its instances and reports the difference.
    private mutating func refresh(_ id: String) -> [DiscoveryEvent] {
        let mine = instances.values.filter { deviceID(of: $0.key) == id }
        guard !mine.isEmpty else {
            if let old = published.removeValue(forKey: id) { return [.removed(old)] }
            return []
        }
        // TXT from the newest resolution; the address prefers IPv4, then a global IPv6
        // over a link-local one, then the newest.
        let newest = mine.max { order[$0.key, default: 0] < order[$1.key, default: 0] }!
        let reachable = mine.max { rank($0) < rank($1) }!
        let device = TXTRecord.device(txt: newest.txt, serviceName: newest.key.name, host: reachable.address, port: newest.port)
        let old = published[id]
        published[id] = device
        if old == nil { return [.added(device)] }
        return old == device ? [] : [.updated(device)]
    }

    private func rank(_ s: ResolvedService) -> (Int, UInt64) {
        let family = !s.addressIsIPv6 ? 2 : (s.address.contains("%") ? 0 : 1)
        return (family, order[s.key, default: 0])
    }
}
