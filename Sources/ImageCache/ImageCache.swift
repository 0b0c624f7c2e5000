// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// Overview
//
//   image(for:fitting:) ──▶ memory layer (PNG bytes of variants in use)
//          │ miss
//          ▼
//   ensureOriginal ──▶ fresh? ──no──▶ one shared download per URL (HTTPImageDownload)
//          │                          conditional (ETag / Last-Modified), size and type caps,
//          │                          temp file + fsync + rename, index journal
//          ▼
//   variant on disk? (size + SHA-256 checked) ──no──▶ decode + scale (PixbufDecoder, off the actor)
//          │                                          50 MP header check, PNG written atomically
//          ▼
//   CachedImage (path of the PNG, width, height, bytes)
//
// Files: <directory>/index, journal, originals/<sha256(url)>, variants/<sha256(url)>-<w>x<h>.png,
// tmp/ (half-written files; removed on open).
//
// Code: ImageCache (state, public API), +Download (originals, retries, freshness),
// +Variants (decode, scale, read back), +Housekeeping (eviction, orphans, paths),
// +MemoryLayer; CacheIndex (index + journal), HTTPImageDownload, PixbufDecoder, ImagePicker.
// The places that ask (ImageUse, with their point sizes) are CastCore's, shared with AppModel,
// which asks for each place without depending on this target.

