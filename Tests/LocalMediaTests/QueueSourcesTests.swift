// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import LocalMedia
import XCTest

/// Folders, natural order and playlists (M3U/M3U8, PLS, XSPF) turned into queue entries,
/// including playlists written to hurt.
final class QueueSourcesTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "queue-sources-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    @discardableResult
    func touch(_ relative: String, _ bytes: [UInt8] = [0]) throws -> String {
        let path = (dir as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    func write(_ relative: String, _ text: String) throws -> String { try touch(relative, Array(text.utf8)) }

    func names(_ e: QueueSources.Expansion) -> [String] {
        e.entries.map {
            switch $0.location {
            case .file(let p): (p as NSString).lastPathComponent
            case .url(let u): u
            }
        }
    }

    // MARK: natural order

    func testNaturalOrder() {
        let sorted = ["10 - y.mp3", "2 - x.mp3", "1 - a.mp3", "Track 007.mp3", "track 7.mp3", "b.mp3", "A.mp3", "track 10.mp3", "track 9b.mp3", "track 9a.mp3"]
            .sorted(by: QueueSources.naturalLess)
        XCTAssertEqual(
            sorted, ["1 - a.mp3", "2 - x.mp3", "10 - y.mp3", "A.mp3", "b.mp3", "track 7.mp3", "Track 007.mp3", "track 9a.mp3", "track 9b.mp3", "track 10.mp3"])
        // A strict weak order: irreflexive, and consistent both ways.
        for a in sorted { XCTAssertFalse(QueueSources.naturalLess(a, a)) }
        XCTAssertTrue(QueueSources.naturalLess("disc1", "disc01x"))
        XCTAssertFalse(QueueSources.naturalLess("disc01x", "disc1"))
        // Digit runs longer than any integer still compare.
        XCTAssertTrue(QueueSources.naturalLess("a99999999999999999999999", "a100000000000000000000000"))
    }

    // MARK: folders

    func testFolderListsMediaInNaturalOrderAndRecursesOnlyWhenAsked() throws {
        for n in ["10 - y.mp3", "2 - x.flac", "1 - a.m4a", "cover.jpg", "notes.txt", ".hidden.mp3", "Sub/3.mp3", "Sub/Deeper/4.mp3"] { try touch(n) }
        let flat = try QueueSources.expand([dir])
        XCTAssertEqual(names(flat), ["1 - a.m4a", "2 - x.flac", "10 - y.mp3", "cover.jpg"])
        let deep = try QueueSources.expand([dir], recursive: true)
        XCTAssertEqual(names(deep), ["1 - a.m4a", "2 - x.flac", "10 - y.mp3", "cover.jpg", "3.mp3", "4.mp3"])
    }

    func testALinkLoopIsFollowedOnce() throws {
        try touch("a/1.mp3")
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/loop", withDestinationPath: dir + "/a")
        let e = try QueueSources.expand([dir], recursive: true)
        XCTAssertEqual(names(e), ["1.mp3"])
    }

    func testAnEmptyFolderWarnsAndAMissingPathFails() throws {
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
        let e = try QueueSources.expand([dir + "/empty"])
        XCTAssertTrue(e.entries.isEmpty)
        XCTAssertTrue(e.warnings.first?.contains("--recursive") == true)
        XCTAssertThrowsError(try QueueSources.expand([dir + "/nope.mp3"])) { error in
            XCTAssertEqual(error as? QueueSources.Failure, .notFound(self.dir + "/nope.mp3"))
        }
    }

    func testFilesAndURLsMixKeepTheirOrder() throws {
        let a = try touch("a.mp3")
        let e = try QueueSources.expand(["https://example.com/x.mp4", a, "http://example.com/y.mp3"])
        XCTAssertEqual(names(e), ["https://example.com/x.mp4", "a.mp3", "http://example.com/y.mp3"])
        XCTAssertThrowsError(try QueueSources.expand([a, "rtsp://example.com/live"])) { error in
            XCTAssertEqual(error as? QueueSources.Failure, .unsupportedURL("rtsp://example.com/live"))
        }
    }

    // MARK: M3U

    func testM3UWithExtinfTitlesRelativeAbsoluteAndURLs() throws {
        let one = try touch("music/01 One.mp3")
        try touch("music/sub/02 Two.mp3")
        let list = try write(
            "music/list.m3u8",
            """
            #EXTM3U
            #EXTINF:181,Band – Ünïcode One
            \(one)
            #EXTINF:-1,Second
            sub/02 Two.mp3

            # a comment
            https://example.com/stream.mp3
            """)
        let e = try QueueSources.expand([list])
        XCTAssertEqual(names(e), ["01 One.mp3", "02 Two.mp3", "https://example.com/stream.mp3"])
        XCTAssertEqual(e.entries.map(\.title), ["Band – Ünïcode One", "Second", nil])
        XCTAssertTrue(e.warnings.isEmpty)
    }

    func testM3UInWindows1252WithCRLFAndBackslashes() throws {
        try touch("d/Café.mp3")
        var bytes = Array("#EXTINF:10,Caf".utf8) + [0xE9] + Array("\r\nd\\Caf".utf8) + [0xE9] + Array(".mp3\r\n".utf8)
        bytes = [UInt8](bytes)
        let list = try touch("old.m3u", bytes)
        let e = try QueueSources.expand([list])
        XCTAssertEqual(names(e), ["Café.mp3"])
        XCTAssertEqual(e.entries.first?.title, "Café")
    }

    func testHostileM3U() throws {
        try touch("ok.mp3")
        let list = try write(
            "bad.m3u",
            """
            #EXTINF:1,Fine
            ok.mp3
            javascript:alert(1)
            smb://server/share/x.mp3
            ../../../../../../etc/passwd-does-not-exist.mp3
            other.m3u
            \(dir)
            #EXTINF:1,
            """)
        try touch("other.m3u", Array("ok.mp3\n".utf8))
        let e = try QueueSources.expand([list])
        XCTAssertEqual(names(e), ["ok.mp3"])
        XCTAssertEqual(e.warnings.count, 5, "\(e.warnings)")
        XCTAssertTrue(e.warnings.contains { $0.contains("javascript:") })
        XCTAssertTrue(e.warnings.contains { $0.contains("playlist inside a playlist") })
        XCTAssertTrue(e.warnings.contains { $0.contains("folder inside a playlist") })
    }

    func testBinaryAndEmptyPlaylistsAreRefused() throws {
        let binary = try touch("x.m3u", [0x00, 0x01, 0xFF, 0x00, 0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0])
        XCTAssertThrowsError(try QueueSources.expand([binary])) { error in
            XCTAssertTrue("\(error)".contains("not a playlist") || "\(error)".contains("no media"), "\(error)")
        }
        let empty = try write("e.m3u", "#EXTM3U\n\n")
        XCTAssertThrowsError(try QueueSources.expand([empty])) { error in
            XCTAssertEqual(error as? QueueSources.Failure, .empty(empty))
        }
        let onlyMissing = try write("m.m3u", "gone.mp3\n")
        XCTAssertThrowsError(try QueueSources.expand([onlyMissing])) { error in
            XCTAssertTrue("\(error)".contains("gone.mp3 does not exist"), "\(error)")
        }
    }

    func testTooManyEntriesOrBytesAreRefused() throws {
        try touch("a.mp3")
        let many = try write("many.m3u", String(repeating: "a.mp3\n", count: QueueSources.maxEntries + 1))
        XCTAssertThrowsError(try QueueSources.expand([many])) { error in
            XCTAssertTrue("\(error)".contains("too large"), "\(error)")
        }
        let big = try touch("big.m3u", [UInt8](repeating: 0x23, count: QueueSources.maxPlaylistBytes + 1))
        XCTAssertThrowsError(try QueueSources.expand([big])) { error in
            XCTAssertTrue("\(error)".contains("8 MiB"), "\(error)")
        }
    }

    // MARK: PLS

    func testPLSInTheOrderOfItsNumbers() throws {
        try touch("b.mp3")
        try touch("a.mp3")
        let list = try write(
            "radio.pls",
            """
            [playlist]
            File2=b.mp3
            Title2=Bee
            File1=http://example.com/live.mp3
            Title1=Live
            File3=ftp://example.com/x.mp3
            File10=a.mp3
            NumberOfEntries=4
            Version=2
            """)
        let e = try QueueSources.expand([list])
        XCTAssertEqual(names(e), ["http://example.com/live.mp3", "b.mp3", "a.mp3"])
        XCTAssertEqual(e.entries.map(\.title), ["Live", "Bee", nil])
        XCTAssertEqual(e.warnings.count, 1)
        let notPLS = try write("fake.pls", "File1=a.mp3\n")
        XCTAssertThrowsError(try QueueSources.expand([notPLS]))
    }

    // MARK: XSPF

    func testXSPFWithRelativeURIsAndTitles() throws {
        try touch("My Music/01 First.mp3")
        let abs = try touch("abs.mp3")
        let list = try write(
            "list.xspf",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/">
              <trackList>
                <track><location>My%20Music/01%20First.mp3</location><title>First &amp; Best</title></track>
                <track><title>No location</title></track>
                <track><location>file://\(abs)</location></track>
                <track><location>https://example.com/s.mp3</location><title>Remote</title></track>
              </trackList>
            </playlist>
            """)
        let e = try QueueSources.expand([list])
        XCTAssertEqual(names(e), ["01 First.mp3", "abs.mp3", "https://example.com/s.mp3"])
        XCTAssertEqual(e.entries.map(\.title), ["First & Best", nil, "Remote"])
        XCTAssertEqual(e.warnings.count, 1)
    }

    func testHostileXSPF() throws {
        let bomb = try write(
            "bomb.xspf",
            """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <playlist><trackList><track><location>&lol2;</location></track></trackList></playlist>
            """)
        XCTAssertThrowsError(try QueueSources.expand([bomb])) { error in
            XCTAssertTrue("\(error)".contains("DOCTYPE"), "\(error)")
        }
        let broken = try write("broken.xspf", "<playlist><trackList><track><location>a.mp3</track>")
        XCTAssertThrowsError(try QueueSources.expand([broken])) { error in
            XCTAssertTrue("\(error)".contains("not well-formed"), "\(error)")
        }
        let other = try write("other.xspf", "<?xml version=\"1.0\"?><html><body>hi</body></html>")
        XCTAssertThrowsError(try QueueSources.expand([other])) { error in
            XCTAssertTrue("\(error)".contains("<playlist>"), "\(error)")
        }
        let deep = try write("deep.xspf", String(repeating: "<a>", count: 5000) + String(repeating: "</a>", count: 5000))
        XCTAssertThrowsError(try QueueSources.expand([deep]))
    }
}
