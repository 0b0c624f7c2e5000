// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

/// A URL in the form a media server of this computer gives out,
/// `http://ADDR:PORT/<32 hex digits>/<name>` (more path below the token for converted files),
/// taken apart so a sender can tell its own shares from other servers' media, and a share
/// that has ended (the token is gone, or the server with it) from a live one.
public struct MediaServerURL: Sendable, Hashable {
    /// The numeric address, normalised as the server keeps it (no brackets, lower case).
    public var host: String
    public var port: Int
    /// 32 lower-case hexadecimal digits.
    public var token: String

    /// Nil when `url` is not http with a token as its first path segment.
    public init?(_ url: String) {
        guard let u = URL(string: url), u.scheme?.lowercased() == "http", let host = u.host, !host.isEmpty else { return nil }
        let parts = u.path.split(separator: "/", omittingEmptySubsequences: false)
        // "", token, name…
        guard parts.count >= 3, parts[0].isEmpty else { return nil }
        let token = parts[1]
        guard SharedItem.isToken(token) else { return nil }
        self.host = normalizedIP(host)
        self.port = u.port ?? 80
        self.token = token.lowercased()
    }
}

extension MediaServer {
    /// Whether `url` names a live share of this server (its address, port and a token not revoked).
    public func serves(_ url: MediaServerURL) -> Bool {
        url.host == host && url.port == port && table.entry(url.token) != nil
    }
}

extension MediaShare {
    /// Whether `url` is one of the files this share serves now (false once its cast ended,
    /// and for any other server, on this computer or not).
    public func isServing(_ url: String) -> Bool {
        guard let parsed = MediaServerURL(url), let server = servers[parsed.host] else { return false }
        return server.serves(parsed)
    }
}

extension MediaServerURL {
    /// Whether the URL's host is `address` (a numeric address, compared as the server keeps it).
    public func isOn(host address: String) -> Bool {
        normalizedIP(address) == host
    }
}
