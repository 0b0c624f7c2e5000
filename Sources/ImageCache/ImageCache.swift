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

import AsyncHTTPClient
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

    private let availabilityContinuation: AsyncStream<String>.Continuation
    private let http: HTTPClient
    private let ownsHTTPClient: Bool
    private let originalsDirectory: String
    private let variantsDirectory: String
    private let tmpDirectory: String
    private let index: CacheIndex
    private var maxDiskBytes: Int
    private var memory: MemoryLayer
    private var downloads: [String: Task<Void, Error>] = [:]
    private var variantTasks: [VariantKey: Task<CachedImage, Error>] = [:]
    private var failures: [String: FailureState] = [:]
    private var retryTasks: [String: Task<Void, Never>] = [:]
    private var counters = Counters()
    private var closed = false

    private struct FailureState {
        var attempts: Int
        var nextAttempt: Double
        var error: ImageCacheError
    }

    private struct Counters {
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
                timeout: .init(connect: .nanoseconds(Int64(configuration.connectTimeout.nanoseconds)),
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
    public func image(from images: [CastImage], for request: ImageRequest,
                      picker: any ImagePicker = DefaultImagePicker()) async throws -> CachedImage? {
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

    // MARK: Originals

    private func ensureOriginal(url: String, key: String, ignoreBackoff: Bool) async throws {
        if let running = downloads[key] {
            do {
                try await running.value
            } catch let error as ImageCacheError {
                if index.entries[key] != nil && error.isTransient { return }  // stale copy
                throw error
            }
            return
        }
        let now = configuration.now()
        let entry = index.entries[key]
        if let entry, entry.expiresAt > now { return }
        if !ignoreBackoff, let failure = failures[key], failure.nextAttempt > now {
            if entry != nil { return }  // server unreachable: keep showing the stale copy
            throw ImageCacheError.temporarilyUnavailable(
                url: url, reason: failure.error.description, retryInSeconds: failure.nextAttempt - now)
        }
        let task = Task { try await self.fetchOriginal(url: url, key: key) }
        downloads[key] = task
        let result = await task.result
        if downloads[key] == task { downloads[key] = nil }
        switch result {
        case .success:
            failures[key] = nil
        case .failure(let error):
            let typed = error as? ImageCacheError ?? .downloadFailed(url: url, reason: String(describing: error))
            recordFailure(url: url, key: key, typed)
            if index.entries[key] != nil && typed.isTransient { return }
            throw typed
        }
    }

    private func fetchOriginal(url: String, key: String) async throws {
        var validators = index.entries[key]
        // Send validators only for a complete file; a damaged one must come back in full.
        if let entry = validators, FileIO.size(originalPath(key)) != entry.bytes { validators = nil }
        if validators != nil { counters.revalidations += 1 }
        let outcome = try await HTTPImageDownload.run(
            http: http, url: url, etag: validators?.etag, lastModified: validators?.lastModified,
            maxBytes: configuration.maxImageBytes, maxRedirects: configuration.maxRedirects,
            timeout: configuration.requestTimeout, tmpDirectory: tmpDirectory)
        let now = configuration.now()
        switch outcome {
        case .notModified(let headers):
            guard let entry = index.entries[key], validators != nil else {
                throw ImageCacheError.downloadFailed(url: url, reason: "the server answered 304 to an unconditional request")
            }
            counters.notModified += 1
            index.refresh(key: key, fetchedAt: now,
                          expiresAt: Self.expiry(headers: headers, now: now, fallback: configuration.defaultFreshness),
                          etag: headers.etag ?? entry.etag, lastModified: headers.lastModified ?? entry.lastModified)
        case .fetched(let body):
            counters.downloads += 1
            // Refuse what gdk-pixbuf cannot read or what is too large to decode, before storing it.
            guard let size = PixbufDecoder.headerSize(path: body.file.path) else {
                body.file.discard()
                throw ImageCacheError.undecodable(url: url, reason: "not an image format gdk-pixbuf can read")
            }
            let pixels = size.width.multipliedReportingOverflow(by: size.height)
            if pixels.overflow || pixels.partialValue > configuration.maxDecodedPixels {
                body.file.discard()
                removeEntry(key)
                throw ImageCacheError.tooManyPixels(url: url, width: size.width, height: size.height,
                                                    limitPixels: configuration.maxDecodedPixels)
            }
            removeEntry(key)
            do {
                try body.file.commit(to: originalPath(key))
            } catch {
                throw ImageCacheError.storage(path: configuration.directory, reason: String(describing: error))
            }
            index.put(EntryRecord(
                key: key, tick: index.nextTick(), bytes: body.bytes, checksum: body.checksum, fetchedAt: now,
                expiresAt: Self.expiry(headers: body.headers, now: now, fallback: configuration.defaultFreshness),
                etag: body.headers.etag, lastModified: body.headers.lastModified, contentType: body.contentType))
            evictIfNeeded(protecting: key)
        }
    }

    private func recordFailure(url: String, key: String, _ error: ImageCacheError) {
        var state = failures[key] ?? FailureState(attempts: 0, nextAttempt: 0, error: error)
        state.attempts += 1
        state.error = error
        let delay = min(configuration.retryBaseDelay * Double(1 << min(state.attempts - 1, 20)), configuration.retryMaxDelay)
        state.nextAttempt = configuration.now() + delay
        failures[key] = state
        guard error.isTransient, state.attempts <= configuration.maxRetries, retryTasks[key] == nil, !closed else { return }
        retryTasks[key] = Task {
            try? await Task.sleep(for: .seconds(delay))
            await self.retry(url: url, key: key)
        }
    }

    private func retry(url: String, key: String) async {
        retryTasks[key] = nil
        guard !closed, !Task.isCancelled else { return }
        do {
            try await ensureOriginal(url: url, key: key, ignoreBackoff: true)
            if failures[key] == nil { availabilityContinuation.yield(url) }
        } catch {
            // recordFailure has scheduled the next attempt, if any are left.
        }
    }

    // MARK: Variants

    private func variant(url: String, key: String, box: PixelSize) async throws -> CachedImage {
        let vkey = VariantKey(key: key, box: box)
        if let running = variantTasks[vkey] { return try await running.value }
        let task = Task { try await self.makeVariant(url: url, key: key, box: box, allowRefetch: true) }
        variantTasks[vkey] = task
        let result = await task.result
        if variantTasks[vkey] == task { variantTasks[vkey] = nil }
        return try result.get()
    }

    private enum DecodeOutcome: Sendable {
        case scaled(PixbufDecoder.Scaled)
        case corruptOriginal
        case tooManyPixels(width: Int, height: Int)
        case undecodable(String)
    }

    private func makeVariant(url: String, key: String, box: PixelSize, allowRefetch: Bool) async throws -> CachedImage {
        guard let entry = index.entries[key] else {
            if allowRefetch {
                try await ensureOriginal(url: url, key: key, ignoreBackoff: false)
                return try await makeVariant(url: url, key: key, box: box, allowRefetch: false)
            }
            throw ImageCacheError.downloadFailed(url: url, reason: "the cached copy was removed while it was decoded; try again")
        }
        let path = originalPath(key)
        let maxPixels = configuration.maxDecodedPixels
        let expectedBytes = entry.bytes
        let expectedChecksum = entry.checksum
        let outcome: DecodeOutcome = await Task.detached {
            guard let bytes = FileIO.read(path), bytes.count == expectedBytes,
                  Checksum.sha256Hex(bytes) == expectedChecksum else { return .corruptOriginal }
            do throws(PixbufDecoder.Failure) {
                return .scaled(try PixbufDecoder.scaledPNG(path: path, box: box, maxPixels: maxPixels))
            } catch {
                switch error {
                case .tooManyPixels(let w, let h): return .tooManyPixels(width: w, height: h)
                case .undecodable(let reason): return .undecodable(reason)
                }
            }
        }.value

        let scaled: PixbufDecoder.Scaled
        switch outcome {
        case .scaled(let s):
            scaled = s
        case .corruptOriginal:
            counters.corrupt += 1
            removeEntry(key)
            guard allowRefetch else {
                throw ImageCacheError.undecodable(url: url, reason: "the downloaded file was damaged twice")
            }
            try await ensureOriginal(url: url, key: key, ignoreBackoff: true)
            return try await makeVariant(url: url, key: key, box: box, allowRefetch: false)
        case .tooManyPixels(let w, let h):
            removeEntry(key)
            throw ImageCacheError.tooManyPixels(url: url, width: w, height: h, limitPixels: maxPixels)
        case .undecodable(let reason):
            counters.corrupt += 1
            removeEntry(key)
            throw ImageCacheError.undecodable(url: url, reason: reason)
        }

        // The original may have been replaced or evicted while decoding ran off the actor.
        guard index.entries[key]?.checksum == expectedChecksum else {
            if allowRefetch { return try await makeVariant(url: url, key: key, box: box, allowRefetch: false) }
            throw ImageCacheError.downloadFailed(url: url, reason: "the image changed while it was decoded; try again")
        }
        let target = variantPath(key, box)
        do {
            try FileIO.writeAtomically(scaled.png, to: target, tmpDirectory: tmpDirectory)
        } catch {
            throw ImageCacheError.storage(path: configuration.directory, reason: String(describing: error))
        }
        index.addVariant(key: key, VariantRecord(box: box, width: scaled.width, height: scaled.height,
                                                 bytes: scaled.png.count, checksum: Checksum.sha256Hex(scaled.png)))
        index.touch(key)
        counters.variantsMade += 1
        evictIfNeeded(protecting: key)
        let image = CachedImage(sourceURL: url, path: target, width: scaled.width, height: scaled.height, png: scaled.png)
        memory.put(VariantKey(key: key, box: box), image)
        return image
    }

    /// A variant from disk, after checking its size and SHA-256 against the index; a damaged file
    /// is removed (and made again by the caller).
    private func readVariant(url: String, key: String, box: PixelSize) -> CachedImage? {
        guard let record = index.entries[key]?.variants[box] else { return nil }
        let path = variantPath(key, box)
        guard let bytes = FileIO.read(path), bytes.count == record.bytes,
              Checksum.sha256Hex(bytes) == record.checksum else {
            counters.corrupt += 1
            FileIO.remove(path)
            index.removeVariant(key: key, box: box)
            memory.remove(VariantKey(key: key, box: box))
            return nil
        }
        return CachedImage(sourceURL: url, path: path, width: record.width, height: record.height, png: bytes)
    }

    // MARK: Housekeeping

    private func removeEntry(_ key: String) {
        Self.deleteEntry(key, index: index, originals: originalsDirectory, variants: variantsDirectory)
        memory.removeAll(forKey: key)
    }

    private static func deleteEntry(_ key: String, index: CacheIndex, originals: String, variants: String) {
        if let entry = index.entries[key] {
            for box in entry.variants.keys { FileIO.remove(variants + "/" + variantName(key, box)) }
        }
        FileIO.remove(originals + "/" + key)
        index.remove(key)
    }

    /// Removes least recently used entries until the disk bound holds. The entry just written is
    /// kept even if it alone is over the bound, so the caller still gets its image.
    private func evictIfNeeded(protecting protected: String?) {
        guard index.totalBytes > maxDiskBytes else { return }
        for key in index.keysByAge() {
            if index.totalBytes <= maxDiskBytes { break }
            if key == protected || downloads[key] != nil { continue }
            removeEntry(key)
            counters.evictions += 1
        }
    }

    /// Files in originals/ and variants/ the index does not list: left by a crash between the
    /// rename and the journal write, or by an index that was lost. They are never served.
    private static func removeOrphans(index: CacheIndex, originals: String, variants: String) {
        for name in FileIO.list(originals) where index.entries[name] == nil {
            FileIO.remove(originals + "/" + name)
        }
        for name in FileIO.list(variants) {
            if let (key, box) = parseVariantName(name), index.entries[key]?.variants[box] != nil { continue }
            FileIO.remove(variants + "/" + name)
        }
    }

    /// Half-written files from processes that died; recent files of a live process (another
    /// CastDeck sharing the cache) are left alone.
    private static func removeAbandonedTemporaryFiles(in directory: String) {
        let me = getpid()
        let hourAgo = Int(ImageCacheConfiguration.systemNow()) - 3600
        for name in FileIO.list(directory) {
            if let pid = name.split(separator: "-").first.flatMap({ Int32($0) }), pid != me, kill(pid, 0) == 0,
               let modified = FileIO.modificationTime(directory + "/" + name), modified > hourAgo {
                continue
            }
            FileIO.remove(directory + "/" + name)
        }
    }

    private func originalPath(_ key: String) -> String { originalsDirectory + "/" + key }

    private func variantPath(_ key: String, _ box: PixelSize) -> String {
        variantsDirectory + "/" + Self.variantName(key, box)
    }

    private static func variantName(_ key: String, _ box: PixelSize) -> String {
        "\(key)-\(box.width)x\(box.height).png"
    }

    private static func parseVariantName(_ name: String) -> (String, PixelSize)? {
        guard name.hasSuffix(".png") else { return nil }
        let parts = name.dropLast(4).split(separator: "-")
        guard parts.count == 2, CacheIndex.isKey(String(parts[0])) else { return nil }
        let dims = parts[1].split(separator: "x")
        guard dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]) else { return nil }
        return (String(parts[0]), PixelSize(width: w, height: h))
    }

    /// The cache key: SHA-256 hex of the URL. Only absolute http(s) URLs are accepted.
    static func key(for url: String) throws -> String {
        let lower = url.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), url.utf8.count <= 8192,
              !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw ImageCacheError.unsupportedURL(url)
        }
        return Checksum.sha256Hex(url)
    }

    private static func clamp(_ box: PixelSize) -> PixelSize {
        PixelSize(width: min(max(box.width, 1), 8192), height: min(max(box.height, 1), 8192))
    }

    /// Until when a response stays fresh: Cache-Control max-age (minus Age), immediately stale for
    /// no-cache / no-store, else `fallback` seconds.
    static func expiry(headers: HTTPHeaders, now: Double, fallback: Double) -> Double {
        let directives = headers["cache-control"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: " \t").lowercased() }
        if directives.contains(where: { $0 == "no-cache" || $0 == "no-store" }) { return now }
        if let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }).flatMap({ Double($0.dropFirst(8)) }) {
            let age = headers.first(name: "age").flatMap(Double.init) ?? 0
            return now + max(0, maxAge - age)
        }
        return now + fallback
    }
}

