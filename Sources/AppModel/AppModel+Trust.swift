// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastDiscovery

/// What the window says about the connected device's genuineness (CastClient's
/// `DeviceAuthentication`, reduced to what a person needs to see).
public enum DeviceTrust: Equatable, Sendable {
    /// Not connected, or authentication is off.
    case unknown
    case checking
    /// Verified; the device certificate's common name.
    case verified(commonName: String)
    /// Not verified; a sentence saying why.
    case unverified(reason: String)
}

extension AppModel {
    /// The verdict on the session's device. The demo's receiver runs inside CastDeck, so
    /// whether it is a genuine Cast device says nothing: it has no verdict (`.unknown`).
    public var trust: DeviceTrust {
        if let id = sessionDeviceID, deviceList.first(where: { $0.id == id })?.source == .local { return .unknown }
        return switch authentication {
        case .notChecked: .unknown
        case .checking: .checking
        case .verified(let identity): .verified(commonName: identity.commonName)
        case .unverified(let failure): .unverified(reason: failure.description)
        }
    }
}
