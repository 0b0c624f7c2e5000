// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later

import CAvahi
import CastCore
import Foundation
import Logging

/// Browses `_googlecast._tcp` through avahi-daemon and reports devices as they come, change
/// and go.
///
/// ```
/// avahi-daemon ──D-Bus──▶ AvahiConnection (threaded poll)
///                           ├─ service browser (every interface, or the one asked for; IPv4 + IPv6)
///                           └─ one resolver per instance, kept alive for TXT changes
///                                 ▼
///                          DeviceRegistry (one device per TXT id)
///                                 ▼
///                          events: AsyncStream<DiscoveryEvent>
/// ```
///
/// Never throws and never blocks the caller: when Avahi is unreachable the stream says so
/// with `.unavailable(.avahiNotRunning)` and, if `waitForDaemon` is set, starts browsing when
/// the daemon appears.
public final class CastBrowser: Sendable {
    /// The DNS-SD service type of Cast receivers and groups.
    public static let castServiceType = "_googlecast._tcp"

    /// Added/updated/removed devices, plus `.browsing` / `.unavailable` states. Finishes on `stop()`.
    public let events: AsyncStream<DiscoveryEvent>

    private let core: BrowserCore

    /// - Parameters:
    ///   - serviceType: the DNS-SD type to browse (tests may use another).
    ///   - waitForDaemon: keep waiting for avahi-daemon when it is not running (the window
    ///     wants this; `castctl discover` does not).
    ///   - interface: browse on this network interface only (e.g. "wlan0", to leave out a VPN
    ///     or a Docker bridge); nil or empty: on every interface. An interface this computer
    ///     does not have is reported as `.unavailable(.noSuchInterface)`.
    ///   - logger: every event is logged here at debug level.
    public init(
        serviceType: String = CastBrowser.castServiceType, waitForDaemon: Bool = false, interface: String? = nil,
        logger: Logger = Logger(label: "castdeck.discovery")
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: DiscoveryEvent.self, bufferingPolicy: .unbounded)
        events = stream
        core = BrowserCore(
            serviceType: serviceType, waitForDaemon: waitForDaemon, interface: interface?.isEmpty == false ? interface : nil,
            continuation: continuation, logger: logger)
        continuation.onTermination = { [core] _ in
            // The consumer went away: close on another thread, since this may run on the poll thread.
            Thread.detachNewThread { core.stop() }
        }
    }

    /// Connects to Avahi and starts browsing on a thread of its own; returns at once.
    public func start() {
        Thread.detachNewThread { [core] in core.connect() }
    }

    /// Stops browsing, frees every Avahi object and finishes `events`. Idempotent.
    public func stop() { core.stop() }

    deinit { core.stop() }

    /// Browses for up to `timeout` and returns what was found, plus the reason browsing
    /// was impossible, if it was.
    public static func snapshot(
        timeout: Duration, serviceType: String = CastBrowser.castServiceType, interface: String? = nil
    ) async -> (devices: [CastDevice], unavailable: DiscoveryError?) {
        let browser = CastBrowser(serviceType: serviceType, interface: interface)
        browser.start()
        var registry: [String: CastDevice] = [:]
        var failure: DiscoveryError?
        let deadline = Task {
            try? await Task.sleep(for: timeout)
            browser.stop()
        }
        for await event in browser.events {
            switch event {
            case let .added(d), let .updated(d): registry[d.id] = d
            case let .removed(d): registry[d.id] = nil
            case let .unavailable(error):
                failure = error
                browser.stop()
            case .browsing: break
            }
        }
        deadline.cancel()
        return (registry.values.sorted { $0.friendlyName.lowercased() < $1.friendlyName.lowercased() }, failure)
    }
}

/// The browser's state. Everything below `lock` is touched only on Avahi's poll thread
/// (callbacks) or before the poll thread starts; `lock` guards the lifecycle fields.
final class BrowserCore: @unchecked Sendable {
    private let serviceType: String
    private let waitForDaemon: Bool
    /// The interface to browse on (its name), nil for all; its index once browsing starts.
    private let interface: String?
    private var interfaceIndex: Int32?
    private let continuation: AsyncStream<DiscoveryEvent>.Continuation
    private let logger: Logger
    private let lock = NSLock()
    private var connection: AvahiConnection?
    private var stopped = false

    // Poll-thread state.
    private var browser: OpaquePointer?
    private var resolvers: [ServiceInstanceKey: OpaquePointer] = [:]
    private var registry = DeviceRegistry()
    private var reportedUnavailable = false

    init(
        serviceType: String, waitForDaemon: Bool, interface: String?, continuation: AsyncStream<DiscoveryEvent>.Continuation, logger: Logger
    ) {
        self.serviceType = serviceType
        self.waitForDaemon = waitForDaemon
        self.interface = interface
        self.continuation = continuation
        self.logger = logger
    }

