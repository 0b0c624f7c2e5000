// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Device authentication as part of a session's state: the window and castctl read it here.
// The session follows the verdict of whichever link it uses now and publishes it.

extension CastSession {
    /// Whether the device of the current (or last) link proved it is a genuine Cast device.
    /// `.notChecked` before the first connection or when authentication is off.
    public nonisolated var authentication: DeviceAuthentication { authenticationPublished.current }

    /// The current authentication state first, then every change (`.checking` on each new
    /// link, then `.verified`/`.unverified`).
    public nonisolated func authenticationUpdates() -> AsyncStream<DeviceAuthentication> { authenticationPublished.stream() }

    /// Waits until the current link's authentication outcome is known, then returns it
    /// (at most the policy's timeout after the link opened).
    @discardableResult
    public func settledAuthentication() async -> DeviceAuthentication {
        guard let connection = authenticatedLink else { return authentication }
        let outcome = await connection.settledAuthentication()
        publishAuthentication(outcome, from: connection)
        return authentication
    }

    /// The session opened `connection`: publish its state now and its verdict when it comes.
    func trackAuthentication(of connection: CastConnection) async {
        authenticatedLink = connection
        publishAuthentication(await connection.authentication, from: connection)
        Task { [weak self] in
            let settled = await connection.settledAuthentication()
            await self?.publishAuthentication(settled, from: connection)
        }
    }

    /// Opening a link failed; when it failed because verification is required, show why.
    func recordAuthenticationFailure(_ error: CastClientError) {
        guard case .deviceNotVerified(_, let failure) = error else { return }
        authenticatedLink = nil
        authenticationPublished.set(.unverified(failure))
    }

    private func publishAuthentication(_ value: DeviceAuthentication, from connection: CastConnection) {
        guard authenticatedLink === connection else { return }
        authenticationPublished.set(value)
    }
}