struct VariantKey: Hashable {
    var key: String
    var box: PixelSize
}

/// The in-memory layer: PNG bytes of recently used variants, bounded in bytes, LRU.
struct MemoryLayer {
    let limit: Int
    private(set) var bytes = 0
    private var items: [VariantKey: (image: CachedImage, tick: UInt64)] = [:]
    private var tick: UInt64 = 0

    init(limit: Int) { self.limit = limit }

    mutating func get(_ key: VariantKey) -> CachedImage? {
        guard let item = items[key] else { return nil }
        tick += 1
        items[key]?.tick = tick
        return item.image
    }

    mutating func put(_ key: VariantKey, _ image: CachedImage) {
        guard image.png.count <= limit else { return }
        remove(key)
        tick += 1
        items[key] = (image, tick)
        bytes += image.png.count
        while bytes > limit, let oldest = items.min(by: { $0.value.tick < $1.value.tick })?.key {
            remove(oldest)
        }
    }

    mutating func remove(_ key: VariantKey) {
        if let old = items.removeValue(forKey: key) { bytes -= old.image.png.count }
    }

    mutating func removeAll(forKey key: String) {
        for k in items.keys where k.key == key { remove(k) }
    }

    mutating func removeAll() {
        items = [:]
        bytes = 0
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return s
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
