// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastDiscovery

extension AppModel {
    /// The devices to list: added by address first, then the others in the order they came.
    public var devices: [DeviceInfo] {
        (deviceList.filter { $0.source == .manual } + deviceList.filter { $0.source != .manual }).map(DeviceInfo.init)
    }

    /// Starts the device list: remembered devices (probed), discovery when the directory
    /// browses, and every later change.
    public func start() {
        guard directoryTask == nil else { return }
        let directory = directory
        directoryTask = Task { [weak self] in
            await directory.start()
            if let problem = await directory.storeProblem { self?.post("\(problem)") }
            for await event in directory.events {
                guard let self else { return }
                self.fold(event)
            }
        }
    }

    func fold(_ event: DiscoveryEvent) {
        switch event {
        case .browsing:
            discoveryState = .browsing
        case .unavailable(.avahiNotRunning):
            discoveryState = .avahiNotRunning
        case .unavailable(let error):
            discoveryState = .unavailable(reason: error.description)
        case .added(let d), .updated(let d):
            if discoveryState == .starting, d.source == .discovered { discoveryState = .browsing }
            if let i = deviceList.firstIndex(where: { $0.id == d.id }) { deviceList[i] = d } else { deviceList.append(d) }
        case .removed(let d):
            deviceList.removeAll { $0.id == d.id }
        }
    }

    /// Why `text` is not a device address (nil when it is one), in one translated sentence.
    public static func addressProblem(_ text: String) -> String? {
        do {
            _ = try DeviceAddress(parsing: text)
            return nil
        } catch {
            return tr("“{0}” is not an address. Enter a host name or IP address, optionally with :port.", text)
        }
    }

    /// Adds a device by "host", "host:port" or "[v6]:port": listed at once, then remembered
    /// and probed by the directory (so `castctl discover` lists it too). Returns it, or nil
    /// with a notice when the text is not an address.
    @discardableResult
    public func addDevice(address: String, name: String? = nil) -> DeviceInfo? {
        let parsed: DeviceAddress
        do { parsed = try DeviceAddress(parsing: address) } catch {
            post(tr("“{0}” is not an address. Enter a host name or IP address, optionally with :port.", address))
            return nil
        }
        if let existing = deviceList.first(where: { $0.host == parsed.host && $0.port == parsed.port }) {
            return DeviceInfo(existing)
        }
        let device = ManualDevice(host: parsed.host, port: parsed.port, name: name).device
        deviceList.append(device)
        let directory = directory
        Task { [weak self] in
            do { try await directory.add(address: parsed.description, name: name) } catch {
                self?.post("\(error)")
            }
        }
        return DeviceInfo(device)
    }

    /// Forgets a device added by address (removed from the list here and in `castctl discover`).
    public func forget(_ device: DeviceInfo) {
        guard device.origin == .added else { return }
        deviceList.removeAll { $0.id == device.id }
        let directory = directory
        Task { [weak self] in
            do { try await directory.forget(id: device.id) } catch { self?.post(tr("Could not forget {0}.", device.friendlyName), detail: "\(error)") }
        }
    }

    /// Lists a device this process runs itself (the demo receiver); it is not remembered.
    public func showDevice(_ device: DeviceInfo) {
        fold(.added(device.device))
        let directory = directory
        Task { await directory.showLocal(device.device) }
    }

    public var connectedDevice: DeviceInfo? {
        guard case .connected(let id) = connection else { return nil }
        return devices.first { $0.id == id }
    }

    public var isConnected: Bool { if case .connected = connection { true } else { false } }
}
