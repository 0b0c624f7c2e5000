// SPDX-License-Identifier: GPL-3.0-or-later

import CastCore
import CastProtocol
import Foundation
import Logging

extension CastSession {
    // MARK: ending

    /// Leaves the session: the app keeps running on the device, the link closes, and the
    /// session is forgotten (no resume).
    public func leave() async {
        reconnectTask?.cancel()
        reconnectTask = nil
        try? configuration.sessionStore?.forget(deviceID: deviceID)
        await closeLink()
    }

    /// Stops the app on the device and closes the link.
    public func stop() async throws(CastClientError) {
        reconnectTask?.cancel()
        reconnectTask = nil
        if let connection, let app {
            let sessionID = app.sessionId
            _ = try await connection.request("STOP", to: CastEndpoint.receiver) {
                ReceiverMessage.stop(StopSessionRequest(requestId: $0, sessionId: sessionID))
            }
        }
        try? configuration.sessionStore?.forget(deviceID: deviceID)
        await closeLink()
    }

    /// Closes the link but remembers the session, so a later process can `resume()` it.
    public func disconnect() async {
        reconnectTask?.cancel()
        reconnectTask = nil
        await closeLink()
    }

    func closeLink() async {
        generation += 1
        let c = connection
        connection = nil
        app = nil
        wantedApp = nil
        await media.detach(clearStatus: true)
        for ch in channels.values { await ch.disconnect() }
        if let c { await c.close() }
        setState(.disconnected(.closedByUser))
    }
}
