// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import LocalMedia
import XCTest

/// SRT/ASS → WebVTT against golden files written by hand (Fixtures/*.vtt), sources in
/// Windows-1252, UTF-16 LE with BOM, UTF-16 BE without BOM and UTF-8 with BOM.
final class SubtitleTests: XCTestCase {
    func fixture(_ name: String) throws -> [UInt8] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures", withExtension: nil)?.appendingPathComponent(name))
        return Array(try Data(contentsOf: url))
    }

    func golden(_ source: String, _ format: SubtitleFormat, _ expected: String, encoding: TextEncoding, skipped: Int) throws {
        let doc = try WebVTTConverter.convert(try fixture(source), format: format, name: source)
        let want = String(decoding: try fixture(expected), as: UTF8.self)
        XCTAssertEqual(doc.text, want, source)
        XCTAssertEqual(doc.sourceEncoding, encoding, source)
        XCTAssertEqual(doc.warnings.count, skipped, "\(source): \(doc.warnings)")
    }

    func testWindows1252SRTWithAccentsTagsAndABrokenCue() throws {
        try golden("latin.cp1252.srt", .srt, "latin.cp1252.vtt", encoding: .windows1252, skipped: 1)
    }

    func testUTF16LittleEndianWithBOM() throws {
        try golden("greek.utf16le.srt", .srt, "greek.utf16le.vtt", encoding: .utf16LE, skipped: 0)
    }

    func testUTF16BigEndianWithoutBOMIsRecognised() throws {
        let doc = try WebVTTConverter.convert(try fixture("plain.utf16be.srt"), format: .srt)
        XCTAssertEqual(doc.sourceEncoding, .utf16BE)
        XCTAssertEqual(doc.text, "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nPlain text\n\n")
    }

    func testUTF8WithBOMAndACueEndingBeforeItStarts() throws {
        let doc = try WebVTTConverter.convert(try fixture("japanese.utf8bom.srt"), format: .srt)
        XCTAssertEqual(doc.sourceEncoding, .utf8BOM)
        XCTAssertEqual(doc.text, "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n日本語の字幕\n\n")
        XCTAssertEqual(doc.warnings.count, 1)
    }

    func testASSOverridesRemovedItalicKeptSortedByTime() throws {
        try golden("sample.ass", .ass, "sample.vtt", encoding: .utf8, skipped: 1)
    }

    /// Found by `scripts/fuzz.sh webvtt`: an hour field of 14 digits trapped converting the
    /// cue's milliseconds to Int. Such a cue is skipped with a warning; the others stay.
    func testAbsurdHoursSkipTheCue() throws {
        let srt = "1\n99999999999999:00:01,000 --> 999999999999999:00:02,500\nHello\n\n2\n99999:00:01,000 --> 99999:00:02,000\nLast\n"
        let doc = try WebVTTConverter.convert(Array(srt.utf8), format: .srt)
        XCTAssertEqual(doc.text, "WEBVTT\n\n99999:00:01.000 --> 99999:00:02.000\nLast\n\n")
        XCTAssertEqual(doc.warnings.count, 1)
    }

    func testAFileWithoutAnyCueIsAnError() {
        XCTAssertThrowsError(try WebVTTConverter.convert(Array("just text\n".utf8), format: .srt, name: "x.srt")) { error in
            guard case LocalMediaError.subtitleUnusable(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "x.srt")
        }
    }

    func testSidecarNamesGiveLanguageAndFlags() {
        func d(_ n: String) -> SubtitleSource? { SidecarSubtitles.describe(fileName: n, path: "/m/\(n)", mediaBase: "movie") }
        XCTAssertEqual(d("movie.srt")?.name, "Subtitles")
        XCTAssertEqual(d("movie.en.srt")?.language, "en")
        XCTAssertEqual(d("movie.en.srt")?.name, "English")
        XCTAssertEqual(d("movie.eng.srt")?.language, "en")
        XCTAssertEqual(d("movie.fr.forced.srt")?.name, "Français (forced)")
        XCTAssertEqual(d("movie.fr.forced.srt")?.isForced, true)
        XCTAssertEqual(d("movie.ger.sdh.ass")?.name, "Deutsch (SDH)")
        XCTAssertEqual(d("movie.pt-BR.vtt")?.language, "pt-BR")
        XCTAssertNil(d("other.en.srt"))
        XCTAssertNil(d("movie.en.txt"))
    }

    func testSidecarsFoundBesideAndInSubsFolder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-subs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/Subs", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for f in ["movie.mp4", "movie.en.srt", "movie.fr.forced.srt", "other.de.srt", "Subs/2_Spanish.srt", "Subs/notes.txt"] {
            FileManager.default.createFile(atPath: "\(dir)/\(f)", contents: Data())
        }
        let found = SidecarSubtitles.find(beside: dir + "/movie.mp4")
        XCTAssertEqual(found.map(\.name).sorted(), ["English", "Español", "Français (forced)"])
    }
}
