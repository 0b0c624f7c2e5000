// SPDX-License-Identifier: GPL-3.0-or-later
// Device authentication as part of a session's state: the window and castctl read it here.
import Synchronization

extension CastSession {
    /// Whether the device of the current (or last) link proved it is a genuine Cast device.
    /// `.notChecked` before the first connection or when authentication is off.
    public nonisolated var authentication: DeviceAuthentication { authenticationTracker.published.current }

    /// The current authentication state first, then every change (`.checking` on each new
    /// link, then `.verified`/`.unverified`).
    public nonisolated func authenticationUpdates() -> AsyncStream<DeviceAuthentication> { authenticationTracker.published.stream() }

    /// Waits until the current link's authentication outcome is known, then returns it
    /// (at most the policy's timeout after the link opened).
    @discardableResult
    public func settledAuthentication() async -> DeviceAuthentication {
        guard let connection = authenticationTracker.connection else { return authentication }
        let outcome = await connection.settledAuthentication()
        authenticationTracker.publish(outcome, from: connection)
        return authenticationTracker.published.current
    }
}

/// Follows the authentication of whichever link the session uses now and publishes it.
final class AuthenticationTracker: Sendable {
    let published = PublishedValue<DeviceAuthentication>(.notChecked)
    private let current = Mutex<CastConnection?>(nil)

    var connection: CastConnection? { current.withLock { $0 } }

    /// The session opened `connection`: publish its state now and its verdict when it comes.
    func track(_ connection: CastConnection) async {
        current.withLock { $0 = connection }
        publish(await connection.authentication, from: connection)
        Task { [weak self] in
            let settled = await connection.settledAuthentication()
            self?.publish(settled, from: connection)
        }
    }

    /// Opening a link failed; when it failed because verification is required, show why.
    func record(_ error: CastClientError) {
        guard case .deviceNotVerified(_, let failure) = error else { return }
        current.withLock { $0 = nil }
        published.set(.unverified(failure))
    }

    func publish(_ value: DeviceAuthentication, from connection: CastConnection) {
        let isCurrent = current.withLock { $0 === connection }
        guard isCurrent else { return }
        published.set(value)
    }
}
