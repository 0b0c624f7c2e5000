// SPDX-License-Identifier: GPL-3.0-or-later
import AsyncHTTPClient
import CastCore
import Foundation
import NIOCore
import NIOSSL

/// A device's name and model from its local setup API, `/setup/eureka_info`: plain HTTP on
/// port 8008, or HTTPS with the device's self-signed certificate on 8443 (newer firmware).
/// A device known only by its address (added by hand, no mDNS) says what it is called here.
/// Only devices on the Cast port 8009 have it; speaker groups and other ports do not.
public struct DeviceSetupInfo: Sendable, Equatable {
    public var name: String?
    public var model: String?
    public var manufacturer: String?

    /// Asks the device; nil when it has no setup API or does not answer within `timeout`.
    public static func fetch(_ address: DeviceAddress, timeout: Duration = .seconds(2)) async -> DeviceSetupInfo? {
        guard address.port == 8009 else { return nil }
        let host = address.host.contains(":") ? "[\(address.host)]" : address.host
        let query = "/setup/eureka_info?params=name,device_info"
        if let info = await get("http://\(host):8008\(query)", client: .shared, timeout: timeout) { return info }
        return await get("https://\(host):8443\(query)", client: tlsClient, timeout: timeout)
    }

    /// Reads the JSON a device answers (only the fields used here; the rest is ignored).
    public static func parse(_ body: [UInt8]) -> DeviceSetupInfo? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        let device = object["device_info"] as? [String: Any]
        let info = DeviceSetupInfo(
            name: (object["name"] as? String).flatMap(trimmed),
            model: (device?["model_name"] as? String).flatMap(trimmed),
            manufacturer: (device?["manufacturer"] as? String).flatMap(trimmed))
        return info.name == nil && info.model == nil ? nil : info
    }

    private static func trimmed(_ s: String) -> String? {
        // A name is shown in rows and titles: one line, no control characters, a sane length.
        let clean = String(s.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.prefix(200))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return clean.isEmpty ? nil : clean
    }

    private static func get(_ url: String, client: HTTPClient, timeout: Duration) async -> DeviceSetupInfo? {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.seconds * 1e9)))
            guard response.status == .ok else { return nil }
            let body = try await response.body.collect(upTo: 64 * 1024)
            return parse(Array(body.readableBytesView))
        } catch {
            return nil
        }
    }

    /// The device's certificate is self-signed; the name is a label, not a trust decision
    /// (device authentication is what decides trust). Lives as long as the process.
    private static let tlsClient: HTTPClient = {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(2)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
