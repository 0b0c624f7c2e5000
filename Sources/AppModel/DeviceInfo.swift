// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastDiscovery

/// What a device row shows, read from discovery's `CastDevice` (the one record of a device).
/// A view over the device, not a copy of its state: every field is derived.
public struct DeviceInfo: Hashable, Sendable, Identifiable {
    public enum Origin: Hashable, Sendable { case discovered, added, demo }

    /// The device as `DeviceDirectory` lists it.
    public var device: CastDevice

    public init(_ device: CastDevice) { self.device = device }

    public var id: String { device.id }
    public var friendlyName: String { device.friendlyName }
    /// The model, or "Added by address" for an added device not probed yet.
    public var model: String { device.model ?? (device.source == .manual ? tr("Added by address") : "") }
    public var host: String { device.host }
    public var port: Int { device.port }
    /// The receiver's status text, e.g. "Now playing Big Buck Bunny".
    public var statusText: String? { device.statusText }
    /// A speaker group (cast groups announce themselves with a group model or port).
    public var isGroup: Bool { device.isGroup }
    /// True when another sender's application is running there (it can be joined).
    public var isBusy: Bool { device.isBusy }
    public var origin: Origin {
        switch device.source {
        case .discovered: .discovered
        case .manual: .added
        case .local: .demo
        }
    }
    public var address: DeviceAddress { DeviceAddress(host: device.host, port: device.port) }
}

extension DeviceInfo {
    /// A device this process knows by itself (the in-process demo receiver): listed, never
    /// remembered on disk or probed.
    public init(id: String, friendlyName: String, model: String, host: String, port: Int,
                statusText: String? = nil, isGroup: Bool = false, isBusy: Bool = false, origin: Origin) {
        let source: CastDevice.Source = switch origin {
        case .discovered: .discovered
        case .added: .manual
        case .demo: .local
        }
        self.init(CastDevice(id: id, friendlyName: friendlyName, model: model, host: host, port: port,
                             statusText: statusText, isBusy: isBusy, source: source))
    }
}
