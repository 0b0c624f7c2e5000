// SPDX-License-Identifier: GPL-3.0-or-later

import CastCore
import CastProtocol

// How a session ends. Every path goes through `releaseApp`, the one teardown of the joined
// app (media and custom channels let go of it); closing the link adds `closeLink`.
//
//   leave()       forget the session, close the link          (the app plays on)
//   disconnect()  keep the session for resume(), close the link
//   stop()        STOP the app, forget the session, close the link
//   the device ended the app  → sessionEnded()  (CastSession+Inbound)
//   the link died             → linkClosed()    (CastSession+Inbound; may reconnect)
extension CastSession {
    /// Leaves the session: the app keeps running on the device, the link closes, and the
    /// session is forgotten (no resume).
    public func leave() async {
        await end(forgetSession: true)
    }

    /// Stops the app on the device and closes the link.
    public func stop() async throws(CastClientError) {
        cancelReconnect()
        if let connection, let app {
            let sessionID = app.sessionId
            _ = try await connection.request("STOP", to: CastEndpoint.receiver) {
                ReceiverMessage.stop(StopSessionRequest(requestId: $0, sessionId: sessionID))
            }
        }
        await end(forgetSession: true)
    }

    /// Closes the link but remembers the session, so a later process can `resume()` it.
    public func disconnect() async {
        await end(forgetSession: false)
    }

    private func cancelReconnect() {
        reconnectTask?.cancel()
        reconnectTask = nil
    }

    /// Ends on this side's request: no reconnect, the link closed, the session forgotten or kept.
    private func end(forgetSession: Bool) async {
        cancelReconnect()
        if forgetSession { try? configuration.sessionStore?.forget(deviceID: deviceID) }
        await closeLink()
    }

    func closeLink() async {
        let c = connection
        connection = nil
        wantedApp = nil
        releaseApp(clearMedia: true)
        if let c { await c.close() }
        setState(.disconnected(.closedByUser))
    }

    /// The one teardown of the joined app. `clearMedia` false keeps the last media status
    /// (a dropped link that may reconnect to the same media session).
    func releaseApp(clearMedia: Bool) {
        app = nil
        media.assumeIsolated { $0.detach(clearStatus: clearMedia) }
        for ch in channels.values { ch.assumeIsolated { $0.disconnect() } }
    }
}
