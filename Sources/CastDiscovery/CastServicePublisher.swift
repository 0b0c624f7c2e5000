// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later

import CAvahi
import CastCore
import Foundation

/// The TXT record and SRV port of a Cast receiver, as real devices publish them
/// (docs/protocol.md §16).
public struct CastServiceRecord: Sendable, Equatable {
    /// 32 lower-case hex digits (pychromecast drops devices whose id is not a UUID).
    public var id: String
    public var friendlyName: String
    public var model: String
    public var port: Int
    public var capabilities: CastCapabilities
    public var statusText: String
    public var isBusy: Bool
    public var iconPath: String
    /// `cd`: 32 upper-case hex digits on real devices; meaning undocumented.
    public var cd: String
    /// `rm`: often empty.
    public var rm: String
    /// `bs`: 12 hex digits, looks like a MAC.
    public var bs: String
    public var nf: String
    public var version: String
    /// The DNS-SD instance name; by default `<model>-<id>` as devices do (model ≤ 20 bytes, spaces → `-`).
    public var serviceName: String

    public init(
        id: String = CastServiceRecord.randomHex(32).lowercased(), friendlyName: String, model: String = "Chromecast",
        port: Int = CastDevice.defaultPort, capabilities: CastCapabilities = CastCapabilities(rawValue: 4101),
        statusText: String = "", isBusy: Bool = false, iconPath: String = "/setup/icon.png",
        cd: String = CastServiceRecord.randomHex(32), rm: String = "", bs: String = CastServiceRecord.randomHex(12),
        nf: String = "1", version: String = "05", serviceName: String? = nil
    ) {
        self.id = id
        self.friendlyName = friendlyName
        self.model = model
        self.port = port
        self.capabilities = capabilities
        self.statusText = statusText
        self.isBusy = isBusy
        self.iconPath = iconPath
        self.cd = cd
        self.rm = rm
        self.bs = bs
        self.nf = nf
        self.version = version
        let prefix = String(decoding: Array(model.replacingOccurrences(of: " ", with: "-").utf8.prefix(20)), as: UTF8.self)
        self.serviceName = serviceName ?? "\(prefix)-\(id.replacingOccurrences(of: "-", with: ""))"
    }

    /// The TXT strings in the order devices use.
    public var txtEntries: [String] {
        [
            "id=\(id)", "cd=\(cd)", "rm=\(rm)", "ve=\(version)", "md=\(model)", "ic=\(iconPath)",
            "fn=\(friendlyName)", "ca=\(capabilities.rawValue)", "st=\(isBusy ? 1 : 0)", "bs=\(bs)",
            "nf=\(nf)", "rs=\(statusText)",
        ]
    }

    /// Checks what Avahi would reject or what Cast senders would drop.
    public func validate() throws(DiscoveryError) {
        guard TXTRecord.normalizedID(id) != nil else { throw .invalidService("id \"\(id)\" is not 32 hex digits") }
        guard (1...65535).contains(port) else { throw .invalidService("port \(port) is out of range") }
        guard !serviceName.isEmpty, serviceName.utf8.count <= 63 else {
            throw .invalidService("the service name must be 1 to 63 bytes long")
        }
        for entry in txtEntries where entry.utf8.count > 255 {
            throw .invalidService("the TXT entry \"\(entry.prefix(20))...\" is longer than 255 bytes")
        }
    }

    /// `count` random upper-case hex digits.
    public static func randomHex(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in "0123456789ABCDEF".randomElement(using: &generator)! })
    }
}

/// Publishes a Cast receiver's `_googlecast._tcp` service through avahi-daemon (used by the
/// simulator: `castctl receiver --announce`). A name taken by another host is renamed the
/// usual way ("Name #2"); the service is withdrawn by `withdraw()` (and by avahi-daemon itself
/// when the process ends, since its D-Bus connection closes).
public final class CastServicePublisher: Sendable {
    private let core: PublisherCore

    public init(record: CastServiceRecord, serviceType: String = CastBrowser.castServiceType) {
        core = PublisherCore(record: record, serviceType: serviceType)
    }

    /// Publishes and waits until avahi-daemon has established the service (after a rename,
    /// if there was a collision). Returns the name in use.
    public func publish(timeout: Duration = .seconds(10)) async throws(DiscoveryError) -> String {
        try core.record.validate()
        let result: Result<String, DiscoveryError> = await withCheckedContinuation { continuation in
            core.begin { continuation.resume(returning: $0) }
            Thread.detachNewThread { [core] in core.connect() }
            Task { [core] in
                try? await Task.sleep(for: timeout)
                core.finishWaiting(
                    .failure(
                        .avahiFailure(
                            operation: "publish \"\(core.record.serviceName)\" within \(timeout)", code: Int32(AVAHI_ERR_TIMEOUT),
                            message: avahiErrorText(Int32(AVAHI_ERR_TIMEOUT)))))
            }
        }
        if case .failure = result { withdraw() }
        return try result.get()
    }

    /// The instance name currently published (changes after a collision).
    public var serviceName: String { core.currentName }

    /// Changes the status text (`rs`) and busy flag (`st`) in place, as devices do when an app
    /// starts or media plays.
    public func update(statusText: String, isBusy: Bool) throws(DiscoveryError) {
        try core.updateTXT { record in
            record.statusText = statusText
            record.isBusy = isBusy
        }
    }

    /// Withdraws the service and closes the Avahi connection. Idempotent.
    public func withdraw() { core.close() }

    deinit { core.close() }
}

