// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol

// What `castctl watch` says about a speaker group: its members when they are first known, a
// member that joined, left or changed volume, and a leader that moved to another address or
// port (the session found it there through discovery and rejoined).
extension WatchCommand {
    static func followGroup(_ session: CastSession, out: @escaping @Sendable (Event, String) -> Void) async {
        var last: CastGroup?
        for await group in await session.groupUpdates() {
            for line in GroupReport.changes(from: last, to: group) {
                out(Event(event: "group", group: group.map(GroupReport.init), change: line), "group: \(line)")
            }
            last = group
        }
    }

    /// Watches the session's state for a rejoin at another address than the last link's.
    actor MoveWatch {
        private var address: DeviceAddress?

        /// The line to print for `state`, if the link came back somewhere else.
        func state(_ state: SessionState, session: CastSession) -> String? {
            guard case .connected = state else { return nil }
            let now = session.device
            defer { address = now }
            guard let before = address, before != now else { return nil }
            return session.group != nil ? "group leader moved to \(now), rejoined" : "device moved to \(now), rejoined"
        }
    }
}
