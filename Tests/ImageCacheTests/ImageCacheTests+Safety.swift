// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import ImageCache
import XCTest

extension ImageCacheTests {
    // MARK: Safety

    func testThirtyMegabyteResponsesAreRefused() async throws {
        let cache = try open()
        for path in ["/huge.png", "/huge-chunked.png"] {
            let url = server.url(path)
            await assertThrows(try await cache.image(for: url, fitting: PixelSize(width: 64, height: 64))) {
                $0 == .tooLarge(url: url, limitBytes: 20_000_000)
            }
            let contained = await cache.contains(url: url)
            XCTAssertFalse(contained)
        }
        XCTAssertEqual(files("tmp"), [], "the partial body is deleted")
        XCTAssertEqual(files("originals"), [])
    }

    func testDecompressionBombIsRefusedFromItsHeader() async throws {
        let url = server.url("/bomb.png")
        let cache = try open()
        await assertThrows(try await cache.image(for: url, fitting: PixelSize(width: 64, height: 64))) {
            $0 == .tooManyPixels(url: url, width: 20000, height: 20000, limitPixels: 50_000_000)
        }
        let contained = await cache.contains(url: url)
        XCTAssertFalse(contained)
        XCTAssertEqual(files("originals"), [])
    }

    func testOnlyImagesAreAccepted() async throws {
        let cache = try open()
        let text = server.url("/text.png")
        await assertThrows(try await cache.image(for: text, fitting: PixelSize(width: 8, height: 8))) {
            $0 == .notAnImage(url: text, contentType: "text/html")
        }
        let garbage = server.url("/garbage.png")
        await assertThrows(try await cache.image(for: garbage, fitting: PixelSize(width: 8, height: 8))) {
            if case .undecodable = $0 { return true } else { return false }
        }
        let missing = server.url("/nothing-here.png")
        await assertThrows(try await cache.image(for: missing, fitting: PixelSize(width: 8, height: 8))) {
            $0 == .httpStatus(url: missing, status: 404)
        }
        for bad in ["file:///etc/passwd", "ftp://127.0.0.1/a.png", "/img/a.png", "http://h/a b.png"] {
            await assertThrows(try await cache.image(for: bad, fitting: PixelSize(width: 8, height: 8))) {
                $0 == .unsupportedURL(bad)
            }
        }
        XCTAssertEqual(files("originals"), [])
    }

    func testRedirectsAreLimited() async throws {
        let cache = try open()
        let ok = try await cache.image(for: server.url("/redirect/2/r.png"), fitting: PixelSize(width: 16, height: 16))
        XCTAssertEqual(ok.width, 16)
        for path in ["/redirect/6/r.png", "/loop.png"] {
            let url = server.url(path)
            await assertThrows(try await cache.image(for: url, fitting: PixelSize(width: 16, height: 16))) {
                $0 == .tooManyRedirects(url: url, limit: 3)
            }
        }
    }

    // MARK: Damage

    func testTruncatedVariantIsDetectedAndMadeAgain() async throws {
        let url = server.url("/img/tv.png?w=500&h=500")
        var cache = try open()
        let good = try await cache.image(for: url, fitting: PixelSize(width: 200, height: 200))
        await cache.shutdown()
        try truncate(good.path, keeping: 40)

        cache = try open()
        let again = try await cache.image(for: url, fitting: PixelSize(width: 200, height: 200))
        XCTAssertEqual(again.png, good.png)
        XCTAssertEqual(FileIOCheck.read(again.path), good.png)
        let stats = await cache.statistics()
        XCTAssertEqual(stats.corruptFilesRemoved, 1)
        XCTAssertEqual(stats.variantsMade, 1)
        let counts = try await server.counts()
        XCTAssertEqual(counts["/img/tv.png"], 1, "the original was intact: no new download")
    }

