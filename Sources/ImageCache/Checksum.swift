// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CGdkPixbuf

/// SHA-256 through GLib's GChecksum (already linked with gdk-pixbuf, so no extra crypto library).
enum Checksum {
    /// Lower-case hex SHA-256 of a string's UTF-8 bytes. Used for cache file names: the name is a
    /// hash of the URL, never the URL's own text.
    static func sha256Hex(_ string: String) -> String {
        guard let hex = g_compute_checksum_for_string(G_CHECKSUM_SHA256, string, -1) else { return "" }
        defer { g_free(hex) }
        return String(cString: hex)
    }

    /// Lower-case hex SHA-256 of bytes.
    static func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String {
        let base = bytes.baseAddress?.assumingMemoryBound(to: guchar.self)
        guard let hex = g_compute_checksum_for_data(G_CHECKSUM_SHA256, base, gsize(bytes.count)) else { return "" }
        defer { g_free(hex) }
        return String(cString: hex)
    }

    static func sha256Hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { sha256Hex($0) }
    }
}

/// An incremental SHA-256, fed while a body streams in.
final class StreamingChecksum {
    private let checksum: OpaquePointer?

    init() {
        checksum = g_checksum_new(G_CHECKSUM_SHA256)
    }

    deinit {
        if let checksum { g_checksum_free(checksum) }
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let checksum, let base = bytes.baseAddress, bytes.count > 0 else { return }
        g_checksum_update(checksum, base.assumingMemoryBound(to: guchar.self), gssize(bytes.count))
    }

    /// The hex digest; the checksum cannot be updated afterwards.
    func finish() -> String {
        guard let checksum, let hex = g_checksum_get_string(checksum) else { return "" }
        return String(cString: hex)
    }
}
