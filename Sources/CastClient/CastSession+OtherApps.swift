// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastProtocol

extension CastSession {
    /// Stops one app on the device (STOP with its session id), whichever app it is, and keeps
    /// the link: the device's status follows, and the session follows whatever starts next.
    /// Used for an app this sender did not start (YouTube, mirroring); `stop()` ends our own.
    public func stopApp(sessionID: String) async throws(CastClientError) {
        guard let connection else { throw .notConnected }
        _ = try await connection.request("STOP", to: CastEndpoint.receiver) {
            ReceiverMessage.stop(StopSessionRequest(requestId: $0, sessionId: sessionID))
        }
    }
}
