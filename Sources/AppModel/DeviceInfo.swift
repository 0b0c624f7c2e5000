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
    /// The model, or "Added by address" for an added device not probed yet (after a failed
    /// probe the row names the failure instead).
    public var model: String {
        device.model ?? (device.source == .manual && device.probeFailure == nil ? tr("Added by address") : "")
    }
    public var host: String { device.host }
    public var port: Int { device.port }
    /// The receiver's status text, e.g. "Now playing Big Buck Bunny" (nil while the device's
    /// last probe failed: `problem` says that).
    public var statusText: String? { device.probeFailure == nil ? device.statusText : nil }
    /// Why the last probe of this device (added by address) found no usable Cast device.
    public var problem: DeviceProblem? {
        device.probeFailure.map { DeviceProblem($0, host: device.host, name: device.friendlyName) }
    }
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
    public init(
        id: String, friendlyName: String, model: String, host: String, port: Int,
        statusText: String? = nil, isGroup: Bool = false, isBusy: Bool = false, origin: Origin
    ) {
        let source: CastDevice.Source =
            switch origin {
            case .discovered: .discovered
            case .added: .manual
            case .demo: .local
            }
        self.init(
            CastDevice(
                id: id, friendlyName: friendlyName, model: model, host: host, port: port,
                statusText: statusText, isBusy: isBusy, source: source))
    }
}

/// A device that cannot be used now, as the window says it: a word or two in its row
/// (`state`), a sentence that says what to do (`sentence`, the Details heading and the Add
/// Device dialog's message) and the technical text (`detail`).
public struct DeviceProblem: Equatable, Sendable {
    public var kind: ProbeFailure.Kind
    public var state: String
    public var sentence: String
    public var detail: String

    /// - Parameters:
    ///   - host: the host name or address probed (a name that does not resolve is named).
    ///   - name: what the device is called in the list (its name, or HOST:PORT).
    public init(_ failure: ProbeFailure, host: String, name: String) {
        kind = failure.kind
        detail = failure.detail
        (state, sentence) =
            switch failure.kind {
            // TRANSLATORS: a device row's state: its host name resolves to no address.
            case .notFound: (tr("Not found"), AppModel.notFound(host))
            // TRANSLATORS: a device row's state: nothing answers at its address.
            case .notAnswering: (tr("Not answering"), AppModel.didNotAnswer(name))
            // TRANSLATORS: a device row's state: something answers at its address, but not a Cast device.
            case .notACastDevice: (tr("Not a Cast device"), AppModel.notACastDevice(name))
            // TRANSLATORS: a device row's state: it could not prove it is a genuine Cast device.
            case .notVerified: (tr("Not verified"), AppModel.notVerified(name))
            }
    }
}
