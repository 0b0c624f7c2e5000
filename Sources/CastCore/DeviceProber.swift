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

/// Checks a device added by address: "connect + GET_STATUS". CastDiscovery's
/// `DeviceDirectory` asks; CastClient's `CastClientProber` answers (discovery may not
/// import the sender, so the question is asked here, in the words both know). A prober
/// throws when the device does not answer; the error's description is shown to the user.
public protocol DeviceProber: Sendable {
    func probe(_ address: DeviceAddress, timeout: Duration) async throws -> ProbeResult
}
