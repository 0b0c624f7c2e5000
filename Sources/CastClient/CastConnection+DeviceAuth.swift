// SPDX-License-Identifier: GPL-3.0-or-later
// The deviceauth exchange on one link: challenge right after TLS, judge the answer, publish.
import CastProtocol
import Foundation

/// Where one connection's device authentication stands.
struct DeviceAuthExchange {
    var result: DeviceAuthentication = .notChecked
    var nonce: [UInt8] = []
    var peerCertificateDER: [UInt8]?
    var authenticator: DeviceAuthenticator?
    var timeout: Duration = .seconds(5)
    /// An answer is being judged; later answers are ignored.
    var judging = false
    var waiters: [CheckedContinuation<DeviceAuthentication, Never>] = []
    var timer: Task<Void, Never>?
}

extension CastConnection {
    /// The outcome of device authentication on this link so far.
    public var authentication: DeviceAuthentication { deviceAuth.result }

    /// Waits until the authentication outcome is known (immediately when it is, or when
    /// authentication is off), then returns it.
    public func settledAuthentication() async -> DeviceAuthentication {
        if deviceAuth.result != .checking { return deviceAuth.result }
        return await withCheckedContinuation { deviceAuth.waiters.append($0) }
    }

    /// Sends the challenge (unless the policy is `.off`). With `.require`, waits for the verdict
    /// and closes the link with `CastClientError.deviceNotVerified` unless the device verifies.
    func authenticateDevice(policy: DeviceAuthenticationPolicy, peerCertificateDER: [UInt8]?) async throws(CastClientError) {
        guard policy.mode != .off else { return }
        let store: CastTrustStore
        do throws(CastTrustStoreError) {
            if let given = policy.trustStore { store = given } else { store = try CastTrustStore.standard() }
        } catch {
            settle(.unverified(.untrustedChain(error.description)))
            try await refuseUnlessVerified(policy)
            return
        }
        deviceAuth.authenticator = DeviceAuthenticator(trustStore: store, advertisedCapabilities: policy.advertisedCapabilities)
        deviceAuth.nonce = DeviceAuthenticator.makeNonce()
        deviceAuth.peerCertificateDER = peerCertificateDER
        deviceAuth.timeout = policy.timeout
        deviceAuth.result = .checking
        let challenge = CastMessage(
            sourceID: CastEndpoint.sender, destinationID: CastEndpoint.receiver, namespace: CastNamespace.deviceAuthURN,
            payload: .binary(DeviceAuthWire.challenge(nonce: deviceAuth.nonce)))
        deviceAuth.timer = Task { [weak self] in
            try? await Task.sleep(for: policy.timeout)
            await self?.deviceAuthTimedOut()
        }
        do {
            try await send(challenge)
        } catch {
            settle(.unverified(.noAnswer(seconds: 0)))
        }
        try await refuseUnlessVerified(policy)
    }

    private func refuseUnlessVerified(_ policy: DeviceAuthenticationPolicy) async throws(CastClientError) {
        guard policy.mode == .require else { return }
        let outcome = await settledAuthentication()
        guard case .unverified(let failure) = outcome else { return }
        await close()
        throw .deviceNotVerified(device: device.description, failure: failure)
    }

    /// Handles a message on the deviceauth namespace (called for every one that arrives).
    func deviceAuthReply(_ message: CastMessage) async {
        guard deviceAuth.result == .checking, !deviceAuth.judging, let authenticator = deviceAuth.authenticator else { return }
        guard case .binary(let bytes) = message.payload else {
            settle(.unverified(.malformed("the answer is text, not a binary DeviceAuthMessage")))
            return
        }
        deviceAuth.judging = true
        let verdict = await authenticator.verify(reply: bytes, nonce: deviceAuth.nonce, peerCertificateDER: deviceAuth.peerCertificateDER)
        settle(verdict)
    }

    private func deviceAuthTimedOut() {
        guard deviceAuth.result == .checking, !deviceAuth.judging else { return }
        settle(.unverified(.noAnswer(seconds: deviceAuth.timeout.seconds)))
    }

    private func settle(_ outcome: DeviceAuthentication) {
        guard !deviceAuth.result.isSettled else { return }
        deviceAuth.result = outcome
        deviceAuth.timer?.cancel()
        deviceAuth.timer = nil
        let waiting = deviceAuth.waiters
        deviceAuth.waiters = []
        for w in waiting { w.resume(returning: outcome) }
    }
}
