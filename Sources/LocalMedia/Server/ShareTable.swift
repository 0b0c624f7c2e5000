// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import NIOConcurrencyHelpers

/// What one token serves: a file on disk (streamed with sendfile), bytes made here
/// (converted subtitles, embedded cover art), files made on demand, or a live stream.
enum SharedContent: Sendable {
    /// An absolute path with symbolic links resolved when it was shared.
    case file(path: String)
    case bytes([UInt8])
    /// Names under the token answered by `source` (HLS playlists and segments made on demand).
    case generated(any GeneratedFiles)
    /// One endless response per GET, from the stream's latest key fragment on.
    case live(LiveStream)
}

/// Files made while they are asked for: `answer(name)` for every name under one token.
public protocol GeneratedFiles: Sendable {
    func answer(_ name: String) async -> GeneratedAnswer
}

/// One shared thing: the escaped-name part of its URL must match, and only `peer` may fetch it.
struct SharedEntry: Sendable {
    var name: String
    var content: SharedContent
    var contentType: String
    /// The IP address (textual, normalised) of the device that may fetch this entry.
    var peer: String
}

/// The tokens a server answers for. Locked, because the server's event loops read it
/// while the owner adds and revokes.
final class ShareTable: Sendable {
    private let entries = NIOLockedValueBox<[String: SharedEntry]>([:])

    func add(_ entry: SharedEntry, token: String) {
        entries.withLockedValue { $0[token] = entry }
    }

    func remove(_ tokens: some Sequence<String>) {
        entries.withLockedValue { e in for t in tokens { e.removeValue(forKey: t) } }
    }

    func entry(_ token: String) -> SharedEntry? {
        entries.withLockedValue { $0[token] }
    }

    /// True when `address` may fetch at least one entry (else every request from it gets 403).
    func isPeer(_ address: String) -> Bool {
        entries.withLockedValue { $0.values.contains { $0.peer == address } }
    }

    var count: Int { entries.withLockedValue { $0.count } }
}

/// Textual IP addresses compared the same way whatever socket family carried them:
/// IPv4-mapped IPv6 (`::ffff:192.0.2.1`) becomes plain IPv4, letters lower-case, zone kept.
func normalizedIP(_ address: String) -> String {
    var a = address.lowercased()
    if a.hasPrefix("[") && a.hasSuffix("]") { a = String(a.dropFirst().dropLast()) }
    if a.hasPrefix("::ffff:"), a.dropFirst(7).contains(".") { a = String(a.dropFirst(7)) }
    return a
}
