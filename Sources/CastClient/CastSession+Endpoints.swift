// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import NIOCore

/// The two ends of the TCP connection to a device, as numeric IP addresses.
///
/// `local` is the address this machine uses to reach the device: the interface (and
/// VPN, if any) the kernel chose for it, so a server that the device must reach (casting
/// local files) should listen there. `remote` is the device as connected, which is what
/// the device's own requests will come from.
public struct ConnectionEndpoints: Sendable, Hashable {
    public var local: String
    public var localPort: Int
    public var remote: String
    public var remotePort: Int

    public init(local: String, localPort: Int, remote: String, remotePort: Int) {
        self.local = local
        self.localPort = localPort
        self.remote = remote
        self.remotePort = remotePort
    }
}

extension CastConnection {
    /// The addresses of this connection's socket; nil once it is closed.
    public var endpoints: ConnectionEndpoints? {
        guard let channel, let l = channel.localAddress, let r = channel.remoteAddress, let li = l.ipAddress, let ri = r.ipAddress else { return nil }
        return ConnectionEndpoints(local: li, localPort: l.port ?? 0, remote: ri, remotePort: r.port ?? 0)
    }
}

extension CastSession {
    /// The addresses of the live connection to the device (connecting first if needed).
    public func connectionEndpoints() async throws(CastClientError) -> ConnectionEndpoints {
        if connection == nil { _ = try await connect() }
        guard let endpoints = await connection?.endpoints else { throw .notConnected }
        return endpoints
    }
}
