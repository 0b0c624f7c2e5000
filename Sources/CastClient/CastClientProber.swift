// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore

/// The "connect + GET_STATUS" check for devices added by address, answering CastCore's
/// `DeviceProber` for CastDiscovery's `DeviceDirectory` (which may not import the sender).
/// The device's answer gives the running app's status text; a device that does not answer
/// makes the probe throw a `ProbeFailure` (not found, not answering, not a Cast device, not
/// verified), and the directory shows it. The window and castctl use the same one.
public struct CastClientProber: DeviceProber {
    /// The configuration probes start from (its logger, certificate policy, sender id).
    public var configuration: CastClientConfiguration

    public init(configuration: CastClientConfiguration = .init()) {
        self.configuration = configuration
    }

    public func probe(_ address: DeviceAddress, timeout: Duration) async throws -> ProbeResult {
        var configuration = configuration
        configuration.connectTimeout = timeout
        configuration.requestTimeout = timeout
        configuration.reconnect.enabled = false
        configuration.sessionStore = nil
        let session = CastSession(device: address, configuration: configuration)
        // The name from the setup API, asked beside the Cast connection.
        async let setup = DeviceSetupInfo.fetch(address, timeout: min(timeout, .seconds(3)))
        do {
            let status = try await session.connect()
            await session.disconnect()
            let app = status.applications?.first(where: { $0.isIdleScreen != true }) ?? status.applications?.first
            let info = await setup
            return ProbeResult(friendlyName: info?.name, model: info?.model, statusText: app?.statusText ?? app?.displayName)
        } catch {
            await session.disconnect()
            throw Self.failure(error)
        }
    }

    /// What kind of failure `error` is, for a device list that says it in a word or two.
    static func failure(_ error: any Error) -> ProbeFailure {
        let kind: ProbeFailure.Kind
        switch error as? CastClientError {
        case .hostNotFound?:
            kind = .notFound
        case .tlsFailed?, .certificateRejected?, .malformedReply?, .unexpectedReply?, .connectionLost(.corruptStream)?:
            kind = .notACastDevice
        case .deviceNotVerified?:
            kind = .notVerified
        default:
            kind = .notAnswering
        }
        return ProbeFailure(kind, detail: "\(error)")
    }
}
