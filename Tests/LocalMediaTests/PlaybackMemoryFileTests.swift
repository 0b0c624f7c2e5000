// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import XCTest

@testable import LocalMedia

/// The state file of PlaybackMemory: private, atomic, tolerant of what it finds.
final class PlaybackMemoryFileTests: XCTestCase {
    var dir: URL!
    var memory: PlaybackMemory!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("resume-file-\(UUID().uuidString)")
        memory = PlaybackMemory(path: dir.appendingPathComponent("castdeck/playback-positions.json").path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir.appendingPathComponent("castdeck").path)
        try? FileManager.default.removeItem(at: dir)
    }

    let key = PlaybackKey.link("https://example.com/film.mp4")

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testTheFileIsPrivate() throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: memory.path))
        XCTAssertNil(memory.position(for: key), "no file: nothing remembered")
        try memory.remember(key, at: 100, duration: 1000)
        XCTAssertEqual(try mode(memory.path), 0o600)
        XCTAssertEqual(try mode((memory.path as NSString).deletingLastPathComponent), 0o700, "the folder it makes")
        // A file someone made readable by all is replaced by a private one.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: memory.path)
        try memory.remember(key, at: 200, duration: 1000)
        XCTAssertEqual(try mode(memory.path), 0o600)
        // It names no address: keys are digests.
        let text = try String(contentsOfFile: memory.path, encoding: .utf8)
        XCTAssertFalse(text.contains("example.com"))
        XCTAssertTrue(text.contains("\"link:\(key.digest)\""), text)
        // No temporary file is left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: (memory.path as NSString).deletingLastPathComponent)
        XCTAssertEqual(Set(left), ["playback-positions.json", "playback-positions.json.lock"])
    }

    func testACorruptFileStartsEmptyAndIsKeptAside() throws {
        try FileManager.default.createDirectory(atPath: (memory.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        for garbage in ["", "{", "not json at all", "[1,2,3]", "{\"entries\": 5}", "\u{0}\u{1}\u{2}"] {
            try garbage.write(toFile: memory.path, atomically: true, encoding: .utf8)
            XCTAssertNil(memory.position(for: key), "“\(garbage)” reads as empty")
            XCTAssertTrue(memory.all().isEmpty)
        }
        try memory.remember(key, at: 100)
        XCTAssertEqual(memory.position(for: key)?.position, 100)
        XCTAssertEqual(try String(contentsOfFile: memory.path + ".corrupt", encoding: .utf8), "\u{0}\u{1}\u{2}", "what it held is kept")
    }

    func testBadEntriesAreLeftOutAndTheOthersKept() throws {
        try FileManager.default.createDirectory(atPath: (memory.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let good = "link:\(key.digest)"
        let text = """
            {"version": 1, "entries": {
              "\(good)": {"position": 42.5, "savedAt": \(Int(Date().timeIntervalSince1970))},
              "link:nothex": {"position": 1, "savedAt": 1},
              "file:\(String(repeating: "a", count: 64))": {"position": "forty", "savedAt": 1},
              "queue:\(String(repeating: "b", count: 64))": {"position": 10, "item": -1, "savedAt": 1},
              "link:\(String(repeating: "c", count: 64))": [],
              "odd:\(String(repeating: "d", count: 64))": {"position": 10, "savedAt": 1}}}
            """
        try text.write(toFile: memory.path, atomically: true, encoding: .utf8)
        XCTAssertEqual(memory.position(for: key)?.position, 42.5)
        XCTAssertEqual(memory.all().count, 1)
    }

    func testAFolderInTheWayIsAnErrorThatLosesNothing() throws {
        try memory.remember(key, at: 100)
        // The folder becomes read-only: the write fails with a sentence, the old file stays.
        let folder = (memory.path as NSString).deletingLastPathComponent
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder) }
        if getuid() == 0 { throw XCTSkip("root writes into read-only folders") }
        XCTAssertThrowsError(try memory.remember(.link("https://example.com/other.mp4"), at: 50)) { error in
            XCTAssertTrue("\(error)".hasPrefix("Where playback stopped cannot be saved in \(self.memory.path): "), "\(error)")
        }
        XCTAssertEqual(memory.position(for: key)?.position, 100)
    }

    func testAStateFolderThatIsAFileIsAnError() throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "x".write(to: dir.appendingPathComponent("castdeck"), atomically: true, encoding: .utf8)
        XCTAssertNil(memory.position(for: key))
        XCTAssertThrowsError(try memory.remember(key, at: 100))
    }

    func testWritersInParallelLoseNothing() throws {
        // Two processes (the window and castctl) are two open file descriptions of the lock:
        // threads that each open it stand in for them.
        let m = memory!
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            try? m.remember(.link("https://example.com/\(i).mp4"), at: Double(100 + i))
        }
        let all = m.all()
        XCTAssertEqual(all.count, 40)
        XCTAssertEqual(all[.link("https://example.com/7.mp4")]?.position, 107)
    }
}
