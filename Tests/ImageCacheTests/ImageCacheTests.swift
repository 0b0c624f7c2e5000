// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import ImageCache
import XCTest

final class ImageCacheTests: XCTestCase {
    var server: ImageServer!
    var directory: String!
    let clock = ManualClock()
    var caches: [ImageCache] = []

    override func setUp() async throws {
        server = try ImageServer()
        directory = try makeTemporaryDirectory()
    }

    override func tearDown() async throws {
        for cache in caches { await cache.shutdown() }
        caches = []
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func configuration(_ edit: (inout ImageCacheConfiguration) -> Void = { _ in }) -> ImageCacheConfiguration {
        var config = ImageCacheConfiguration(directory: directory)
        let clock = self.clock
        config.now = { clock.now }
        config.requestTimeout = .seconds(20)
        edit(&config)
        return config
    }

    func open(_ edit: (inout ImageCacheConfiguration) -> Void = { _ in }) throws -> ImageCache {
        let cache = try ImageCache(configuration: configuration(edit))
        caches.append(cache)
        return cache
    }

    func files(_ sub: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + sub)) ?? []
    }

    // MARK: Miss, hit, revalidation, max-age

    func testMissThenMemoryHitThenDiskHitAfterReopen() async throws {
        let url = server.url("/img/a.png?w=400&h=300")
        let cache = try open()
        let first = try await cache.image(for: url, fitting: PixelSize(width: 100, height: 100))
        XCTAssertEqual(first.width, 100)
        XCTAssertEqual(first.height, 75)
        XCTAssertEqual(pngSize(first.png).map { [$0.0, $0.1] }, [100, 75])
        XCTAssertEqual(FileIOCheck.read(first.path), first.png, "the file on disk is the PNG handed out")
        XCTAssertTrue(first.fileURL.hasPrefix("file:///"))

        let second = try await cache.image(for: url, fitting: PixelSize(width: 100, height: 100))
        XCTAssertEqual(second, first)
        var stats = await cache.statistics()
        XCTAssertEqual(stats.downloads, 1)
        XCTAssertEqual(stats.memoryHits, 1)
        let downloads = try await server.counts()["/img/a.png"]
        XCTAssertEqual(downloads, 1)

        // A new process (new memory layer) reads the variant from disk without the network.
        await cache.shutdown()
        let reopened = try open()
        let third = try await reopened.image(for: url, fitting: PixelSize(width: 100, height: 100))
        XCTAssertEqual(third.png, first.png)
        stats = await reopened.statistics()
        XCTAssertEqual(stats.diskHits, 1)
        XCTAssertEqual(stats.downloads, 0)
        // Another size is a new variant from the same original, still without the network.
        let big = try await reopened.image(for: url, fitting: PixelSize(width: 1000, height: 1000))
        XCTAssertEqual([big.width, big.height], [400, 300], "never enlarged")
        let total = try await server.counts()["/img/a.png"]
        XCTAssertEqual(total, 1)

        // File names are SHA-256 hex, never the URL's text.
        for name in files("originals") {
            XCTAssertEqual(name.count, 64)
            XCTAssertTrue(name.allSatisfy { $0.isHexDigit })
        }
        XCTAssertEqual(files("variants").count, 2)
    }

    func testRevalidationWithETagAnd304() async throws {
        let url = server.url("/img/r.png?w=200&h=200&nocache=1")
        let cache = try open()
        let first = try await cache.image(for: url, fitting: PixelSize(width: 64, height: 64))
        let second = try await cache.image(for: url, fitting: PixelSize(width: 64, height: 64))
        XCTAssertEqual(second.png, first.png)
        let counts = try await server.counts()
        let conditional = try await server.conditional()
        XCTAssertEqual(counts["/img/r.png"], 2, "no-cache: every use asks the server")
        XCTAssertEqual(conditional["/img/r.png"], 1, "the second request carried the ETag")
        let stats = await cache.statistics()
        XCTAssertEqual(stats.notModified, 1)
        XCTAssertEqual(stats.downloads, 1)
        XCTAssertEqual(stats.variantsMade, 1, "a 304 keeps the variants")
    }

    func testRevalidationWithLastModifiedOnly() async throws {
        let url = server.url("/img/lm.png?noetag=1&nocache=1")
        let cache = try open()
        _ = try await cache.image(for: url, fitting: PixelSize(width: 32, height: 32))
        _ = try await cache.image(for: url, fitting: PixelSize(width: 32, height: 32))
        let stats = await cache.statistics()
        XCTAssertEqual(stats.notModified, 1)
        let conditional = try await server.conditional()
        XCTAssertEqual(conditional["/img/lm.png"], 1)
    }

    func testChangedImageReplacesOriginalAndVariants() async throws {
        let url = server.url("/img/c.png?w=120&h=120&nocache=1")
        let cache = try open()
        let before = try await cache.image(for: url, fitting: PixelSize(width: 60, height: 60))
        try await server.get("/_bump/c")
        let after = try await cache.image(for: url, fitting: PixelSize(width: 60, height: 60))
        XCTAssertNotEqual(after.png, before.png, "the new content is served, not the old variant")
        let stats = await cache.statistics()
        XCTAssertEqual(stats.downloads, 2)
        XCTAssertEqual(stats.variantsMade, 2)
        XCTAssertEqual(files("variants").count, 1)
    }

    func testMaxAgeKeepsImageFreshThenRevalidates() async throws {
        let url = server.url("/img/m.png?maxage=60")
        let cache = try open()
        _ = try await cache.image(for: url, fitting: PixelSize(width: 32, height: 32))
        clock.advance(30)
        _ = try await cache.image(for: url, fitting: PixelSize(width: 32, height: 32))
        var counts = try await server.counts()
        XCTAssertEqual(counts["/img/m.png"], 1, "fresh for 60 s: no request")
        clock.advance(31)
        _ = try await cache.image(for: url, fitting: PixelSize(width: 32, height: 32))
        counts = try await server.counts()
        let conditional = try await server.conditional()
        XCTAssertEqual(counts["/img/m.png"], 2)
        XCTAssertEqual(conditional["/img/m.png"], 1, "stale after max-age: revalidated")
        // The 304 renewed max-age.
        clock.advance(59)
        _ = try await cache.image(for: url, fitting: PixelSize(width: 32, height: 32))
        counts = try await server.counts()
        XCTAssertEqual(counts["/img/m.png"], 2)
    }

    // MARK: Eviction

    func testEvictionAtSizeBoundInLRUOrderSurvivesRestart() async throws {
        let box = PixelSize(width: 50, height: 50)
        let names = ["e1", "e2", "e3", "e4", "e5"]
        func url(_ n: String) -> String { server.url("/img/\(n).png?w=300&h=300") }
        var cache = try open()
        var sizes: [String: Int] = [:]
        var last = 0
        for n in names.prefix(3) {
            _ = try await cache.image(for: url(n), fitting: box)
            let total = await cache.statistics().diskBytes
            sizes[n] = total - last
            last = total
        }
        let limit = last + sizes["e1"]! / 2
        await cache.setMaxDiskBytes(limit)
        var contained = await cache.contains(url: url("e1"))
        XCTAssertTrue(contained)
        // Use e1 again: e2 becomes the least recently used.
        _ = try await cache.image(for: url("e1"), fitting: box)
        _ = try await cache.image(for: url("e4"), fitting: box)
        for (n, expected) in [("e1", true), ("e2", false), ("e3", true), ("e4", true)] {
            contained = await cache.contains(url: url(n))
            XCTAssertEqual(contained, expected, n)
        }
        var stats = await cache.statistics()
        XCTAssertEqual(stats.evictions, 1)
        XCTAssertLessThanOrEqual(stats.diskBytes, limit)

        // The access order is persisted: after a restart e3 is the oldest, not e1.
        await cache.shutdown()
        cache = try open { $0.maxDiskBytes = limit }
        _ = try await cache.image(for: url("e5"), fitting: box)
        for (n, expected) in [("e1", true), ("e3", false), ("e4", true), ("e5", true)] {
            contained = await cache.contains(url: url(n))
            XCTAssertEqual(contained, expected, n)
        }
        stats = await cache.statistics()
        XCTAssertLessThanOrEqual(stats.diskBytes, limit)
        XCTAssertEqual(files("originals").count, 3, "evicted files are deleted")
    }

    // MARK: Sharing and retries

    func testTwentyConcurrentRequestsShareOneDownload() async throws {
        let url = server.url("/slow/shared.png?delay=0.5&w=256&h=256")
        let cache = try open()
        let results = try await withThrowingTaskGroup(of: CachedImage.self) { group in
            for _ in 0..<20 {
                group.addTask { try await cache.image(for: url, fitting: PixelSize(width: 64, height: 64)) }
            }
            var all: [CachedImage] = []
            for try await image in group { all.append(image) }
            return all
        }
        XCTAssertEqual(results.count, 20)
        XCTAssertEqual(Set(results).count, 1)
        let counts = try await server.counts()
        XCTAssertEqual(counts["/slow/shared.png"], 1)
        let stats = await cache.statistics()
        XCTAssertEqual(stats.variantsMade, 1)
    }

    func testFailedDownloadRetriedWithBackoffWhileCallersGetTypedError() async throws {
        let url = server.url("/fail/f.png?times=2")
        let cache = try open {
            $0.retryBaseDelay = 0.2
            $0.now = ImageCacheConfiguration.systemNow
        }
        await assertThrows(try await cache.image(for: url, fitting: PixelSize(width: 32, height: 32))) {
            $0 == .httpStatus(url: url, status: 503)
        }
        // Meanwhile: a placeholder, without hammering the server.
        await assertThrows(try await cache.image(for: url, fitting: PixelSize(width: 32, height: 32))) {
            if case .temporarilyUnavailable = $0 { return true } else { return false }
        }
        // The background retries (503, then 200) announce the image.
        let announced = try await firstAnnouncement(cache, timeout: 20)
        XCTAssertEqual(announced, url)
        let image = try await cache.image(for: url, fitting: PixelSize(width: 32, height: 32))
        XCTAssertEqual(image.width, 32)
        let counts = try await server.counts()
        XCTAssertEqual(counts["/fail/f.png"], 3)
    }

    func firstAnnouncement(_ cache: ImageCache, timeout: Double) async throws -> String? {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                for await url in cache.availability { return url }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))  // hang guard only
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// Reads a file's bytes for comparisons.
enum FileIOCheck {
    static func read(_ path: String) -> [UInt8]? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { [UInt8]($0) }
    }
}
