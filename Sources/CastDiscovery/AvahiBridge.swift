// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The only file in CastDiscovery with `Unmanaged` and `@convention(c)`.
//
// Pattern: one `AvahiCallbackBox` per connection holds Swift closures. It is
// retained once (`passRetained`) when the connection is made and handed to every Avahi object
// of that connection as `userdata`; the C trampolines below are non-capturing and only call
// `takeUnretainedValue()`. `AvahiConnection.close()` stops the poll thread, frees the client
// (which frees its browsers, resolvers and entry groups, so no callback can follow) and then
// releases the box: deterministic, exactly once.

import CAvahi
import CastCore
import Foundation

/// What a service browser reports, already converted to Swift values.
enum BrowseReport: Sendable {
    case new(ServiceInstanceKey, interface: Int32, protocol: Int32)
    case remove(ServiceInstanceKey)
    case allForNow
    case failure(code: Int32)
}

/// What a service resolver reports.
enum ResolveReport: Sendable {
    case found(ResolvedService)
    case failure(ServiceInstanceKey, code: Int32)
}

/// The Swift side of every Avahi callback of one connection. The closures run on Avahi's
/// poll thread with the poll lock held (or, for the first client state, inside
/// `avahi_client_new` on the connecting thread, before the poll thread exists).
final class AvahiCallbackBox: @unchecked Sendable {
    var clientState: (_ client: OpaquePointer, _ state: AvahiClientState) -> Void = { _, _ in }
    var browse: (_ report: BrowseReport) -> Void = { _ in }
    var resolve: (_ resolver: OpaquePointer, _ report: ResolveReport) -> Void = { _, _ in }
    var group: (_ group: OpaquePointer, _ state: AvahiEntryGroupState) -> Void = { _, _ in }
}

