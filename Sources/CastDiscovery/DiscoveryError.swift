// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore

/// Everything that can go wrong in discovery, each with a sentence a person can act on.
public enum DiscoveryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// avahi-daemon is not reachable (not running, or no system D-Bus). `detail` is Avahi's own text.
    case avahiNotRunning(detail: String)
    /// Avahi's client library (libavahi-client.so.3) could not be opened; `detail` is the loader's text.
    case avahiLibraryMissing(detail: String)
    /// Avahi answered but refused an operation (`code` is Avahi's error number).
    case avahiFailure(operation: String, code: Int32, message: String)
    /// `HOST[:PORT]` could not be read (the error says what to write instead).
    case invalidAddress(DeviceAddressError)
    /// No device matched a name, id or address within the time allowed.
    case deviceNotFound(query: String, seen: [String])
    /// More than one device has this friendly name.
    case ambiguousName(query: String, ids: [String])
    /// The publisher's service name or TXT record was not accepted.
    case invalidService(String)
    /// The remembered-devices file could not be read or written.
    case storeFailure(path: String, reason: String)
    /// No usable Cast device answered at an address that was to be added only if one did.
    case probeFailed(ProbeFailure)
    /// Browsing was limited to a network interface this computer does not have.
    case noSuchInterface(String, available: [String])

    public var description: String {
        switch self {
        case .avahiNotRunning:
            return "Avahi is not running: start avahi-daemon, or add a device by its address"
        case let .avahiLibraryMissing(detail):
            return "Avahi's client library could not be loaded (\(detail)): install libavahi-client3 to find devices, or add a device by its address"
        case let .avahiFailure(operation, code, message):
            return "Avahi could not \(operation): \(message) (error \(code))"
        case let .invalidAddress(error):
            return error.description
        case let .deviceNotFound(query, seen):
            let known = seen.isEmpty ? "no devices were found" : "found: \(seen.joined(separator: ", "))"
            return "No Cast device named \"\(query)\" was found (\(known)); give its address as HOST[:PORT]"
        case let .ambiguousName(query, ids):
            return "Several devices are named \"\(query)\" (ids \(ids.joined(separator: ", "))): pick one by its id"
        case let .invalidService(reason):
            return "The service cannot be published: \(reason)"
        case let .storeFailure(path, reason):
            return "The list of added devices at \(path) could not be used: \(reason)"
        case let .probeFailed(failure):
            return failure.detail
        case let .noSuchInterface(name, available):
            let list = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "This computer has no network interface named \"\(name)\" (it has: \(list)); name one of those, or none to look on all"
        }
    }
}

/// What the device list hears from discovery.
public enum DiscoveryEvent: Sendable, Equatable {
    /// A device appeared (first instance resolved, or added by address).
    case added(CastDevice)
    /// A device's TXT record, address or port changed (e.g. `rs` now says "Now playing ...").
    case updated(CastDevice)
    /// The last instance of a device went away, or an added device was forgotten.
    case removed(CastDevice)
    /// Browsing is not possible (Avahi not running): devices added by address still work.
    case unavailable(DiscoveryError)
    /// Avahi is connected and browsing (sent once, and again after Avahi came back).
    case browsing

    /// The device an `added`/`updated`/`removed` event is about.
    public var device: CastDevice? {
        switch self {
        case let .added(d), let .updated(d), let .removed(d): return d
        case .unavailable, .browsing: return nil
        }
    }
}
