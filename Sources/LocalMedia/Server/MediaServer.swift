// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Which TCP port the media server listens on.
public enum MediaPort: Sendable, Hashable {
    /// The first free port of the range, else any free port the system gives.
    case range(ClosedRange<Int>)
    /// Exactly this port (`--media-port`, the `media-port` setting); failing to bind it is an error.
    case exactly(Int)

    /// 8010–8019: a fixed, small range a firewall rule can name (`ufw allow 8010:8019/tcp`),
    /// next to Cast's own 8008/8009 and clear of the usual development ports (8000, 8080,
    /// 8443, 8888). Ten ports let several users or app instances share a machine.
    public static let defaultRange: ClosedRange<Int> = 8010...8019
    public static let `default` = MediaPort.range(defaultRange)
}

/// A file made reachable for one device: its URL and the token that names it.
public struct SharedItem: Sendable, Hashable {
    /// 32 lower-case hexadecimal digits (128 random bits).
    public var token: String
    /// `http://ADDR:PORT/<token>/<escaped name>`.
    public var url: String

    /// Whether `text` has the form of a token (32 hexadecimal digits, either case).
    static func isToken(_ text: some StringProtocol) -> Bool {
        text.count == 32 && text.allSatisfy(\.isHexDigit)
    }
}

/// The HTTP/1.1 server that lets a Cast device fetch files from this computer.
///
/// Built on SwiftNIO's HTTP/1 codec (already a dependency; sendfile through `FileRegion`
/// and the peer's address at hand on every connection) rather than a framework: the
/// server is a single route with exact rules, see ``MediaRequestHandler``.
///
/// It binds one address, the local address of the socket that talks to the device, so
/// files are offered only on the interface that reaches it. Each shared file gets a
/// random token; revoking the token (when its cast ends) makes its URL answer 404.
///
/// What a token serves: a file, bytes made here, files made on demand (HLS), or a live
/// stream answered with one endless response per GET (`share(live:)`, Live/LiveStream.swift).
public final class MediaServer: Sendable {
    /// The address the server listens on (numeric).
    public let host: String
    /// The port it got.
    public let port: Int

    private let channel: any Channel
    let table: ShareTable

    /// Connections with nothing read or written for this long are closed.
    public static let idleTimeout: TimeAmount = .minutes(5)

    private init(host: String, port: Int, channel: any Channel, table: ShareTable) {
        self.host = host
        self.port = port
        self.channel = channel
        self.table = table
    }

    /// Starts a server on `host` (an IP address of this machine).
    public static func start(host: String, port: MediaPort = .default) async throws(LocalMediaError) -> MediaServer {
        let table = ShareTable()
        let candidates: [Int]
        let fallback: Bool
        switch port {
        case .range(let r):
            candidates = Array(r)
            fallback = true
        case .exactly(let p):
            candidates = [p]
            fallback = false
        }
        var lastError = "no port tried"
        for p in candidates + (fallback ? [0] : []) {
            do {
                let channel = try await bootstrap(table).bind(host: host, port: p).get()
                let bound = channel.localAddress?.port ?? p
                return MediaServer(host: normalizedIP(host), port: bound, channel: channel, table: table)
            } catch let e as IOError where e.errnoCode == EADDRINUSE {
                lastError = candidates.count > 1 ? "every port is in use" : "the port is in use"
            } catch {
                // Not a busy port (no such address, permission): another port will not help.
                throw .bindFailed(address: host, ports: describe(port), reason: "\(error)")
            }
        }
        throw .bindFailed(address: host, ports: describe(port), reason: lastError)
    }

    private static func describe(_ port: MediaPort) -> String {
        switch port {
        case .range(let r): "\(r.lowerBound)–\(r.upperBound) or any"
        case .exactly(let p): "\(p)"
        }
    }

    private static func bootstrap(_ table: ShareTable) -> ServerBootstrap {
        ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 4)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let ops = channel.pipeline.syncOperations
                    try ops.addHandler(IdleStateHandler(allTimeout: idleTimeout))
                    try ops.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
                    try ops.addHandler(MediaRequestHandler(table: table))
                }
            }
    }

    /// Shares a file for `peer` (the device's IP address). `name` becomes the last part of
    /// the URL (receivers show it and some look at its extension).
    public func share(path: String, name: String, contentType: String, peer: String) -> SharedItem {
        add(SharedEntry(name: name, content: .file(path: path), contentType: contentType, peer: normalizedIP(peer)))
    }

    /// Shares bytes made in memory (a converted subtitle file, embedded cover art).
    public func share(bytes: [UInt8], name: String, contentType: String, peer: String) -> SharedItem {
        add(SharedEntry(name: name, content: .bytes(bytes), contentType: contentType, peer: normalizedIP(peer)))
    }

    /// Shares files made on demand: `<token>/<name>` for any plain name (letters, digits,
    /// `._-`) is answered by `source`; the URL returned names `entry`.
    public func share(generated source: any GeneratedFiles, entry: String, peer: String) -> SharedItem {
        add(SharedEntry(name: entry, content: .generated(source), contentType: "", peer: normalizedIP(peer)))
    }

    func add(_ entry: SharedEntry) -> SharedItem {
        var rng = SystemRandomNumberGenerator()
        let token = (0..<2).map { _ in
            let s = String(rng.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }.joined()
        table.add(entry, token: token)
        return SharedItem(token: token, url: "\(baseURL)/\(token)/\(Self.escape(entry.name))")
    }

    /// Makes URLs of these tokens answer 404 from now on (connections already streaming
    /// finish their current response).
    public func revoke(_ tokens: some Sequence<String>) {
        table.remove(tokens)
    }

    /// How many tokens are live.
    public var shareCount: Int { table.count }

    /// `http://ADDR:PORT` (IPv6 in brackets).
    public var baseURL: String {
        host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }

    /// Stops listening and closes every connection.
    public func stop() async {
        try? await channel.close()
    }

    /// Percent-encodes all but RFC 3986's unreserved characters.
    static func escape(_ name: String) -> String {
        var out = ""
        for b in name.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(b)))
            default:
                let hex = String(b, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