import AsyncHTTPClient
@_exported import CastCore
import CastProtocol
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// The artwork cache: downloads images over HTTP(S), keeps them on disk under a size bound with
/// LRU eviction, and hands out decoded, scaled PNG variants for the sizes the UI asks for.
///
/// Call `shutdown()` when done (it closes the index and the HTTP client the cache created).
public actor ImageCache {
    public let configuration: ImageCacheConfiguration
    /// URLs that became available after a failed download was retried successfully in the
    /// background; the UI requests them again to replace its placeholder.
    public nonisolated let availability: AsyncStream<String>

    let availabilityContinuation: AsyncStream<String>.Continuation
    let http: HTTPClient
    let ownsHTTPClient: Bool
    let originalsDirectory: String
    let variantsDirectory: String
    let tmpDirectory: String
    let index: CacheIndex
    var maxDiskBytes: Int
    var memory: MemoryLayer
    var downloads: [String: Task<Void, Error>] = [:]
    var variantTasks: [VariantKey: Task<CachedImage, Error>] = [:]
    var failures: [String: FailureState] = [:]
    var retryTasks: [String: Task<Void, Never>] = [:]
    var counters = Counters()
    var closed = false

    struct FailureState {
        var attempts: Int
        var nextAttempt: Double
        var error: ImageCacheError
    }

    struct Counters {
        var downloads = 0, revalidations = 0, notModified = 0, memoryHits = 0, diskHits = 0
        var variantsMade = 0, corrupt = 0, evictions = 0
    }

    /// Opens (or creates) the cache in `configuration.directory`: reads the index, removes
    /// half-written temporary files and files the index does not know.
    /// - Parameter httpClient: a client to share; when nil the cache makes its own with the
    ///   configured redirect limit and timeouts, and shuts it down in `shutdown()`.
    /// - Throws: `ImageCacheError.storage` when the directory cannot be created or written.
    public init(configuration: ImageCacheConfiguration = ImageCacheConfiguration(), httpClient: HTTPClient? = nil) throws {
        self.configuration = configuration
        let root = configuration.directory
        originalsDirectory = root + "/originals"
        variantsDirectory = root + "/variants"
        tmpDirectory = root + "/tmp"
        let index: CacheIndex
        do {
            try FileIO.makeDirectories(root)
            for dir in [root + "/originals", root + "/variants", root + "/tmp"] { try FileIO.makeDirectory(dir) }
            Self.removeAbandonedTemporaryFiles(in: root + "/tmp")
            index = try CacheIndex(directory: root, tmpDirectory: root + "/tmp")
        } catch {
            throw ImageCacheError.storage(path: root, reason: String(describing: error))
        }
        // Orphans only come from a session that did not end with shutdown(): sweep only then, so a
        // normal open does not list 10,000s of files. The marker is removed now so that a crash
        // in this session makes the next open sweep.
        let cleanMarker = root + "/clean-shutdown"
        if FileIO.size(cleanMarker) != nil {
            FileIO.remove(cleanMarker)
        } else {
            Self.removeOrphans(index: index, originals: root + "/originals", variants: root + "/variants")
        }
        if index.totalBytes > configuration.maxDiskBytes {
            for key in index.keysByAge() where index.totalBytes > configuration.maxDiskBytes {
                Self.deleteEntry(key, index: index, originals: root + "/originals", variants: root + "/variants")
            }
        }
        self.index = index
        maxDiskBytes = configuration.maxDiskBytes
        memory = MemoryLayer(limit: configuration.maxMemoryBytes)
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        availability = stream
        availabilityContinuation = continuation
        if let httpClient {
            http = httpClient
            ownsHTTPClient = false
        } else {
            let config = HTTPClient.Configuration(
                redirectConfiguration: .follow(max: configuration.maxRedirects, allowCycles: false),
                timeout: .init(
                    connect: .nanoseconds(Int64(configuration.connectTimeout.nanoseconds)),
                    read: .nanoseconds(Int64(configuration.requestTimeout.nanoseconds))),
                decompression: .disabled
            )
            http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: config)
            ownsHTTPClient = true
        }
    }

    deinit {
        if ownsHTTPClient {
            if !closed { _ = http.shutdown() }
        }
    }

    // MARK: Public API

    /// The image at `url`, scaled to fit `box` (device pixels), as a PNG file in the cache.
    /// Downloads, revalidates and decodes as needed; concurrent calls for one URL share the work.
    /// - Throws: `ImageCacheError` (the UI shows a placeholder; transient failures are retried in
    ///   the background and announced on `availability`).
    public func image(for url: String, fitting box: PixelSize) async throws -> CachedImage {
        guard !closed else { throw ImageCacheError.shutDown }
        let box = Self.clamp(box)
        let key = try Self.key(for: url)
        let vkey = VariantKey(key: key, box: box)
        if let entry = index.entries[key], entry.expiresAt > configuration.now(), let hit = memory.get(vkey) {
            counters.memoryHits += 1
            index.touch(key)
            return hit
        }
        try await ensureOriginal(url: url, key: key, ignoreBackoff: false)
        if let hit = memory.get(vkey), index.entries[key] != nil {
            counters.memoryHits += 1
            index.touch(key)
            return hit
        }
        if let disk = readVariant(url: url, key: key, box: box) {
            counters.diskHits += 1
            memory.put(vkey, disk)
            index.touch(key)
            return disk
        }
        return try await variant(url: url, key: key, box: box)
    }

    /// Picks one of `images` with `picker` for `request` and returns it scaled to the request's
    /// size, or nil when there is nothing to pick.
    public func image(
        from images: [CastImage], for request: ImageRequest,
        picker: any ImagePicker = DefaultImagePicker()
    ) async throws -> CachedImage? {
        guard let chosen = picker.pickImage(from: images, for: request) else { return nil }
        return try await image(for: chosen.url, fitting: request.size)
    }

    /// What is on disk or in memory for `url` at `box`, without any network access or freshness
    /// check; nil when nothing usable is cached. Checked like every hit.
    public func cachedImage(for url: String, fitting box: PixelSize) -> CachedImage? {
        guard !closed, let key = try? Self.key(for: url) else { return nil }
        let box = Self.clamp(box)
        if let hit = memory.get(VariantKey(key: key, box: box)), index.entries[key] != nil { return hit }
        return readVariant(url: url, key: key, box: box)
    }

    /// Whether the index holds an entry (original) for `url`.
    public func contains(url: String) -> Bool {
        guard let key = try? Self.key(for: url) else { return false }
        return index.entries[key] != nil
    }

    /// Changes the disk bound (e.g. when the GSettings key `image-cache-size-mb` changes) and
    /// evicts least recently used entries until the cache fits.
    public func setMaxDiskBytes(_ bytes: Int) {
        maxDiskBytes = max(0, bytes)
        evictIfNeeded(protecting: nil)
    }

    public func statistics() -> ImageCacheStatistics {
        ImageCacheStatistics(
            entries: index.entries.count, diskBytes: index.totalBytes, memoryBytes: memory.bytes,
            downloads: counters.downloads, revalidations: counters.revalidations,
            notModified: counters.notModified, memoryHits: counters.memoryHits, diskHits: counters.diskHits,
            variantsMade: counters.variantsMade, corruptFilesRemoved: counters.corrupt,
            evictions: counters.evictions
        )
    }

    /// Empties the in-memory layer (the disk cache stays).
    public func dropMemory() {
        memory.removeAll()
    }

    /// Stops background retries, writes the index snapshot and closes the HTTP client if the
    /// cache created it. Later calls throw `ImageCacheError.shutDown`.
    public func shutdown() async {
        guard !closed else { return }
        closed = true
        for task in retryTasks.values { task.cancel() }
        retryTasks = [:]
        availabilityContinuation.finish()
        index.compact()
        index.close()
        if downloads.isEmpty && variantTasks.isEmpty {
            // Nothing half-done: the next open may skip the orphan sweep.
            try? FileIO.writeAtomically([], to: configuration.directory + "/clean-shutdown", tmpDirectory: tmpDirectory)
        }
        if ownsHTTPClient { try? await http.shutdown() }
    }

    /// The cache key: SHA-256 hex of the URL. Only absolute http(s) URLs are accepted.
    static func key(for url: String) throws -> String {
        let lower = url.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), url.utf8.count <= 8192,
            !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else {
            throw ImageCacheError.unsupportedURL(url)
        }
        return Checksum.sha256Hex(url)
    }
}

extension HTTPHeaders {
    var etag: String? { first(name: "etag") }
    var lastModified: String? { first(name: "last-modified") }
}

extension Duration {
    var nanoseconds: Int64 {
        let (s, atto) = components
        return s * 1_000_000_000 + atto / 1_000_000_000
    }
}
