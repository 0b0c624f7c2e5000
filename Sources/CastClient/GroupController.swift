// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import CastProtocol
import NIOCore

/// The multizone namespace's controller: the speaker group the leader (`receiver-0` of a
/// group's address) describes, kept as one `CastGroup?` value. MULTIZONE_STATUS sets it,
/// DEVICE_ADDED / DEVICE_UPDATED / DEVICE_REMOVED change it (`CastGroup.applying`).
///
/// It lives on the session's event loop like the session and its links. The value outlives a
/// dropped link (the leader usually comes back with the same members, perhaps on another port)
/// and is asked for again on every new link once anyone has asked for it.
actor GroupController {
    nonisolated let loop: any EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }
    let published = PublishedValue<CastGroup?>(nil)
    /// Someone follows the group: ask the leader on each new link.
    private(set) var wanted = false

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func want() { wanted = true }

    func apply(_ message: MultizoneMessage) {
        _ = published.set(CastGroup.applying(message, to: published.current))
    }
}

extension GroupController: NamespaceController {
    nonisolated var namespaces: [String] { [CastNamespace.multizoneURN] }

    /// Only the platform speaks for the group; what cannot be read was already reported by the
    /// session (the link's fallback).
    func receive(_ message: InboundMessage, from link: CastConnection) {
        guard message.raw.sourceID == CastEndpoint.receiver, case .success(.multizone(let m)) = message.decoded else { return }
        apply(m)
    }

    func linkEnded(_ reason: DisconnectReason, link: CastConnection) {}
}
