// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import CastProtocol

extension CastSession {
    // MARK: speaker groups

    /// The group's members as last reported by the leader (nil: not a group, or not asked yet).
    public nonisolated var group: CastGroup? { groupController.published.current }

    /// The current group first, then every change (DEVICE_ADDED / UPDATED / REMOVED applied).
    /// nil means the device is not a group or has not answered. Calling it makes the session
    /// ask the leader for its members now (when linked) and on every later link, so a group
    /// whose leader moved reports its members again after the rejoin.
    public func groupUpdates() -> AsyncStream<CastGroup?> {
        let stream = groupController.published.stream()
        let wasWanted = groupController.assumeIsolated { c in
            defer { c.want() }
            return c.wanted
        }
        if !wasWanted, let connection { askForGroup(on: connection) }
        return stream
    }

    /// Asks the leader for its members (multizone GET_STATUS) and waits for MULTIZONE_STATUS.
    /// A device that is not a group does not answer: that is a `.timeout` after `timeout`
    /// (nil = the configured request timeout).
    @discardableResult
    public func requestGroupStatus(timeout: Duration? = nil) async throws(CastClientError) -> CastGroup {
        await groupController.want()
        if connection == nil { _ = try await connectPlatform(resuming: false) }
        guard let connection else { throw .notConnected }
        let reply = try await connection.request(
            "GET_STATUS (multizone)", to: CastEndpoint.receiver, timeout: timeout,
            // Some leaders answer with request id 0: any MULTIZONE_STATUS answers.
            match: { message in
                if case .multizone(.multizoneStatus) = message { return true }
                return false
            }
        ) { MultizoneMessage.getStatus(MultizoneStatusRequest(requestId: $0)) }
        guard case .multizone(.multizoneStatus(let m)) = reply, let status = m.status else {
            throw .unexpectedReply(request: "GET_STATUS (multizone)", type: "\(reply)")
        }
        return CastGroup(status)
    }

    /// Sends multizone GET_STATUS without waiting when someone follows the group; the answer
    /// reaches the group controller like any broadcast. Sent before the receiver's GET_STATUS
    /// on a new link, so a leader that answers in order has answered both by the time
    /// `connect()` returns.
    func askForGroup(on connection: CastConnection) {
        guard groupController.assumeIsolated({ $0.wanted }) else { return }
        connection.assumeIsolated { c in
            c.postRequest(to: CastEndpoint.receiver) { MultizoneMessage.getStatus(MultizoneStatusRequest(requestId: $0)) }
        }
    }
}

extension CastConnection {
    /// Sends a request with a fresh request id and does not wait for its reply (whatever
    /// answers it goes to its namespace's controller).
    func postRequest<M: CastJSONMessage>(to destination: String, _ make: (Int) -> M) {
        nextRequestID = nextRequestID >= RequestID.max ? 1 : nextRequestID + 1
        post(CastMessage(source: senderID, destination: destination, make(nextRequestID)))
    }
}