final class PublisherCore: @unchecked Sendable {
    private let lock = NSLock()
    private var _record: CastServiceRecord
    private let serviceType: String
    private var connection: AvahiConnection?
    private var closed = false
    private var waiter: ((Result<String, DiscoveryError>) -> Void)?
    // Poll-thread state (also read under `lock`).
    private var group: OpaquePointer?
    private var name: String
    private weak var box: AvahiCallbackBox?

    init(record: CastServiceRecord, serviceType: String) {
        _record = record
        name = record.serviceName
        self.serviceType = serviceType
    }

    var record: CastServiceRecord { lock.withLock { _record } }
    var currentName: String { lock.withLock { name } }

    func begin(_ waiter: @escaping (Result<String, DiscoveryError>) -> Void) {
        lock.withLock { self.waiter = waiter }
    }

    func finishWaiting(_ result: Result<String, DiscoveryError>) {
        let waiter: ((Result<String, DiscoveryError>) -> Void)? = lock.withLock {
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?(result)
    }

    func connect() {
        let box = AvahiCallbackBox()
        box.clientState = { [unowned self, unowned box] client, state in clientStateChanged(client, state, box) }
        box.group = { [unowned self] group, state in groupStateChanged(group, state) }
        self.box = box
        do {
            let connection = try AvahiConnection(box: box, waitForDaemon: false)
            let keep = lock.withLock { () -> Bool in
                if closed { return false }
                self.connection = connection
                return true
            }
            guard keep else {
                connection.close()
                return
            }
            try connection.start()
        } catch {
            finishWaiting(.failure(error))
        }
    }

    func close() {
        let connection: AvahiConnection? = lock.withLock {
            closed = true
            defer { self.connection = nil }
            return self.connection
        }
        // Freeing the client frees the entry group, which withdraws the service (goodbye packets).
        connection?.close()
        finishWaiting(.failure(.invalidService("it was withdrawn before it was established")))
    }

    func updateTXT(_ change: (inout CastServiceRecord) -> Void) throws(DiscoveryError) {
        let (entries, connection): ([String], AvahiConnection?) = lock.withLock {
            change(&_record)
            return (_record.txtEntries, self.connection)
        }
        guard let connection else { return }  // not published yet: the next registration uses it
        let rc: Int32? = connection.locked {
            guard let group = lock.withLock({ self.group }) else { return 0 }
            let name = currentName
            return withAvahiStringList(entries) { list in
                avahi.entry_group_update_service_txt_strlst(
                    group, castdeck_avahi_if_unspec(), castdeck_avahi_proto_unspec(), AvahiPublishFlags(0),
                    name, serviceType, nil, list)
            }
        }
        if let rc, rc < 0 {
            throw .avahiFailure(operation: "update the TXT record", code: rc, message: avahiErrorText(rc))
        }
    }

    // MARK: Poll thread

    private func clientStateChanged(_ client: OpaquePointer, _ state: AvahiClientState, _ box: AvahiCallbackBox) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            register(client: client, box: box)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host name changes: take the service down until the client runs again.
            if let group = lock.withLock({ self.group }) { _ = avahi.entry_group_reset(group) }
        case AVAHI_CLIENT_FAILURE, AVAHI_CLIENT_CONNECTING:
            let code = avahi.client_errno(client)
            finishWaiting(.failure(.avahiNotRunning(detail: avahiErrorText(code))))
        default:
            break
        }
    }

    private func register(client: OpaquePointer, box: AvahiCallbackBox) {
        var group = lock.withLock { self.group }
        if group == nil {
            group = AvahiConnection.newEntryGroup(client: client, box: box)
            lock.withLock { self.group = group }
        }
        guard let group else {
            let code = avahi.client_errno(client)
            finishWaiting(.failure(.avahiFailure(operation: "create an entry group", code: code, message: avahiErrorText(code))))
            return
        }
        guard avahi.entry_group_is_empty(group) != 0 else { return }
        let (record, name) = lock.withLock { (_record, self.name) }
        let rc = withAvahiStringList(record.txtEntries) { list in
            avahi.entry_group_add_service_strlst(
                group, castdeck_avahi_if_unspec(), castdeck_avahi_proto_unspec(), AvahiPublishFlags(0),
                name, serviceType, nil, nil, UInt16(record.port), list)
        }
        if rc == Int32(AVAHI_ERR_COLLISION) {
            renameAfterCollision(client: client, box: box)
            return
        }
        let committed = rc < 0 ? rc : avahi.entry_group_commit(group)
        if committed < 0 {
            finishWaiting(.failure(.avahiFailure(operation: "publish \"\(name)\"", code: committed, message: avahiErrorText(committed))))
        }
    }

    private func renameAfterCollision(client: OpaquePointer, box: AvahiCallbackBox) {
        lock.withLock { name = avahiAlternativeServiceName(name) }
        if let group = lock.withLock({ self.group }) { _ = avahi.entry_group_reset(group) }
        register(client: client, box: box)
    }

    private func groupStateChanged(_ group: OpaquePointer, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            finishWaiting(.success(currentName))
        case AVAHI_ENTRY_GROUP_COLLISION:
            let client = avahi.entry_group_get_client(group)!
            lock.withLock { name = avahiAlternativeServiceName(name) }
            _ = avahi.entry_group_reset(group)
            if let box { register(client: client, box: box) }
        case AVAHI_ENTRY_GROUP_FAILURE:
            let code = avahi.client_errno(avahi.entry_group_get_client(group))
            finishWaiting(.failure(.avahiFailure(operation: "publish \"\(currentName)\"", code: code, message: avahiErrorText(code))))
        default:
            break
        }
    }
}