    private func emit(_ event: DiscoveryEvent) {
        logger.debug("discovery event", metadata: ["cast.event": "\(event)"])
        continuation.yield(event)
    }

    func connect() {
        if lock.withLock({ stopped }) { return }
        if let interface {
            // Looked up when browsing starts: a VPN's interface may come and go.
            let index = if_nametoindex(interface)
            guard index != 0 else {
                emit(.unavailable(.noSuchInterface(interface, available: Self.interfaceNames())))
                return
            }
            interfaceIndex = Int32(bitPattern: index)
        }
        let box = AvahiCallbackBox()
        box.clientState = { [unowned self, unowned box] client, state in clientStateChanged(client, state, box) }
        box.browse = { [unowned self, unowned box] report in browsed(report, box) }
        box.resolve = { [unowned self] resolver, report in resolved(resolver, report) }
        let connection: AvahiConnection
        do {
            connection = try AvahiConnection(box: box, waitForDaemon: waitForDaemon)
            try connection.start()
        } catch {
            emit(.unavailable(error))
            return
        }
        let keep = lock.withLock { () -> Bool in
            if stopped { return false }
            self.connection = connection
            return true
        }
        if !keep { connection.close() }
    }

    func stop() {
        let connection: AvahiConnection? = lock.withLock {
            stopped = true
            defer { self.connection = nil }
            return self.connection
        }
        connection?.close()  // after this no callback runs, so the poll-thread state is ours
        continuation.finish()
    }

    // MARK: Poll thread

    private func clientStateChanged(_ client: OpaquePointer, _ state: AvahiClientState, _ box: AvahiCallbackBox) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            guard browser == nil else { return }
            browser = AvahiConnection.newServiceBrowser(client: client, type: serviceType, interface: interfaceIndex, box: box)
            if browser == nil {
                let code = avahi.client_errno(client)
                emit(.unavailable(.avahiFailure(operation: "browse \(serviceType)", code: code, message: avahiErrorText(code))))
            } else {
                reportedUnavailable = false
                emit(.browsing)
            }
        case AVAHI_CLIENT_CONNECTING, AVAHI_CLIENT_FAILURE:
            // The daemon is gone (or never was): every browser and resolver is dead.
            dropBrowsing()
            if !reportedUnavailable {
                reportedUnavailable = true
                let code = avahi.client_errno(client)
                emit(.unavailable(.avahiNotRunning(detail: avahiErrorText(code))))
            }
        default:
            break  // S_REGISTERING / S_COLLISION concern publishers only
        }
    }

    private func dropBrowsing() {
        for resolver in resolvers.values { _ = avahi.service_resolver_free(resolver) }
        resolvers = [:]
        if let browser { _ = avahi.service_browser_free(browser) }
        browser = nil
        for event in registry.removeAll() { emit(event) }
    }

    private func browsed(_ report: BrowseReport, _ box: AvahiCallbackBox) {
        switch report {
        case let .new(key, interface, proto):
            guard resolvers[key] == nil, let browser else { return }
            let client = avahi.service_browser_get_client(browser)!
            if let resolver = AvahiConnection.newServiceResolver(client: client, key: key, interface: interface, protocol: proto, box: box) {
                resolvers[key] = resolver
            }
        case let .remove(key):
            if let resolver = resolvers.removeValue(forKey: key) { _ = avahi.service_resolver_free(resolver) }
            for event in registry.removed(key) { emit(event) }
        case .allForNow:
            break
        case let .failure(code):
            emit(.unavailable(.avahiFailure(operation: "browse \(serviceType)", code: code, message: avahiErrorText(code))))
        }
    }

    private func resolved(_ resolver: OpaquePointer, _ report: ResolveReport) {
        switch report {
        case let .found(service):
            for event in registry.resolved(service) { emit(event) }
        case let .failure(key, _):
            // Not answering (timeout) or gone: drop this instance; the browser reports it
            // again if it comes back.
            if resolvers[key] == resolver {
                resolvers[key] = nil
                _ = avahi.service_resolver_free(resolver)
            }
            for event in registry.removed(key) { emit(event) }
        }
    }
}

extension BrowserCore {
    /// The names of this computer's network interfaces, in the kernel's order.
    static func interfaceNames() -> [String] {
        guard let list = if_nameindex() else { return [] }
        defer { if_freenameindex(list) }
        var names: [String] = []
        var entry = list
        while entry.pointee.if_index != 0, let name = entry.pointee.if_name {
            names.append(String(cString: name))
            entry += 1
        }
        return names
    }
}
