// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// What a `Range` request header asks of a file of a known size (RFC 9110 §14).
///
/// Only the `bytes` unit exists. Three forms of a single range are served with 206:
/// `a-b`, `a-` and the suffix `-n`. A header naming several ranges is answered with
/// the whole file and 200 (allowed by RFC 9110: a server may ignore Range), because no
/// media element asks for several and multipart bodies cannot be sent with sendfile.
public enum RangeRequest: Equatable, Sendable {
    /// No usable Range header (absent, another unit, several ranges, or syntax errors): send all with 200.
    case whole
    /// One satisfiable range: the first and last byte offsets, inclusive.
    case partial(first: Int64, last: Int64)
    /// A single range that starts beyond the end: 416 with `Content-Range: bytes */SIZE`.
    case unsatisfiable

    /// Interprets `header` (the `Range` field value, or nil) for a file of `size` bytes.
    public init(header: String?, size: Int64) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = header.trimmingSpaces
        guard trimmed.lowercased().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let spec = trimmed.dropFirst("bytes=".count)
        let parts = spec.split(separator: ",", omittingEmptySubsequences: false).map { Substring($0).trimmingSpaces }
        // Several ranges: served as the whole file (see the type's documentation).
        guard parts.count == 1, let one = parts.first, !one.isEmpty else {
            self = .whole
            return
        }
        let ends = one.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard ends.count == 2 else {
            self = .whole
            return
        }
        let a = ends[0], b = ends[1]
        if a.isEmpty {
            // Suffix: the last n bytes.
            guard let n = Int64.digits(b) else {
                self = .whole
                return
            }
            guard n > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .partial(first: max(0, size - n), last: size - 1)
            return
        }
        guard let first = Int64.digits(a) else {
            self = .whole
            return
        }
        var last = size - 1
        if !b.isEmpty {
            guard let l = Int64.digits(b) else {
                self = .whole
                return
            }
            guard l >= first else {
                self = .whole
                return
            }  // invalid: ignored per RFC 9110
            last = min(l, size - 1)
        }
        guard first < size else {
            self = .unsatisfiable
            return
        }
        self = .partial(first: first, last: last)
    }
}

extension Int64 {
    /// Only ASCII digits (no sign, no spaces), without overflow.
    static func digits(_ s: Substring) -> Int64? {
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(s)
    }
}

extension StringProtocol {
    var trimmingSpaces: Substring {
        let s = Substring(self)
        guard let start = s.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let end = s.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return s[start...end]
    }
}
