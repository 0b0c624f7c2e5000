// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastDiscovery
import CastReceiver
import Foundation

/// Where `castctl receiver --announce` gets its mDNS publisher: CastDiscovery's
/// `CastServicePublisher` through avahi-daemon.
enum ReceiverAnnouncerFactory {
    static func make() -> (any ReceiverAnnouncer)? {
        AvahiReceiverAnnouncer()
    }
}

/// Publishes the simulator as `_googlecast._tcp` with a realistic TXT record; a name already
/// taken on the network becomes "Name #2". The record is withdrawn on `withdraw()` (and by
/// avahi-daemon if the process dies).
final class AvahiReceiverAnnouncer: ReceiverAnnouncer {
    private let lock = NSLock()
    nonisolated(unsafe) private var publisher: CastServicePublisher?

    func announce(_ announcement: ReceiverAnnouncement) async throws {
        var capabilities = CastCapabilities(rawValue: UInt64(announcement.capabilities ?? 4101))  // default: video out, audio out, fixed volume
        if announcement.model == CastDevice.groupModel { capabilities = [.audioOut, .multizoneGroup] }
        let record = CastServiceRecord(
            id: announcement.uuid, friendlyName: announcement.friendlyName, model: announcement.model,
            port: announcement.port, capabilities: capabilities)
        let publisher = CastServicePublisher(record: record)
        lock.withLock { self.publisher = publisher }
        let name = try await publisher.publish()
        Console.err("castctl: announced as \"\(name)\" (_googlecast._tcp, port \(announcement.port))\n")
    }

    func withdraw() async {
        let publisher: CastServicePublisher? = lock.withLock {
            defer { self.publisher = nil }
            return self.publisher
        }
        publisher?.withdraw()
    }
}
