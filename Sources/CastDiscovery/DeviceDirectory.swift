// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later

import CastCore
import Foundation
import Logging

/// The device list: discovered devices beside devices added by address.
///
/// Added devices are remembered in a `ManualDeviceStore`, shown at once (as `HOST:PORT`),
/// and probed through a `DeviceProber` for their status; a discovered device at the same
/// address lends them its name and id. When Avahi is not running, `events` says so once
/// (`.unavailable`) and added devices keep working.
public actor DeviceDirectory {
    /// Every change to the list, in order: discovered and added devices alike.
    public nonisolated let events: AsyncStream<DiscoveryEvent>
    private let continuation: AsyncStream<DiscoveryEvent>.Continuation
    private let store: ManualDeviceStore
    private let prober: (any DeviceProber)?
    private var browser: CastBrowser?
    private let probeTimeout: Duration
    private let logger: Logger

    private var discovered: [String: CastDevice] = [:]
    private var manual: [ManualDevice] = []
    private var manualShown: [String: CastDevice] = [:]  // keyed by DeviceAddress.description
    private var local: [CastDevice] = []
    private var forwarding: Task<Void, Never>?
    private var started = false

    /// Why browsing is impossible right now, if it is.
    public private(set) var unavailable: DiscoveryError?
    /// Why the remembered devices could not be loaded, if they could not (then nothing is saved).
    public private(set) var storeProblem: DiscoveryError?

    /// - Parameters:
    ///   - browser: the mDNS side; nil for added devices only.
    ///   - prober: checks added devices; nil to skip probing.
    ///   - logger: where adding, forgetting and probing are logged (debug level).
    public init(
        store: ManualDeviceStore = .standard(), prober: (any DeviceProber)? = nil,
        browser: CastBrowser? = CastBrowser(waitForDaemon: true), probeTimeout: Duration = .seconds(5),
        logger: Logger = Logger(label: "castdeck.discovery")
    ) {
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(of: DiscoveryEvent.self, bufferingPolicy: .unbounded)
        self.store = store
        self.prober = prober
        self.browser = browser
        self.probeTimeout = probeTimeout
    }

    /// Shows the remembered devices, probes them, and starts browsing.
    public func start() {
        guard !started else { return }
        started = true
        do {
            manual = try store.load()
        } catch {
            storeProblem = error
        }
        for entry in manual { show(entry) }
        for entry in manual { probeLater(entry.address) }
        if let browser { follow(browser) }
    }

    /// Starts browsing with `browser` when the directory was made without one (the window
    /// decides about mDNS after its device list exists). Ignored when one is already there.
    public func attach(browser: CastBrowser) {
        guard self.browser == nil else { return }
        self.browser = browser
        if started { follow(browser) }
    }

    private func follow(_ browser: CastBrowser) {
        browser.start()
        forwarding = Task { [weak self] in
            for await event in browser.events { await self?.handle(event) }
        }
    }

    /// Lists a device this process knows by itself (source `.local`, e.g. an in-process
    /// simulated receiver): not remembered and not probed. Showing it again updates it.
    public func showLocal(_ device: CastDevice) {
        if let i = local.firstIndex(where: { $0.id == device.id }) {
            guard local[i] != device else { return }
            local[i] = device
            continuation.yield(.updated(device))
        } else {
            local.append(device)
            continuation.yield(.added(device))
        }
    }

    /// Stops browsing and finishes `events`.
    public func stop() {
        browser?.stop()
        forwarding?.cancel()
        continuation.finish()
    }

    /// Everything in the list now: discovered devices first, then added ones.
    public var devices: [CastDevice] {
        discovered.values.sorted { $0.friendlyName.lowercased() < $1.friendlyName.lowercased() }
            + manual.compactMap { manualShown[$0.address.description] } + local
    }

    /// Adds `HOST[:PORT]` to the list, remembers it and probes it. Adding an address twice
    /// returns the device already there. `name` is shown until a probe or discovery says more.
    @discardableResult
    public func add(address text: String, name: String? = nil) throws(DiscoveryError) -> CastDevice {
        let address: DeviceAddress
        do { address = try DeviceAddress(parsing: text) } catch { throw .invalidAddress(error) }
        if let existing = manualShown[address.description] { return existing }
        if let problem = storeProblem { throw problem }
        var entry = ManualDevice(host: address.host, port: address.port, name: name)
        if let match = discovered.values.first(where: { $0.host == address.host && $0.port == address.port }) {
            entry.name = match.friendlyName
            entry.id = match.id
        }
        manual.append(entry)
        try store.save(manual)
        logger.debug("device added", metadata: ["cast.device": "\(address)"])
        let device = show(entry)
        probeLater(address)
        return device
    }

    /// Forgets an added device (by its `HOST:PORT` id).
    public func forget(id: String) throws(DiscoveryError) {
        guard let index = manual.firstIndex(where: { $0.address.description == id }) else { return }
        let entry = manual.remove(at: index)
        try store.save(manual)
        if let shown = manualShown.removeValue(forKey: entry.address.description) {
            continuation.yield(.removed(shown))
        }
    }

    // MARK: -

    @discardableResult
    private func show(_ entry: ManualDevice, statusText: String? = nil, model: String? = nil) -> CastDevice {
        var device = entry.device
        device.statusText = statusText
        device.model = model
        let key = entry.address.description
        let old = manualShown[key]
        manualShown[key] = device
        if old == nil {
            continuation.yield(.added(device))
        } else if old != device {
            continuation.yield(.updated(device))
        }
        return device
    }

    private func probeLater(_ address: DeviceAddress) {
        guard let prober else { return }
        let timeout = probeTimeout
        Task { [weak self] in
            let outcome: Result<ProbeResult, any Error>
            do {
                outcome = .success(try await prober.probe(address, timeout: timeout))
            } catch {
                outcome = .failure(error)
            }
            await self?.probed(address, outcome)
        }
    }

    private func probed(_ address: DeviceAddress, _ outcome: Result<ProbeResult, any Error>) {
        guard let index = manual.firstIndex(where: { $0.address == address }) else { return }
        switch outcome {
        case let .success(result):
            var entry = manual[index]
            entry.name = result.friendlyName ?? entry.name
            entry.id = result.id ?? entry.id
            if entry != manual[index] {
                manual[index] = entry
                try? store.save(manual)
            }
            show(entry, statusText: result.statusText, model: result.model)
        case let .failure(error):
            logger.debug("probe failed", metadata: ["cast.device": "\(address)", "reason": "\(error)"])
            show(manual[index], statusText: "Not answering: \(error)")
        }
    }

    private func handle(_ event: DiscoveryEvent) {
        switch event {
        case let .added(device), let .updated(device):
            discovered[device.id] = device
            adoptName(from: device)
        case let .removed(device):
            discovered[device.id] = nil
        case let .unavailable(error):
            unavailable = error
        case .browsing:
            unavailable = nil
        }
        continuation.yield(event)
    }

    /// An added device without a name takes the name of a discovered one at the same address.
    private func adoptName(from device: CastDevice) {
        guard let index = manual.firstIndex(where: { $0.host == device.host && $0.port == device.port }),
              manual[index].name == nil || manual[index].id == nil else { return }
        manual[index].name = device.friendlyName
        manual[index].id = device.id
        if storeProblem == nil { try? store.save(manual) }
        show(manual[index], statusText: device.statusText, model: device.model)
    }
}