/// A NUL-terminated C buffer as a String.
func stringFromCBuffer(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The avahi-client functions, opened on first use by `AvahiConnection.init` (CAvahi.h says
/// why the library is not linked). Everything below runs only once a connection exists.
var avahi: CastdeckAvahi {
    precondition(castdeck_avahi_load() != 0, "Avahi was used before AvahiConnection loaded it")
    return castdeck_avahi().pointee
}

/// Avahi's own text for an error number.
func avahiErrorText(_ code: Int32) -> String {
    guard castdeck_avahi_load() != 0 else { return "Avahi error \(code)" }
    return avahi.strerror(code).map { String(cString: $0) } ?? "Avahi error \(code)"
}

/// A threaded poll plus one avahi-client on it.
final class AvahiConnection: @unchecked Sendable {
    let box: AvahiCallbackBox
    private let retained: Unmanaged<AvahiCallbackBox>
    private let poll: OpaquePointer
    private let client: OpaquePointer
    private let lock = NSLock()
    private var closed = false
    private var pollThreadStarted = false

    /// Connects to avahi-daemon over the system bus. With `waitForDaemon` the client does not
    /// fail when the daemon is absent: it reports `AVAHI_CLIENT_CONNECTING` and goes on when the
    /// daemon appears (and again after a daemon restart). Without a system bus it always fails.
    init(box: AvahiCallbackBox, waitForDaemon: Bool) throws(DiscoveryError) {
        guard castdeck_avahi_load() != 0 else {
            throw .avahiLibraryMissing(detail: String(cString: castdeck_avahi_load_error()))
        }
        guard let poll = avahi.threaded_poll_new() else {
            throw .avahiFailure(operation: "create its event loop", code: Int32(AVAHI_ERR_NO_MEMORY), message: avahiErrorText(Int32(AVAHI_ERR_NO_MEMORY)))
        }
        self.box = box
        self.poll = poll
        retained = Unmanaged.passRetained(box)
        var error: Int32 = 0
        let flags = waitForDaemon ? AVAHI_CLIENT_NO_FAIL : AvahiClientFlags(0)
        guard
            let client = avahi.client_new(
                avahi.threaded_poll_get(poll), flags,
                { client, state, userdata in
                    guard let client, let userdata else { return }
                    Unmanaged<AvahiCallbackBox>.fromOpaque(userdata).takeUnretainedValue().clientState(client, state)
                }, retained.toOpaque(), &error)
        else {
            avahi.threaded_poll_free(poll)
            retained.release()
            throw .avahiNotRunning(detail: avahiErrorText(error))
        }
        self.client = client
    }

    /// Starts the poll thread: from now on callbacks arrive there.
    func start() throws(DiscoveryError) {
        let rc = avahi.threaded_poll_start(poll)
        guard rc >= 0 else { throw .avahiFailure(operation: "start its event loop", code: rc, message: avahiErrorText(rc)) }
        lock.withLock { pollThreadStarted = true }
    }

    var clientState: AvahiClientState { avahi.client_get_state(client) }
    var lastError: Int32 { avahi.client_errno(client) }

    /// Runs `body` with the poll lock held, so Avahi objects can be used from any thread
    /// other than the poll thread. Never call it from inside a callback.
    func locked<T>(_ body: () throws -> T) rethrows -> T? {
        let started: Bool = lock.withLock { closed ? false : pollThreadStarted }
        if lock.withLock({ closed }) { return nil }
        if started { avahi.threaded_poll_lock(poll) }
        defer { if started { avahi.threaded_poll_unlock(poll) } }
        return try body()
    }

    /// Stops the poll thread, frees every Avahi object of this connection and releases the
    /// callback box. Idempotent. Must not run on the poll thread.
    func close() {
        let (wasClosed, started): (Bool, Bool) = lock.withLock {
            defer { closed = true }
            return (closed, pollThreadStarted)
        }
        guard !wasClosed else { return }
        if started { _ = avahi.threaded_poll_stop(poll) }
        avahi.client_free(client)
        avahi.threaded_poll_free(poll)
        retained.release()
    }

    // MARK: Browsing

    /// A browser for `type` on one interface (its index) or on every interface (nil), IPv4 and IPv6.
    static func newServiceBrowser(client: OpaquePointer, type: String, interface: Int32?, box: AvahiCallbackBox) -> OpaquePointer? {
        avahi.service_browser_new(
            client, interface ?? castdeck_avahi_if_unspec(), castdeck_avahi_proto_unspec(), type, nil, AvahiLookupFlags(0),
            { _, interface, proto, event, name, type, domain, _, userdata in
                guard let userdata else { return }
                let box = Unmanaged<AvahiCallbackBox>.fromOpaque(userdata).takeUnretainedValue()
                switch event {
                case AVAHI_BROWSER_NEW, AVAHI_BROWSER_REMOVE:
                    guard let name, let type, let domain else { return }
                    let key = ServiceInstanceKey(
                        interface: interface, ipFamily: proto == castdeck_avahi_proto_inet6() ? .ipv6 : .ipv4,
                        name: String(cString: name), type: String(cString: type), domain: String(cString: domain))
                    box.browse(event == AVAHI_BROWSER_NEW ? .new(key, interface: interface, protocol: proto) : .remove(key))
                case AVAHI_BROWSER_ALL_FOR_NOW:
                    box.browse(.allForNow)
                case AVAHI_BROWSER_FAILURE:
                    box.browse(.failure(code: Int32(AVAHI_ERR_FAILURE)))
                default:
                    break  // CACHE_EXHAUSTED: nothing to do
                }
            }, Unmanaged.passUnretained(box).toOpaque())  // owner: the connection's retained box
    }

    /// A resolver that stays alive after the first answer, so TXT changes arrive as new answers.
    static func newServiceResolver(
        client: OpaquePointer, key: ServiceInstanceKey, interface: Int32, protocol proto: Int32, box: AvahiCallbackBox
    ) -> OpaquePointer? {
        avahi.service_resolver_new(
            client, interface, proto, key.name, key.type, key.domain, castdeck_avahi_proto_unspec(), AvahiLookupFlags(0),
            { resolver, interface, proto, event, name, type, domain, hostName, address, port, txt, _, userdata in
                guard let resolver, let userdata, let name, let type, let domain else { return }
                let box = Unmanaged<AvahiCallbackBox>.fromOpaque(userdata).takeUnretainedValue()
                let key = ServiceInstanceKey(
                    interface: interface, ipFamily: proto == castdeck_avahi_proto_inet6() ? .ipv6 : .ipv4,
                    name: String(cString: name), type: String(cString: type), domain: String(cString: domain))
                guard event == AVAHI_RESOLVER_FOUND, let address else {
                    box.resolve(resolver, .failure(key, code: avahi.client_errno(avahi.service_resolver_get_client(resolver))))
                    return
                }
                var buffer = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX) + 1)
                _ = avahi.address_snprint(&buffer, buffer.count, address)
                var text = stringFromCBuffer(buffer)
                let isIPv6 = address.pointee.proto == castdeck_avahi_proto_inet6()
                if isIPv6, text.lowercased().hasPrefix("fe80:") {
                    var ifname = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
                    if if_indextoname(UInt32(bitPattern: interface), &ifname) != nil {
                        text += "%" + stringFromCBuffer(ifname)
                    }
                }
                var entries: [[UInt8]] = []
                var node = txt
                while let current = node {
                    if let bytes = avahi.string_list_get_text(current) {
                        entries.append(Array(UnsafeBufferPointer(start: bytes, count: avahi.string_list_get_size(current))))
                    }
                    node = avahi.string_list_get_next(current)
                }
                entries.reverse()  // Avahi keeps TXT strings in reverse order; restore the wire order
                let service = ResolvedService(
                    key: key, hostName: hostName.map { String(cString: $0) } ?? "", address: text,
                    addressIsIPv6: isIPv6, port: Int(port), txt: TXTRecord.parse(entries))
                box.resolve(resolver, .found(service))
            }, Unmanaged.passUnretained(box).toOpaque())  // owner: the connection's retained box
    }

    // MARK: Publishing

    static func newEntryGroup(client: OpaquePointer, box: AvahiCallbackBox) -> OpaquePointer? {
        avahi.entry_group_new(
            client,
            { group, state, userdata in
                guard let group, let userdata else { return }
                Unmanaged<AvahiCallbackBox>.fromOpaque(userdata).takeUnretainedValue().group(group, state)
            }, Unmanaged.passUnretained(box).toOpaque())  // owner: the connection's retained box
    }

    var rawClient: OpaquePointer { client }
}

/// Builds an AvahiStringList from TXT entries (`key=value`), calls `body`, frees the list.
func withAvahiStringList<T>(_ entries: [String], _ body: (UnsafeMutablePointer<AvahiStringList>?) -> T) -> T {
    var list: UnsafeMutablePointer<AvahiStringList>? = nil
    // avahi_string_list_add prepends; add in reverse so the published order is the given one.
    for entry in entries.reversed() {
        let bytes = Array(entry.utf8)
        list = bytes.withUnsafeBufferPointer { avahi.string_list_add_arbitrary(list, $0.baseAddress, $0.count) }
    }
    defer { avahi.string_list_free(list) }
    return body(list)
}

/// Avahi's "next name after a collision": "Name" → "Name #2" → "Name #3".
func avahiAlternativeServiceName(_ name: String) -> String {
    guard let alt = avahi.alternative_service_name(name) else { return name + " #2" }
    defer { avahi.free(alt) }
    return String(cString: alt)
}
