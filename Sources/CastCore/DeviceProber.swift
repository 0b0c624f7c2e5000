// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// What a probe learned from a device reached by address.
public struct ProbeResult: Sendable, Equatable {
    /// The device's name, when the prober can learn it (e.g. from the device's setup API).
    public var friendlyName: String?
    /// The device id, when known.
    public var id: String?
    /// The model, when known.
    public var model: String?
    /// The running app's status text from RECEIVER_STATUS (`applications[0].statusText`).
    public var statusText: String?

    public init(friendlyName: String? = nil, id: String? = nil, model: String? = nil, statusText: String? = nil) {
        self.friendlyName = friendlyName
        self.id = id
        self.model = model
        self.statusText = statusText
    }
}

/// Why a probe found no usable Cast device at an address, sorted into the few kinds a device
/// list can name in a word or two ("Not found", "Not answering"), with the technical text kept
/// for whoever asks for the details. The prober sorts its own errors (it knows them);
/// discovery only passes the verdict on.
public struct ProbeFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The host name does not resolve to any address.
        case notFound
        /// Nothing answered at the address: refused, unreachable or silent until the timeout.
        case notAnswering
        /// Something answered, but not as a Cast device speaks (no TLS, unreadable frames).
        case notACastDevice
        /// A Cast device answered but could not prove it is genuine, and only verified
        /// devices are allowed.
        case notVerified
    }

    public var kind: Kind
    /// The error as the library that met it tells it (addresses, errno, protocol names).
    public var detail: String

    public init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail }
}

/// Checks a device added by address: "connect + GET_STATUS". CastDiscovery's
/// `DeviceDirectory` asks; CastClient's `CastClientProber` answers (discovery may not
/// import the sender, so the question is asked here, in the words both know). A prober
/// throws when the device does not answer, preferably a `ProbeFailure` saying what kind of
/// failure it was; any other error counts as "not answering".
public protocol DeviceProber: Sendable {
    func probe(_ address: DeviceAddress, timeout: Duration) async throws -> ProbeResult
}
