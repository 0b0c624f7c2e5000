// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later

import CastCore
import Foundation

/// Parsing of DNS-SD TXT records and their Cast fields (docs/protocol.md §16).
public enum TXTRecord {
    /// Splits raw TXT strings (`key=value`, RFC 6763 §6) into a dictionary.
    ///
    /// Keys are case-insensitive and stored lower-cased; the first occurrence of a key
    /// wins (§6.4); a string without `=` is a boolean attribute with an empty value; an
    /// empty key is ignored. Values that are not UTF-8 are decoded with replacement
    /// characters rather than dropped.
    public static func parse(_ entries: [[UInt8]]) -> [String: String] {
        var result: [String: String] = [:]
        for entry in entries where !entry.isEmpty {
            let keyBytes: ArraySlice<UInt8>
            let valueBytes: ArraySlice<UInt8>
            if let eq = entry.firstIndex(of: UInt8(ascii: "=")) {
                keyBytes = entry[..<eq]
                valueBytes = entry[(eq + 1)...]
            } else {
                keyBytes = entry[...]
                valueBytes = []
            }
            guard !keyBytes.isEmpty else { continue }
            let key = String(decoding: keyBytes, as: UTF8.self).lowercased()
            if result[key] == nil {
                result[key] = String(decoding: valueBytes, as: UTF8.self)
            }
        }
        return result
    }

    /// Convenience for `key=value` strings.
    public static func parse(strings: [String]) -> [String: String] {
        parse(strings.map { Array($0.utf8) })
    }

    /// Lower-case hex without dashes, or nil when `raw` is not a 128-bit hex id.
    public static func normalizedID(_ raw: String) -> String? {
        let hex = raw.filter { $0 != "-" }.lowercased()
        guard hex.count == 32, hex.allSatisfy(\.isHexDigit) else { return nil }
        return hex
    }

    /// Builds a `CastDevice` from a resolved service.
    ///
    /// The id is the normalised TXT `id`; a record without a usable id is keyed by its
    /// service name (prefixed `name:`), so it still shows up once. A missing `fn` falls back
    /// to the service name.
    public static func device(
        txt: [String: String], serviceName: String, host: String, port: Int
    ) -> CastDevice {
        let rawID = txt["id"] ?? ""
        let id = normalizedID(rawID) ?? (rawID.isEmpty ? "name:\(serviceName)" : rawID.lowercased())
        func nonEmpty(_ key: String) -> String? {
            guard let v = txt[key], !v.isEmpty else { return nil }
            return v
        }
        let capabilities =
            nonEmpty("ca").flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
            .map(CastCapabilities.init(rawValue:)) ?? []
        return CastDevice(
            id: id,
            friendlyName: nonEmpty("fn") ?? serviceName,
            model: nonEmpty("md"),
            host: host,
            port: port,
            capabilities: capabilities,
            statusText: nonEmpty("rs"),
            iconPath: nonEmpty("ic"),
            isBusy: txt["st"] == "1",
            txt: txt,
            source: .discovered,
            serviceName: serviceName
        )
    }
}
