// SPDX-License-Identifier: GPL-3.0-or-later

import CastCore
import CastProtocol
import Foundation
import Logging

extension CastSession {
    // MARK: custom channels

    /// The channel for `namespace`, registered on first use. It connects whenever the joined
    /// app lists the namespace.
    public func channel(namespace: String) async throws(CastClientError) -> CastChannel {
        try CastChannel.validate(namespace)
        return registeredChannel(namespace)
    }

    /// The channel for `namespace`, made and connected as the app allows on first use.
    func registeredChannel(_ namespace: String) -> CastChannel {
        if let existing = channels[namespace] { return existing }
        let ch = CastChannel(namespace: namespace, loop: loop)
        channels[namespace] = ch
        updateChannels()
        return ch
    }

    /// Connects each channel whose namespace the joined app lists (routing its namespace to
    /// it on the link) and disconnects the others.
    func updateChannels() {
        for (ns, ch) in channels {
            if let connection, let app, app.handles(ns) {
                ch.assumeIsolated { $0.connect(connection: connection, transportID: app.transportId) }
            } else {
                ch.assumeIsolated { $0.disconnect() }
            }
        }
    }
}
