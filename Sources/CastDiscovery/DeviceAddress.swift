// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation

/// A device address typed by a person: `HOST`, `HOST:PORT`, `[IPv6]:PORT` or a bare IPv6 address.
public struct DeviceAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int = CastDevice.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST[:PORT]`; throws `DiscoveryError.invalidAddress` for anything else.
    public init(parsing text: String, defaultPort: Int = CastDevice.defaultPort) throws(DiscoveryError) {
        let trimmed = text.trimmingCharactersInSet(" \t\n")
        guard !trimmed.isEmpty else { throw .invalidAddress(text) }
        var host: Substring
        var portText: Substring?
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { throw .invalidAddress(text) }
            host = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
            let rest = trimmed[trimmed.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw .invalidAddress(text) }
                portText = rest.dropFirst()
            }
        } else if trimmed.filter({ $0 == ":" }).count > 1 {
            host = Substring(trimmed)  // a bare IPv6 address
        } else if let colon = trimmed.firstIndex(of: ":") {
            host = trimmed[..<colon]
            portText = trimmed[trimmed.index(after: colon)...]
        } else {
            host = Substring(trimmed)
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" || $0 == "\t" }) else {
            throw .invalidAddress(text)
        }
        var port = defaultPort
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else { throw .invalidAddress(text) }
            port = p
        }
        self.host = String(host)
        self.port = port
    }

    /// True when `text` is unmistakably an address rather than a device name: an IP literal,
    /// or anything with an explicit `:PORT`.
    public static func looksLikeAddress(_ text: String) -> Bool {
        guard let parsed = try? DeviceAddress(parsing: text) else { return false }
        if parsed.host.contains(":") { return true }  // IPv6
        let parts = parsed.host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) { return true }  // IPv4
        return text.trimmingCharactersInSet(" \t\n").range(of: #":\d+$"#, options: .regularExpression) != nil
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

extension String {
    func trimmingCharactersInSet(_ chars: String) -> String {
        var s = Substring(self)
        while let f = s.first, chars.contains(f) { s = s.dropFirst() }
        while let l = s.last, chars.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
