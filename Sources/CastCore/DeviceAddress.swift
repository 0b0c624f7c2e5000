// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// Where a Cast device listens: a host (name or IP literal) and a TCP port.
///
/// Groups listen on ports other than 8009, so always keep the port discovery gives.
public struct DeviceAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The port every single Cast device listens on.
    public static let defaultPort = 8009

    public var host: String
    public var port: Int

    public init(host: String, port: Int = DeviceAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses what a person types: `HOST`, `HOST:PORT`, `[IPv6]`, `[IPv6]:PORT` or a bare
    /// IPv6 literal. Surrounding white space is ignored; `defaultPort` applies when none is given.
    public init(parsing text: String, defaultPort: Int = DeviceAddress.defaultPort) throws(DeviceAddressError) {
        let t = text.trimmingWhitespace()
        guard !t.isEmpty else { throw DeviceAddressError(text: text, problem: .empty) }
        var host: Substring
        var portText: Substring?
        if t.hasPrefix("[") {
            guard let close = t.firstIndex(of: "]") else { throw DeviceAddressError(text: text, problem: .unclosedBracket) }
            host = t[t.index(after: t.startIndex)..<close]
            let rest = t[t.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw DeviceAddressError(text: text, problem: .textAfterBracket) }
                portText = rest.dropFirst()
            }
        } else if t.filter({ $0 == ":" }).count > 1 {
            host = Substring(t)  // a bare IPv6 literal
        } else if let colon = t.firstIndex(of: ":") {
            host = t[..<colon]
            portText = t[t.index(after: colon)...]
        } else {
            host = Substring(t)
        }
        guard !host.isEmpty else { throw DeviceAddressError(text: text, problem: .noHost) }
        guard !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            throw DeviceAddressError(text: text, problem: .badHost)
        }
        var port = defaultPort
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                throw DeviceAddressError(text: text, problem: .badPort(String(portText)))
            }
            port = p
        }
        self.init(host: String(host), port: port)
    }

    /// True when `text` is unmistakably an address rather than a device name: an IP literal,
    /// or anything with an explicit `:PORT`.
    public static func looksLikeAddress(_ text: String) -> Bool {
        guard let parsed = try? DeviceAddress(parsing: text) else { return false }
        if parsed.host.contains(":") { return true }  // IPv6
        let parts = parsed.host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) { return true }  // IPv4
        let t = text.trimmingWhitespace()
        guard let colon = t.lastIndex(of: ":") else { return false }
        let digits = t[t.index(after: colon)...]
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }

    /// `host:port`, with brackets around an IPv6 host.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// Text that is not a device address, and what to write instead.
public struct DeviceAddressError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Problem: Sendable, Hashable {
        case empty
        case noHost
        case badHost
        case badPort(String)
        case unclosedBracket
        case textAfterBracket
    }

    /// The text as given.
    public var text: String
    public var problem: Problem

    public init(text: String, problem: Problem) {
        self.text = text
        self.problem = problem
    }

    public var description: String {
        switch problem {
        case .empty: "The device address is empty: give HOST or HOST:PORT."
        case .noHost: "The device address “\(text)” has no host: write HOST:PORT."
        case .badHost: "“\(text)” is not an address: a host name or IP address has no spaces or slashes."
        case .badPort(let p): "“\(p)” is not a TCP port (1–65535) in the device address “\(text)”."
        case .unclosedBracket: "“\(text)” opens “[” without closing it: write [IPv6]:PORT."
        case .textAfterBracket: "Unexpected text after “]” in “\(text)”: write [IPv6]:PORT."
        }
    }
}
