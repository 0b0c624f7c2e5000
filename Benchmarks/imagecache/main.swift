// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// ImageCache benchmark: prints figures, each next to a peer measured in the same run.
//   castdeck-bench-imagecache [--iterations N]
// 1. Hit latency (path lookup + decoded thumbnail ready), median and p99: memory-layer hits,
//    disk hits (variant file read + SHA-256 check), and a disk hit plus decoding the PNG to
//    pixels with gdk-pixbuf (what the GUI does to make a texture).
// 2. Time to open a cache holding 10,000 entries (index + journal read, orphan sweep), next to
//    just reading the index file.
// 3. Miss-path overhead: a cache miss (download + fsync + rename + decode + scale + PNG + index)
//    against a raw download of the same kind of image from the same loopback server.
// The HTTP server is Tests/ImageCacheTests/Fixtures/image_server.py (python3).

import AsyncHTTPClient
import CGdkPixbuf
import Foundation
@_spi(Benchmark) import ImageCache

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
var iterations = 2000
if let i = CommandLine.arguments.firstIndex(of: "--iterations"), i + 1 < CommandLine.arguments.count,
    let n = Int(CommandLine.arguments[i + 1])
{
    iterations = n
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func ms(_ ns: UInt64) -> String { String(format: "%.3f ms", Double(ns) / 1e6) }
func us(_ ns: UInt64) -> String { String(format: "%.1f µs", Double(ns) / 1e3) }
func percentile(_ values: [UInt64], _ p: Double) -> UInt64 {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}

// MARK: Server

let python =
    FileManager.default.isExecutableFile(atPath: root.appendingPathComponent(".venv/bin/python").path)
    ? root.appendingPathComponent(".venv/bin/python").path : "/usr/bin/python3"
let server = Process()
server.executableURL = URL(fileURLWithPath: python)
server.arguments = [root.appendingPathComponent("Tests/ImageCacheTests/Fixtures/image_server.py").path]
let serverOut = Pipe()
server.standardOutput = serverOut
try server.run()
defer { server.terminate() }
var banner = ""
while !banner.contains("\n") {
    let data = serverOut.fileHandleForReading.availableData
    if data.isEmpty { break }
    banner += String(decoding: data, as: UTF8.self)
}
guard let portLine = banner.split(separator: "\n").first, let port = Int(portLine.dropFirst(5)) else {
    fatalError("image server did not start: \(banner)")
}
func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-bench-imagecache-\(getpid())").path
defer { try? FileManager.default.removeItem(atPath: scratch) }

/// One comparison for the summary table of Benchmarks/run.sh (times in ms, lower is better).
func benchResult(_ name: String, _ ours: Double, _ peer: Double, _ peerName: String) {
    print(#"bench-result: {"area":"imagecache","name":"\#(name)","ours":\#(ours),"peer":\#(peer),"peer_name":"\#(peerName)","unit":"ms","better":"lower"}"#)
}
print("ImageCache benchmark (\(iterations) hit iterations)")

// MARK: 1. Hit latency

let thumb = PixelSize(width: 96, height: 96)
do {
    let cache = try ImageCache(configuration: ImageCacheConfiguration(directory: scratch + "/hits"))
    let artURL = url("/img/hit.png?w=1000&h=1000")
    _ = try await cache.image(for: artURL, fitting: thumb)  // miss: fills disk and memory

    var memory: [UInt64] = []
    for _ in 0..<iterations {
        let t0 = now()
        let image = try await cache.image(for: artURL, fitting: thumb)
        precondition(image.width == 96)
        memory.append(now() - t0)
    }
    var disk: [UInt64] = []
    for _ in 0..<iterations {
        await cache.dropMemory()
        let t0 = now()
        let image = try await cache.image(for: artURL, fitting: thumb)
        precondition(image.png.count > 0)
        disk.append(now() - t0)
    }
    var diskDecoded: [UInt64] = []
    for _ in 0..<iterations {
        await cache.dropMemory()
        let t0 = now()
        let image = try await cache.image(for: artURL, fitting: thumb)
        let pixbuf = image.png.withUnsafeBufferPointer { buf -> OpaquePointer? in
            let loader = gdk_pixbuf_loader_new()
            defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
            guard gdk_pixbuf_loader_write(loader, buf.baseAddress, gsize(buf.count), nil) != 0,
                gdk_pixbuf_loader_close(loader, nil) != 0, let p = gdk_pixbuf_loader_get_pixbuf(loader)
            else { return nil }
            g_object_ref(UnsafeMutableRawPointer(p))
            return p
        }
        precondition(pixbuf != nil)
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        diskDecoded.append(now() - t0)
    }
    print("1. hit latency, 96x96 thumbnail of a 1000x1000 PNG:")
    print("   memory hit              median \(us(percentile(memory, 0.5)))  p99 \(us(percentile(memory, 0.99)))")
    print("   disk hit (read+SHA-256) median \(us(percentile(disk, 0.5)))  p99 \(us(percentile(disk, 0.99)))")
    print("   disk hit + PNG->pixels  median \(us(percentile(diskDecoded, 0.5)))  p99 \(us(percentile(diskDecoded, 0.99)))")
    await cache.shutdown()
}

// MARK: 2. Open with 10,000 entries

do {
    let dir = scratch + "/open"
    let original = [UInt8](repeating: 7, count: 2048)
    let variant = [UInt8](repeating: 9, count: 1024)
    let t0 = now()
    try ImageCache.seedSyntheticEntries(
        directory: dir, count: 10_000, original: original, variant: variant,
        variantSize: thumb)
    let seeded = now() - t0
    var opens: [UInt64] = []
    var reads: [UInt64] = []
    var entries = 0
    for _ in 0..<7 {
        let r0 = now()
        let raw = try Data(contentsOf: URL(fileURLWithPath: dir + "/index"))
        precondition(raw.count > 0)
        reads.append(now() - r0)
        let o0 = now()
        let cache = try ImageCache(configuration: ImageCacheConfiguration(directory: dir))
        opens.append(now() - o0)
        entries = await cache.statistics().entries
        await cache.shutdown()
    }
    var sweeps: [UInt64] = []
    for _ in 0..<3 {
        try? FileManager.default.removeItem(atPath: dir + "/clean-shutdown")  // as after a crash
        let o0 = now()
        let cache = try ImageCache(configuration: ImageCacheConfiguration(directory: dir))
        sweeps.append(now() - o0)
        await cache.shutdown()
    }
    let indexBytes = (try? FileManager.default.attributesOfItem(atPath: dir + "/index")[.size] as? Int) ?? 0
    print("2. open a cache of \(entries) entries (index \(indexBytes / 1024) KiB, seeded in \(ms(seeded))):")
    print("   open after clean shutdown (index + journal parse) median \(ms(percentile(opens, 0.5)))  max \(ms(opens.max()!))")
    print("   open after a crash (+ orphan sweep of 20,000 files) median \(ms(percentile(sweeps, 0.5)))")
    print("   peer: read the index file only    median \(ms(percentile(reads, 0.5)))")
    benchResult("open a cache of 10,000 entries", Double(percentile(opens, 0.5)) / 1e6, Double(percentile(reads, 0.5)) / 1e6, "reading the index file only")
}

// MARK: 3. Miss-path overhead

do {
    let cache = try ImageCache(configuration: ImageCacheConfiguration(directory: scratch + "/miss"))
    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
    let rounds = 40
    var raw: [UInt64] = []
    var miss: [UInt64] = []
    // Warm-up: let the server make (and keep) every PNG first, so both sides only transfer bytes.
    for i in 0..<rounds {
        for name in ["raw\(i)", "miss\(i)"] {
            let response = try await client.execute(HTTPClientRequest(url: url("/img/\(name).png?w=600&h=600")), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 20 << 20)
        }
    }
    for i in 0..<rounds {
        // Same size and kind of image for both; different names so every cache request is a miss.
        let r0 = now()
        let response = try await client.execute(HTTPClientRequest(url: url("/img/raw\(i).png?w=600&h=600")), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 20 << 20)
        precondition(body.readableBytes > 0)
        raw.append(now() - r0)

        let m0 = now()
        let image = try await cache.image(for: url("/img/miss\(i).png?w=600&h=600"), fitting: thumb)
        precondition(image.width == 96)
        miss.append(now() - m0)
    }
    try await client.shutdown()
    let stats = await cache.statistics()
    await cache.shutdown()
    let rawMedian = percentile(raw, 0.5)
    let missMedian = percentile(miss, 0.5)
    benchResult("miss: 600×600 PNG → 96×96 thumbnail", Double(missMedian) / 1e6, Double(rawMedian) / 1e6, "the raw download alone")
    print("3. miss path, 600x600 PNG -> 96x96 thumbnail, \(rounds) rounds (\(stats.downloads) downloads):")
    print("   raw download (peer)  median \(ms(rawMedian))")
    print("   cache miss           median \(ms(missMedian))")
    print(
        String(
            format: "   overhead             median +%@ (%.1fx the raw download)",
            ms(missMedian > rawMedian ? missMedian - rawMedian : 0), Double(missMedian) / Double(rawMedian)))
}
