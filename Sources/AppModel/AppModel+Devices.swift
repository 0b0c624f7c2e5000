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

    /// The one writer of `deviceList`: a fold of the directory's events. The model folds the
    /// same events itself where it must not wait for the directory (a device added by address
    /// is listed at once; Undo puts a forgotten device back `at` the place it had).
    func fold(_ event: DiscoveryEvent, at position: Int? = nil) {
        switch event {
        case .browsing:
            discoveryState = .browsing
        case .unavailable(.avahiNotRunning):
            discoveryState = .avahiNotRunning
        case .unavailable(.noSuchInterface(let name, let available)):
            // GSettings discovery-interface names an interface that is not there (a VPN's, gone).
            discoveryState = .unavailable(
                reason: tr(
                    "CastDeck looks for devices only on the network interface “{0}”, which this computer does not have now (it has {1}). Empty the setting discovery-interface to look on all of them.",
                    name, Localization.joinParts(available)))
        case .unavailable(let error):
            discoveryState = .unavailable(reason: error.description)
        case .added(let d), .updated(let d):
            if discoveryState == .starting, d.source == .discovered { discoveryState = .browsing }
            if let position {
                deviceList.removeAll { $0.id == d.id }
                deviceList.insert(d, at: min(position, deviceList.count))
            } else if let i = deviceList.firstIndex(where: { $0.id == d.id }) {
                deviceList[i] = d
            } else {
                deviceList.append(d)
            }
            askGroupForMembers(d)  // AppModel+Group.swift
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
        fold(.added(device))
        let directory = directory
        Task { [weak self] in
            do { try await directory.add(address: parsed.description, name: name) } catch {
                self?.post("\(error)")
            }
        }
        return DeviceInfo(device)
    }

    /// What adding a device by address came to (`addDeviceIfAnswering`).
    public enum AddOutcome: Equatable, Sendable {
        /// A Cast device answered: it is listed and remembered.
        case added(DeviceInfo)
        /// No usable Cast device answered, or the text is not an address: nothing was
        /// remembered. `sentence` says why and what to do; `detail` is the technical text.
        case failed(sentence: String, detail: String?)
    }

    /// Adds a device by "host", "host:port" or "[v6]:port" only once a Cast device answers
    /// there (the Add Device dialog): an unknown name or an address where nothing answers is
    /// told apart and nothing is remembered. `addDevice(address:)` adds without asking.
    public func addDeviceIfAnswering(address: String) async -> AddOutcome {
        let text = address.trimmingWhitespace()
        do {
            let device = try await directory.addIfAnswering(address: text)
            fold(.added(device))
            return .added(DeviceInfo(device))
        } catch .probeFailed(let failure) {
            let parsed = try? DeviceAddress(parsing: text)
            let problem = DeviceProblem(failure, host: parsed?.host ?? text, name: parsed?.description ?? text)
            return .failed(sentence: problem.sentence, detail: problem.detail)
        } catch .invalidAddress {
            return .failed(sentence: tr("“{0}” is not an address. Enter a host name or IP address, optionally with :port.", text), detail: nil)
        } catch {
            return .failed(sentence: "\(error)", detail: nil)
        }
    }

    /// Forgets a device added by address (removed from the list here and in `castctl discover`),
    /// then says so in a notice whose Undo brings it back as it was.
    public func forget(_ device: DeviceInfo) {
        guard device.origin == .added else { return }
        let position = deviceList.firstIndex { $0.id == device.id }
        if let position { fold(.removed(deviceList[position])) }
        let directory = directory
        Task { [weak self] in
            do {
                guard let forgotten = try await directory.forget(id: device.id) else { return }
                self?.post(
                    tr("Forgot “{0}”", Localization.isolatedAddress(device.friendlyName)),
                    undo: .forget(forgotten, position: position))
            } catch {
                self?.post(tr("Could not forget {0}.", device.friendlyName), detail: "\(error)")
            }
        }
    }

    /// Takes back what a notice offered to undo: a forgotten device is remembered and listed
    /// again where it was.
    public func undo(_ action: Notice.Undo) async {
        switch action {
        case .forget(let forgotten, let position):
            do {
                let device = try await directory.restore(forgotten)
                // The directory's own event may have listed it already, at the end.
                fold(.added(device), at: position ?? deviceList.count)
            } catch {
                fail(error)
            }
        }
    }

    /// What a device row's Details show: the sentence for its problem, the technical text, and
    /// Try Again. Nil when nothing is known against the device.
    public func details(of device: DeviceInfo) -> Notice? {
        guard let problem = device.problem else { return nil }
        return Notice(serial: 0, text: problem.sentence, detail: problem.detail, retryDeviceID: device.id)
    }

    /// Searching the network is turned off (CASTDECK_NO_DISCOVERY): the window says so instead
    /// of "Searching…". Devices added by address still work.
    public func discoveryIsOff() { discoveryState = .off }

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