    func testTruncatedOriginalIsDetectedRemovedAndFetchedAgain() async throws {
        let url = server.url("/img/to.png?w=500&h=500")
        var cache = try open()
        _ = try await cache.image(for: url, fitting: PixelSize(width: 100, height: 100))
        await cache.shutdown()
        let original = try XCTUnwrap(files("originals").first)
        try truncate(directory + "/originals/" + original, keeping: 100)

        cache = try open()
        let other = try await cache.image(for: url, fitting: PixelSize(width: 300, height: 300))
        XCTAssertEqual([other.width, other.height], [300, 300])
        let stats = await cache.statistics()
        XCTAssertEqual(stats.corruptFilesRemoved, 1)
        XCTAssertEqual(stats.downloads, 1)
        let counts = try await server.counts()
        XCTAssertEqual(counts["/img/to.png"], 2)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: directory + "/originals/" + original)).count > 100, true)
    }

    func testTornJournalLineAndStrayFilesAreIgnored() async throws {
        let url = server.url("/img/j.png")
        var cache = try open()
        _ = try await cache.image(for: url, fitting: PixelSize(width: 10, height: 10))
        await cache.shutdown()
        // A crash in the middle of a journal line, plus files no index entry names.
        let journal = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/journal"))
        journal.seekToEndOfFile()
        journal.write(Data("E\t\(String(repeating: "a", count: 64))\t99\t12".utf8))
        try journal.close()
        FileManager.default.createFile(atPath: directory + "/originals/" + String(repeating: "b", count: 64), contents: Data("x".utf8))
        FileManager.default.createFile(atPath: directory + "/tmp/2147483000-1-1.part", contents: Data("half".utf8))
        // As after a crash: the session did not end with shutdown(), so the next open sweeps.
        try FileManager.default.removeItem(atPath: directory + "/clean-shutdown")

        cache = try open()
        let contained = await cache.contains(url: url)
        XCTAssertTrue(contained)
        let stats = await cache.statistics()
        XCTAssertEqual(stats.entries, 1)
        XCTAssertEqual(files("originals").count, 1)
        XCTAssertEqual(files("tmp"), [])
        let image = await cache.cachedImage(for: url, fitting: PixelSize(width: 10, height: 10))
        XCTAssertNotNil(image)
    }

    // MARK: Crash safety

    func testProcessKilledWhileWritingLeavesNothingServedLater() async throws {
        let writer = try helperExecutable("imagecache-writer")
        let finished = [server.url("/img/k1.png"), server.url("/img/k2.png")]
        let slow = server.url("/trickle/k3.png?seconds=30")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: writer)
        process.arguments = [directory] + finished + [slow]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        defer { stopProcess(process) }

        // Wait until both small images are stored and the slow one is half written in tmp/.
        let deadline = Date().addingTimeInterval(60)  // hang guard
        var output = ""
        var halfWritten = false
        while Date() < deadline {
            if output.components(separatedBy: "done ").count - 1 < 2 {
                output += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            }
            let partial = files("tmp").compactMap { try? FileManager.default.attributesOfItem(atPath: directory + "/tmp/" + $0)[.size] as? Int }
            if output.components(separatedBy: "done ").count - 1 >= 2, partial.contains(where: { $0 > 100_000 }) {
                halfWritten = true
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        XCTAssertTrue(halfWritten, "writer output: \(output)")
        stopProcess(process)
        XCTAssertFalse(process.isRunning)
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)

        let cache = try open()
        XCTAssertEqual(files("tmp"), [], "the half file is removed on open")
        let partialServed = await cache.cachedImage(for: slow, fitting: PixelSize(width: 64, height: 64))
        XCTAssertNil(partialServed)
        let partialKnown = await cache.contains(url: slow)
        XCTAssertFalse(partialKnown)
        for url in finished {
            let kept = await cache.cachedImage(for: url, fitting: PixelSize(width: 64, height: 64))
            XCTAssertNotNil(kept, "completed writes survive the kill")
        }
        // The slow image is fetched again in full.
        let full = try await cache.image(for: slow, fitting: PixelSize(width: 64, height: 64))
        XCTAssertEqual([full.width, full.height], [64, 45])
        let counts = try await server.counts()
        XCTAssertEqual(counts["/trickle/k3.png"], 2)
        XCTAssertEqual(counts["/img/k1.png"], 1)
    }

    // MARK: Helpers

    func truncate(_ path: String, keeping bytes: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(bytes))
        try handle.close()
    }

    func helperExecutable(_ name: String) throws -> String {
        let me = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var dir = me.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw NSError(
            domain: "ImageCacheTests", code: 2,
            userInfo: [NSLocalizedDescriptionKey: "helper \(name) not built next to \(me.path); run `swift build --build-tests` first"])
    }
}
