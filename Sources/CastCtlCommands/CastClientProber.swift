// SPDX-License-Identifier: GPL-3.0-or-later
import CastClient
import CastDiscovery

/// The "connect + GET_STATUS" check for devices added by address, done with CastClient and
/// handed to CastDiscovery's `DeviceDirectory` (which may not import the sender core). The
/// device's answer gives the running app's status text; a device that does not answer makes
/// the probe throw, and the directory shows why.
struct CastClientProber: DeviceProber {
    func probe(_ address: CastDiscovery.DeviceAddress, timeout: Duration) async throws -> ProbeResult {
        var configuration = CastClientConfiguration()
        configuration.connectTimeout = timeout
        configuration.requestTimeout = timeout
        configuration.reconnect.enabled = false
        configuration.sessionStore = nil
        let session = CastSession(device: CastClient.DeviceAddress(host: address.host, port: address.port), configuration: configuration)
        do {
            let status = try await session.connect()
            await session.disconnect()
            let app = status.applications?.first
            return ProbeResult(statusText: app?.statusText ?? app?.displayName)
        } catch {
            await session.disconnect()
            throw error
        }
    }
}
