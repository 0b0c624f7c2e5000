// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The multizone namespace (`urn:x-cast:com.google.cast.multizone`): a speaker group's leader
// tells its senders who the members are. A sender asks with GET_STATUS on `receiver-0` and
// gets MULTIZONE_STATUS; afterwards the leader broadcasts DEVICE_ADDED, DEVICE_UPDATED (a
// member's volume or name changed) and DEVICE_REMOVED. Everything but the `type` and a
// member's `deviceId` is optional here, because real captures leave parts out (protocol.md §5).

/// One member of a group as the leader describes it.
public struct MultizoneDevice: Codable, Hashable, Sendable {
    /// The member's id: the UUID of its mDNS TXT `id`, written with dashes.
    public var deviceId: String
    public var name: String?
    /// The member's own capability bits (the same bits as its mDNS `ca`).
    public var capabilities: Int?
    /// The member's own volume (not the group's).
    public var volume: Volume?

    public init(deviceId: String, name: String? = nil, capabilities: Int? = nil, volume: Volume? = nil) {
        self.deviceId = deviceId
        self.name = name
        self.capabilities = capabilities
        self.volume = volume
    }
}

/// The group's membership in MULTIZONE_STATUS.
public struct MultizoneStatus: Codable, Hashable, Sendable {
    public var devices: [MultizoneDevice]?
    /// A stereo pair or a speaker with a sub: one sound split over the members.
    public var isMultichannel: Bool?

    public init(devices: [MultizoneDevice]? = nil, isMultichannel: Bool? = nil) {
        self.devices = devices
        self.isMultichannel = isMultichannel
    }
}

/// GET_STATUS on the multizone namespace.
public struct MultizoneStatusRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public init(requestId: Int) { self.requestId = requestId }
}

/// MULTIZONE_STATUS: the answer to GET_STATUS (real leaders also send it unasked).
public struct MultizoneStatusMessage: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var status: MultizoneStatus?
    public init(requestId: Int? = nil, status: MultizoneStatus?) {
        self.requestId = requestId
        self.status = status
    }
}

/// DEVICE_ADDED and DEVICE_UPDATED: one member, whole.
public struct MultizoneDeviceMessage: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var device: MultizoneDevice
    public init(requestId: Int? = 0, device: MultizoneDevice) {
        self.requestId = requestId
        self.device = device
    }
}

/// DEVICE_REMOVED: only the member's id.
public struct MultizoneDeviceRemoved: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var deviceId: String
    public init(requestId: Int? = 0, deviceId: String) {
        self.requestId = requestId
        self.deviceId = deviceId
    }
}

/// The messages of the multizone namespace.
public enum MultizoneMessage: Hashable, Sendable {
    case getStatus(MultizoneStatusRequest)
    case multizoneStatus(MultizoneStatusMessage)
    case deviceAdded(MultizoneDeviceMessage)
    case deviceUpdated(MultizoneDeviceMessage)
    case deviceRemoved(MultizoneDeviceRemoved)
    /// CASTING_GROUPS, PLAYBACK_SESSION_UPDATED and whatever else a device sends, kept as it came.
    case unknown(type: String, payload: JSONValue)
}

// Wire coding: each `type` string beside its case.
extension MultizoneMessage: CastJSONMessage {
    public static let namespace = CastNamespace.multizone

    public init(from decoder: any Decoder) throws {
        switch try readType(decoder) {
        case "GET_STATUS": self = .getStatus(try MultizoneStatusRequest(from: decoder))
        case "MULTIZONE_STATUS": self = .multizoneStatus(try MultizoneStatusMessage(from: decoder))
        case "DEVICE_ADDED": self = .deviceAdded(try MultizoneDeviceMessage(from: decoder))
        case "DEVICE_UPDATED": self = .deviceUpdated(try MultizoneDeviceMessage(from: decoder))
        case "DEVICE_REMOVED": self = .deviceRemoved(try MultizoneDeviceRemoved(from: decoder))
        case let other: self = .unknown(type: other, payload: try JSONValue(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .getStatus(let m): try write("GET_STATUS", m, to: encoder)
        case .multizoneStatus(let m): try write("MULTIZONE_STATUS", m, to: encoder)
        case .deviceAdded(let m): try write("DEVICE_ADDED", m, to: encoder)
        case .deviceUpdated(let m): try write("DEVICE_UPDATED", m, to: encoder)
        case .deviceRemoved(let m): try write("DEVICE_REMOVED", m, to: encoder)
        case .unknown(let type, let payload): try write(type, payload, to: encoder)
        }
    }

    /// The request id the message carries (0 on the leader's unasked broadcasts).
    public var requestId: Int? {
        switch self {
        case .getStatus(let m): m.requestId
        case .multizoneStatus(let m): m.requestId
        case .deviceAdded(let m), .deviceUpdated(let m): m.requestId
        case .deviceRemoved(let m): m.requestId
        case .unknown(_, let payload): payload["requestId"]?.intValue
        }
    }
}
