// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import XCTest

@testable import LocalMedia

/// Where playback stopped (issue 36): identities, the rules, the file.
final class PlaybackMemoryTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func file(_ name: String, bytes: Int, seed: UInt8 = 1) throws -> String {
        let path = dir.appendingPathComponent(name).path
        var data = [UInt8](repeating: 0, count: bytes)
        var x = UInt32(seed) &* 2_654_435_761
        for i in data.indices {
            x = x &* 1_103_515_245 &+ 12345
            data[i] = UInt8(truncatingIfNeeded: x >> 16)
        }
        try Data(data).write(to: URL(fileURLWithPath: path))
        return path
    }

    var memory: PlaybackMemory { PlaybackMemory(path: dir.appendingPathComponent("state/castdeck/playback-positions.json").path) }

    // MARK: identity

    func testAMovedAndRenamedFileIsTheSameFile() throws {
        let path = try file("Film (2019).mkv", bytes: 300_000)
        let key = try PlaybackKey.file(path)
        let elsewhere = dir.appendingPathComponent("other/place")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let moved = elsewhere.appendingPathComponent("film.mkv").path
        try FileManager.default.moveItem(atPath: path, toPath: moved)
        XCTAssertEqual(try PlaybackKey.file(moved), key)
        XCTAssertEqual(try PlaybackKey.file("file://" + moved), key, "a file:// URL names the same file")
        // A copy holds the same bytes: the same film.
        let copy = dir.appendingPathComponent("copy.mkv").path
        try FileManager.default.copyItem(atPath: moved, toPath: copy)
        XCTAssertEqual(try PlaybackKey.file(copy), key)
        XCTAssertEqual(key.kind, .file)
        XCTAssertEqual(key.digest.count, 64)
    }

    func testAnEditedFileIsAnotherFile() throws {
        let path = try file("a.mp4", bytes: 300_000)
        let key = try PlaybackKey.file(path)
        // Longer (appended to), its head changed, its tail changed: not the same.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([7]))
        try handle.close()
        let longer = try PlaybackKey.file(path)
        XCTAssertNotEqual(longer, key)
        for offset in [10, 300_000 - 10] {
            let p = try file("b\(offset).mp4", bytes: 300_000)
            let before = try PlaybackKey.file(p)
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: p)))
            bytes[offset] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: p))
            XCTAssertNotEqual(try PlaybackKey.file(p), before, "a change at byte \(offset)")
        }
        // A small file is read whole.
        let small = try file("small.mp3", bytes: 100_000)
        let smallKey = try PlaybackKey.file(small)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: small)))
        bytes[50_000] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: small))
        XCTAssertNotEqual(try PlaybackKey.file(small), smallKey)
        // Different files of the same size differ.
        XCTAssertNotEqual(try PlaybackKey.file(try file("c.mp4", bytes: 300_000, seed: 9)), try PlaybackKey.file(try file("d.mp4", bytes: 300_000, seed: 8)))
    }

    func testFilesWithoutAnIdentitySayWhy() throws {
        XCTAssertThrowsError(try PlaybackKey.file(dir.appendingPathComponent("missing.mp4").path)) { error in
            XCTAssertEqual("\(error)", "missing.mp4 cannot be read: No such file or directory.")
        }
        XCTAssertThrowsError(try PlaybackKey.file(dir.path)) { error in
            XCTAssertEqual(error as? FileIdentityError, .notARegularFile(path: dir.path))
        }
        let empty = try file("empty.mp4", bytes: 0)
        XCTAssertNoThrow(try PlaybackKey.file(empty))
    }

    func testLinksAndQueuesHaveKeysOfTheirOwn() throws {
        XCTAssertEqual(PlaybackKey.link("https://example.com/a.mp4"), PlaybackKey.link(" https://example.com/a.mp4\n"))
        XCTAssertNotEqual(PlaybackKey.link("https://example.com/a.mp4"), PlaybackKey.link("https://example.com/b.mp4"))
        XCTAssertEqual(PlaybackKey.link("https://example.com/a.mp4").kind, .link)
        // A folder by its path (recursive is another queue), a playlist by what it holds.
        let folder = dir.appendingPathComponent("Album").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let a = try XCTUnwrap(PlaybackKey.queue(sources: [folder]))
        XCTAssertEqual(PlaybackKey.queue(sources: [folder + "/"]), a)
        XCTAssertNotEqual(PlaybackKey.queue(sources: [folder], recursive: true), a)
        let list = dir.appendingPathComponent("party.m3u").path
        try "a.mp3\nb.mp3\n".write(toFile: list, atomically: true, encoding: .utf8)
        let playlist = try XCTUnwrap(PlaybackKey.queue(sources: [list]))
        let movedList = dir.appendingPathComponent("Album/moved.m3u").path
        try FileManager.default.moveItem(atPath: list, toPath: movedList)
        XCTAssertEqual(PlaybackKey.queue(sources: [movedList]), playlist)
        XCTAssertNotEqual(playlist, try PlaybackKey.file(movedList), "a playlist's queue is not the playlist as a file")
        XCTAssertNil(PlaybackKey.queue(sources: [dir.appendingPathComponent("gone.m3u").path]))
        let several = PlaybackKey.queue(sources: ["https://example.com/1.mp3", "https://example.com/2.mp3"])
        XCTAssertNotNil(several)
        XCTAssertNotEqual(several, PlaybackKey.queue(sources: ["https://example.com/2.mp3", "https://example.com/1.mp3"]))
    }

    // MARK: the rules

    func testRemembersAndForgets() throws {
        let m = memory
        let key = PlaybackKey.link("https://example.com/film.mp4")
        XCTAssertNil(m.position(for: key))
        let point = try m.remember(key, at: 2530, duration: 7200)
        XCTAssertEqual(point?.position, 2530)
        XCTAssertEqual(m.position(for: key)?.position, 2530)
        XCTAssertEqual(m.position(for: key)?.duration, 7200)
        XCTAssertNil(m.position(for: .link("https://example.com/other.mp4")))
        try m.forget(key)
        XCTAssertNil(m.position(for: key))
        // Without a duration (a live stream, an unknown length) too.
        try m.remember(key, at: 60)
        XCTAssertEqual(m.position(for: key)?.position, 60)
        try m.forgetAll()
        XCTAssertTrue(m.all().isEmpty)
    }

    func testNearTheStartOrTheEndIsNotWorthRemembering() throws {
        let m = memory
        let key = PlaybackKey.link("https://example.com/film.mp4")
        try m.remember(key, at: 600, duration: 7200)
        XCTAssertNil(try m.remember(key, at: 9.5, duration: 7200), "under 10 s: starting over")
        XCTAssertNil(m.position(for: key), "and the old place is forgotten")
        try m.remember(key, at: 600, duration: 7200)
        // The last 5 % of two hours (6 minutes: the credits) is the end.
        XCTAssertNil(try m.remember(key, at: 7200 - 359, duration: 7200))
        XCTAssertNil(m.position(for: key), "watched to the end: the next cast starts over")
        XCTAssertNotNil(try m.remember(key, at: 7200 - 361, duration: 7200))
        // A short clip: at least its last 10 s.
        XCTAssertTrue(PlaybackMemory.isAtEnd(51, duration: 60))
        XCTAssertFalse(PlaybackMemory.isAtEnd(49, duration: 60))
        XCTAssertFalse(PlaybackMemory.isAtEnd(1e9, duration: nil))
        // No number: nothing changes.
        try m.remember(key, at: 1000, duration: 7200)
        XCTAssertEqual(try m.remember(key, at: .nan)?.position, 1000)
        XCTAssertEqual(try m.remember(key, at: -5)?.position, 1000)
        XCTAssertEqual(m.position(for: key)?.position, 1000)
    }

    func testAQueueRemembersItsItem() throws {
        let m = memory
        let key = try XCTUnwrap(PlaybackKey.queue(sources: ["https://example.com/1.mp3", "https://example.com/2.mp3", "https://example.com/3.mp3"]))
        XCTAssertEqual(
            try m.remember(key, at: 70, duration: 180, item: 1, of: 3),
            ResumePoint(position: 70, duration: 180, item: 1, savedAt: m.position(for: key)!.savedAt))
        // The start of an item after the first: that item from its start.
        XCTAssertEqual(try m.remember(key, at: 3, duration: 180, item: 2, of: 3)?.item, 2)
        XCTAssertEqual(m.position(for: key)?.position, 0)
        // The end of an item: the next one; the end of the last: forgotten.
        XCTAssertEqual(try m.remember(key, at: 179, duration: 180, item: 1, of: 3)?.item, 2)
        XCTAssertNil(try m.remember(key, at: 179, duration: 180, item: 2, of: 3))
        XCTAssertNil(m.position(for: key))
        XCTAssertNil(try m.remember(key, at: 4, duration: 180, item: 0, of: 3), "the first seconds of the first item")
    }

    func testEntriesOlderThanNinetyDaysAreDropped() throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let m = PlaybackMemory(path: memory.path, now: { clock.now })
        let old = PlaybackKey.link("https://example.com/old.mp4")
        let young = PlaybackKey.link("https://example.com/young.mp4")
        try m.remember(old, at: 100)
        clock.advance(days: 60)
        try m.remember(young, at: 200)
        clock.advance(days: 31)
        XCTAssertNil(m.position(for: old), "91 days old")
        XCTAssertEqual(m.position(for: young)?.position, 200)
        // Writing drops it from the file too.
        try m.remember(young, at: 300)
        let text = try String(contentsOfFile: m.path, encoding: .utf8)
        XCTAssertFalse(text.contains(old.digest))
        XCTAssertEqual(m.all().count, 1)
    }

    func testOnlyTheMostRecentEntriesAreKept() throws {
        XCTAssertEqual(memory.capacity, 1000)
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let m = PlaybackMemory(path: memory.path, capacity: 5, now: { clock.now })
        for i in 0..<6 {
            clock.advance(seconds: 1)
            try m.remember(.link("https://example.com/\(i).mp4"), at: 100)
        }
        XCTAssertEqual(m.all().count, 5)
        XCTAssertNil(m.position(for: .link("https://example.com/0.mp4")), "the oldest went")
        XCTAssertNotNil(m.position(for: .link("https://example.com/5.mp4")))
    }
}

/// A wall clock tests move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date
    init(_ date: Date) { self.date = date }
    var now: Date { lock.withLock { date } }
    func advance(days: Double = 0, seconds: Double = 0) { lock.withLock { date += days * 86400 + seconds } }
}
