// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastProtocol

/// One speaker of a group, as the group's leader reports it (multizone namespace).
public struct CastGroupMember: Sendable, Hashable, Identifiable {
    /// The multizone `deviceId`: the member's mDNS TXT `id` as a UUID with dashes.
    public var id: String
    public var name: String
    /// The member's own capability bits (the bits of its mDNS `ca`).
    public var capabilities: Int
    /// The member's own volume, 0 ... 1 (nil when the leader did not say).
    public var volume: Double?
    public var muted: Bool?

    public init(id: String, name: String, capabilities: Int = 0, volume: Double? = nil, muted: Bool? = nil) {
        self.id = id
        self.name = name
        self.capabilities = capabilities
        self.volume = volume
        self.muted = muted
    }

    init(_ device: MultizoneDevice) {
        self.init(
            id: device.deviceId, name: device.name ?? device.deviceId, capabilities: device.capabilities ?? 0,
            volume: device.volume?.level, muted: device.volume?.muted)
    }

    /// Whether `deviceID` (a multizone `deviceId`, an mDNS TXT `id`, with or without dashes, any
    /// letter case) names this member.
    public func matches(deviceID: String) -> Bool {
        Self.key(id) == Self.key(deviceID)
    }

    /// An id compared without dashes or braces and in lower case: the multizone `deviceId`
    /// `71d8c580-bbd0-…` and the mDNS `id` `71d8c580bbd0…` are one device.
    static func key(_ id: String) -> String {
        String(id.lowercased().filter { $0 != "-" && $0 != "{" && $0 != "}" })
    }
}

/// A speaker group: its members in the leader's order.
public struct CastGroup: Sendable, Hashable {
    public var members: [CastGroupMember]
    /// A stereo pair or a speaker with a sub: one sound split over the members.
    public var isMultichannel: Bool

    public init(members: [CastGroupMember], isMultichannel: Bool = false) {
        self.members = members
        self.isMultichannel = isMultichannel
    }

    /// The group MULTIZONE_STATUS describes (members without an id were already left out).
    public init(_ status: MultizoneStatus) {
        self.init(members: (status.devices ?? []).map(CastGroupMember.init), isMultichannel: status.isMultichannel ?? false)
    }

    /// The member `text` names: its id (with or without dashes) or its name (any letter case).
    public func member(named text: String) -> CastGroupMember? {
        members.first { $0.matches(deviceID: text) }
            ?? members.first { $0.name == text }
            ?? members.first { $0.name.lowercased() == text.lowercased() }
    }

    /// The group after one message of the leader: MULTIZONE_STATUS replaces it, DEVICE_ADDED and
    /// DEVICE_UPDATED put one member in (in place, or at the end when new), DEVICE_REMOVED takes
    /// one out. `current` nil means no MULTIZONE_STATUS was seen: only a status makes a group
    /// (a lone speaker also hears DEVICE_UPDATED about itself, as real captures show).
    public static func applying(_ message: MultizoneMessage, to current: CastGroup?) -> CastGroup? {
        switch message {
        case .multizoneStatus(let m):
            guard let status = m.status else { return current }
            return CastGroup(status)
        case .deviceAdded(let m), .deviceUpdated(let m):
            guard var group = current else { return nil }
            let member = CastGroupMember(m.device)
            if let i = group.members.firstIndex(where: { $0.matches(deviceID: member.id) }) {
                // A DEVICE_UPDATED may leave out what did not change: keep what it does not say.
                var merged = member
                if m.device.name == nil { merged.name = group.members[i].name }
                if m.device.capabilities == nil { merged.capabilities = group.members[i].capabilities }
                if m.device.volume?.level == nil { merged.volume = group.members[i].volume }
                if m.device.volume?.muted == nil { merged.muted = group.members[i].muted }
                group.members[i] = merged
            } else {
                group.members.append(member)
            }
            return group
        case .deviceRemoved(let m):
            guard var group = current else { return nil }
            group.members.removeAll { $0.matches(deviceID: m.deviceId) }
            return group
        case .getStatus, .unknown:
            return current
        }
    }
}
