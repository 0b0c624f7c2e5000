// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastCore

#if canImport(Glibc)
import Glibc
#endif

/// Limits and places of an `ImageCache`. The defaults are what CastDeck ships with.
public struct ImageCacheConfiguration: Sendable {
    /// Where originals, variants and the index live. Default: `$XDG_CACHE_HOME/castdeck/images`,
    /// or `~/.cache/castdeck/images` when XDG_CACHE_HOME is unset or not absolute.
    public var directory: String
    /// Bound on everything stored on disk (originals and variants), in bytes. The GUI reads it from
    /// the GSettings key `image-cache-size-mb`. Default 100 MB.
    public var maxDiskBytes: Int = 100 * 1_000_000
    /// Bound on one downloaded image, in bytes; larger responses are refused while streaming. 20 MB.
    public var maxImageBytes: Int = 20 * 1_000_000
    /// Bound on the pixels of one image, checked from its header before decoding. 50 megapixels.
    public var maxDecodedPixels: Int = 50_000_000
    /// Bound on the in-memory layer of variants in use (their PNG bytes), in bytes. 16 MB.
    public var maxMemoryBytes: Int = 16 * 1_000_000
    /// Redirects followed per download. Loops are refused.
    public var maxRedirects: Int = 3
    /// Time allowed for one whole download, including the body.
    public var requestTimeout: Duration = .seconds(30)
    /// Time allowed to connect to the server.
    public var connectTimeout: Duration = .seconds(10)
    /// How long an image without Cache-Control max-age stays fresh, in seconds. One hour.
    public var defaultFreshness: Double = 3600
    /// First delay before a failed download is retried in the background; doubles per failure.
    public var retryBaseDelay: Double = 2
    /// Longest delay between retries.
    public var retryMaxDelay: Double = 300
    /// Background retries after a transient failure before giving up (a new request starts over).
    public var maxRetries: Int = 5
    /// Wall clock in seconds since 1970; injectable so tests can step over max-age without sleeping.
    public var now: @Sendable () -> Double = ImageCacheConfiguration.systemNow

    public init(directory: String = ImageCacheConfiguration.defaultDirectory()) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/castdeck/images`, else `$HOME/.cache/castdeck/images`.
    public static func defaultDirectory() -> String {
        (XDGDirectory.cache.path() ?? "/.cache/castdeck") + "/images"
    }

    @Sendable public static func systemNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// A decoded, scaled image ready for display: a PNG file on local disk plus its pixel size.
/// The GTK window makes a texture from `path` (or from `png`, the same bytes); MPRIS publishes
/// `fileURL` as `mpris:artUrl`.
public struct CachedImage: Hashable, Sendable {
    /// The artwork URL this was made from.
    public var sourceURL: String
    /// Absolute path of the scaled PNG in the cache directory.
    public var path: String
    /// Pixel size of the PNG (fits the requested box, keeps the aspect ratio, never enlarged).
    public var width: Int
    public var height: Int
    /// The PNG bytes (already read and checked; saves the GUI a second read).
    public var png: [UInt8]

    /// `file://` URL of `path`, percent-encoded, for `mpris:artUrl`.
    public var fileURL: String {
        var out = "file://"
        for b in path.utf8 {
            let safe =
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: "/") || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "~")
            if safe { out.unicodeScalars.append(UnicodeScalar(b)) } else { out += "%" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true) }
        }
        return out
    }
}

/// Counters for tests, benchmarks and a debug view.
public struct ImageCacheStatistics: Sendable, Equatable {
    public var entries: Int
    public var diskBytes: Int
    public var memoryBytes: Int
    public var downloads: Int
    public var revalidations: Int
    public var notModified: Int
    public var memoryHits: Int
    public var diskHits: Int
    public var variantsMade: Int
    public var corruptFilesRemoved: Int
    public var evictions: Int
}
