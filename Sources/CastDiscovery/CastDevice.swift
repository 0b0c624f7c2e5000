// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore

/// What a Cast device says it can do: the `ca` TXT field, a decimal bit field.
///
/// Bits 0–4 are documented by the Cast V2 spec (as quoted by Open Screen); the others
/// come from public observation and are kept for display only.
public struct CastCapabilities: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let videoOut = CastCapabilities(rawValue: 1 << 0)
    public static let videoIn = CastCapabilities(rawValue: 1 << 1)
    public static let audioOut = CastCapabilities(rawValue: 1 << 2)
    public static let audioIn = CastCapabilities(rawValue: 1 << 3)
    public static let devMode = CastCapabilities(rawValue: 1 << 4)
    public static let multizoneGroup = CastCapabilities(rawValue: 1 << 5)
    public static let dynamicGroup = CastCapabilities(rawValue: 1 << 6)
    public static let multichannelGroup = CastCapabilities(rawValue: 1 << 7)
    public static let multichannelMember = CastCapabilities(rawValue: 1 << 8)
    public static let masterOrFixedVolume = CastCapabilities(rawValue: 1 << 11)
    public static let attenuationOrFixedVolume = CastCapabilities(rawValue: 1 << 12)
    public static let dynamicGroupingSupported = CastCapabilities(rawValue: 1 << 16)
}

/// One Cast device (or Cast group) as the device list shows it.
///
/// A device found on several interfaces or over both IPv4 and IPv6 is still one
/// `CastDevice`: its `id` is the TXT `id` (normalised to 32 lower-case hex digits).
public struct CastDevice: Sendable, Hashable, Codable, Identifiable {
    /// Where a device came from.
    public enum Source: String, Sendable, Hashable, Codable {
        /// Found through mDNS (Avahi).
        case discovered
        /// Added by the user as `HOST[:PORT]` and remembered.
        case manual
        /// Known to this process by itself (the window's in-process demo receiver): listed,
        /// never remembered or probed.
        case local
    }

    /// The Cast model name of groups (`md` TXT field).
    public static let groupModel = "Google Cast Group"
    /// The port every single Cast device listens on; groups use another one.
    public static let defaultPort = DeviceAddress.defaultPort

    /// TXT `id`, lower-case hex without dashes; for a manual device not yet probed, `HOST:PORT`.
    public var id: String
    /// TXT `fn`: the name people gave the device.
    public var friendlyName: String
    /// TXT `md`, e.g. "Chromecast" or "Google Cast Group".
    public var model: String?
    /// The address to connect to: an IPv4 address, an IPv6 address (with `%interface`
    /// for link-local ones), or a host name for manual devices.
    public var host: String
    /// The port from the SRV record (8009 for single devices).
    public var port: Int
    /// TXT `ca`.
    public var capabilities: CastCapabilities
    /// TXT `rs`: the running app's status ("Now playing ..."), nil when empty.
    public var statusText: String?
    /// TXT `ic`: the icon's path on the device's HTTP server.
    public var iconPath: String?
    /// TXT `st` == 1: an activity is running that a sender may join.
    public var isBusy: Bool
    /// Every TXT field as published (keys lower-cased).
    public var txt: [String: String]
    /// Found by mDNS or added by address.
    public var source: Source
    /// The mDNS service instance name, when discovered.
    public var serviceName: String?
    /// Why the last probe of a device added by address found no usable Cast device there
    /// (nil when it answered, or was never probed).
    public var probeFailure: ProbeFailure?

    public init(
        id: String, friendlyName: String, model: String? = nil, host: String, port: Int = CastDevice.defaultPort,
        capabilities: CastCapabilities = [], statusText: String? = nil, iconPath: String? = nil,
        isBusy: Bool = false, txt: [String: String] = [:], source: Source = .discovered, serviceName: String? = nil
    ) {
        self.id = id
        self.friendlyName = friendlyName
        self.model = model
        self.host = host
        self.port = port
        self.capabilities = capabilities
        self.statusText = statusText
        self.iconPath = iconPath
        self.isBusy = isBusy
        self.txt = txt
        self.source = source
        self.serviceName = serviceName
    }

    /// A Cast group: the model says so, or a service found on the network is on a port other
    /// than 8009 (groups are hosted by their elected leader on a port of their own). A port
    /// typed by hand, or the in-process demo receiver's, says nothing about groups.
    public var isGroup: Bool {
        model == CastDevice.groupModel || (source == .discovered && port != CastDevice.defaultPort)
    }

    /// `host:port`, with brackets around IPv6 addresses.
    public var address: String { DeviceAddress(host: host, port: port).description }
}
