// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Where a Cast device listens: host (name or IP literal) and TCP port.
/// Groups listen on other ports than 8009, so always use the port discovery gives.
public struct DeviceAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    public static let defaultPort = 8009

    public var host: String
    public var port: Int

    public init(host: String, port: Int = DeviceAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST`, `HOST:PORT`, `[IPv6]`, `[IPv6]:PORT` or a bare IPv6 literal.
    public init(parsing text: String) throws(CastClientError) {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty else { throw .invalidArgument("The device address is empty: give HOST or HOST:PORT.") }
        func port(_ s: Substring) throws(CastClientError) -> Int {
            guard let p = Int(s), (1...65535).contains(p) else {
                throw .invalidArgument("“\(s)” is not a TCP port (1–65535) in device address “\(text)”.")
            }
            return p
        }
        if t.hasPrefix("[") {
            guard let close = t.firstIndex(of: "]") else {
                throw .invalidArgument("“\(text)” opens “[” without closing it: write [IPv6]:PORT.")
            }
            let h = String(t[t.index(after: t.startIndex)..<close])
            let rest = t[t.index(after: close)...]
            if rest.isEmpty { self.init(host: h); return }
            guard rest.hasPrefix(":") else { throw .invalidArgument("Unexpected text after “]” in “\(text)”.") }
            self.init(host: h, port: try port(rest.dropFirst()))
            return
        }
        let colons = t.filter { $0 == ":" }.count
        if colons == 0 { self.init(host: t); return }
        if colons > 1 { self.init(host: t); return }  // a bare IPv6 literal
        let parts = t.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard !parts[0].isEmpty else { throw .invalidArgument("The device address “\(text)” has no host.") }
        self.init(host: String(parts[0]), port: try port(parts[1]))
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
