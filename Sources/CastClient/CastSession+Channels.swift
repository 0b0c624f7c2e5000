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
        if let existing = channels[namespace] { return existing }
        let ch = CastChannel(namespace: namespace)
        channels[namespace] = ch
        await updateChannels()
        return ch
    }

    func updateChannels() async {
        for (ns, ch) in channels {
            if let connection, let app, app.handles(ns) {
                await ch.connect(connection: connection, transportID: app.transportId)
            } else {
                await ch.disconnect()
            }
        }
    }
}
