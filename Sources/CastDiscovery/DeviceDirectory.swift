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
        let address = try Self.parse(text)
        if let existing = manualShown[address.description] { return existing }
        let device = try remember(address, name: name, answer: nil)
        probeLater(address)
        return device
    }

    /// Adds `HOST[:PORT]` only if a Cast device answers there: the address is probed first and
    /// remembered only when the probe succeeds, so a mistyped name or an address where nothing
    /// answers leaves nothing behind (the probe's verdict is thrown as `.probeFailed`). The
    /// device is listed with what it said about itself. An address already listed is returned
    /// as it is, unprobed.
    @discardableResult
    public func addIfAnswering(address text: String, name: String? = nil) async throws(DiscoveryError) -> CastDevice {
        let address = try Self.parse(text)
        if let existing = manualShown[address.description] { return existing }
        if let problem = storeProblem { throw problem }
        let answer: ProbeResult
        do { answer = try await probe(address) } catch { throw .probeFailed(error) }
        // Whoever asked has gone (the dialog was cancelled): nothing is saved.
        if Task.isCancelled { throw .probeFailed(ProbeFailure(.notAnswering, detail: "the check was cancelled")) }
        // Added by another caller while the probe ran.
        if let existing = manualShown[address.description] { return existing }
        return try remember(address, name: name, answer: answer)
    }

    /// Forgets an added device (by its `HOST:PORT` id). Returns what `restore(_:)` needs to
    /// put it back, or nil when no added device has that id.
    @discardableResult
    public func forget(id: String) throws(DiscoveryError) -> ForgottenDevice? {
        guard let index = manual.firstIndex(where: { $0.address.description == id }) else { return nil }
        let entry = manual.remove(at: index)
        try store.save(manual)
        let shown = manualShown.removeValue(forKey: entry.address.description)
        if let shown { continuation.yield(.removed(shown)) }
        logger.debug("device forgotten", metadata: ["cast.device": "\(entry.address)"])
        return ForgottenDevice(entry: entry, position: index, shown: shown)
    }

    /// Undoes `forget(id:)`: the device is remembered again as it was (address, name, id, in
    /// its old place in the list) and shown as it was last shown. A device added again in the
    /// meantime is left as it is.
    @discardableResult
    public func restore(_ forgotten: ForgottenDevice) throws(DiscoveryError) -> CastDevice {
        let entry = forgotten.entry
        if let existing = manualShown[entry.address.description] { return existing }
        if let problem = storeProblem { throw problem }
        manual.insert(entry, at: min(max(0, forgotten.position), manual.count))
        try store.save(manual)
        logger.debug("device restored", metadata: ["cast.device": "\(entry.address)"])
        let was = forgotten.shown
        return show(entry, statusText: was?.statusText, model: was?.model, failure: was?.probeFailure)
    }

    // MARK: -

    private static func parse(_ text: String) throws(DiscoveryError) -> DeviceAddress {
        do { return try DeviceAddress(parsing: text) } catch { throw .invalidAddress(error) }
    }

    /// Remembers a new added device (saved at once) and lists it: with what a probe learned,
    /// or else with the name of a discovered device at the same address.
    private func remember(_ address: DeviceAddress, name: String?, answer: ProbeResult?) throws(DiscoveryError) -> CastDevice {
        if let problem = storeProblem { throw problem }
        var entry = ManualDevice(host: address.host, port: address.port, name: answer?.friendlyName ?? name, id: answer?.id)
        if let match = discovered.values.first(where: { $0.host == address.host && $0.port == address.port }) {
            entry.name = match.friendlyName
            entry.id = match.id
        }
        manual.append(entry)
        try store.save(manual)
        logger.debug("device added", metadata: ["cast.device": "\(address)"])
        return show(entry, statusText: answer?.statusText, model: answer?.model)
    }

    /// Asks the prober once, the way `probeLater` does, and sorts a failure into a kind.
    private func probe(_ address: DeviceAddress) async throws(ProbeFailure) -> ProbeResult {
        guard let prober else { return ProbeResult() }
        do { return try await prober.probe(address, timeout: probeTimeout) } catch { throw Self.failure(error) }
    }

    /// A prober's error as a `ProbeFailure`: its own verdict when it gives one, else "not answering".
    static func failure(_ error: any Error) -> ProbeFailure {
        (error as? ProbeFailure) ?? ProbeFailure(.notAnswering, detail: "\(error)")
    }

    @discardableResult
    private func show(
        _ entry: ManualDevice, statusText: String? = nil, model: String? = nil,
        failure: ProbeFailure? = nil
    ) -> CastDevice {
        var device = entry.device
        device.statusText = statusText
        device.model = model
        device.probeFailure = failure
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
            // The text stays for castctl discover; the window names the failure's kind instead.
            show(manual[index], statusText: "Not answering: \(error)", failure: Self.failure(error))
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
            manual[index].name == nil || manual[index].id == nil
        else { return }
        manual[index].name = device.friendlyName
        manual[index].id = device.id
        if storeProblem == nil { try? store.save(manual) }
        show(manual[index], statusText: device.statusText, model: device.model)
    }
}

/// An added device as `DeviceDirectory.forget(id:)` removed it: enough to put it back.
public struct ForgottenDevice: Sendable, Hashable {
    /// The remembered entry (address, name, id).
    public var entry: ManualDevice
    /// Its place among the added devices.
    public var position: Int
    /// The device as the list showed it (status, model, the last probe's verdict).
    public var shown: CastDevice?

    public init(entry: ManualDevice, position: Int, shown: CastDevice?) {
        self.entry = entry
        self.position = position
        self.shown = shown
    }
}
