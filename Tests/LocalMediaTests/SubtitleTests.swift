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
        // A file that names no language says so, and which file it is (issue 35, Poor 9).
        XCTAssertEqual(d("movie.srt")?.name, "Unknown language (movie.srt)")
        XCTAssertNil(d("movie.srt")?.language)
        XCTAssertEqual(d("movie.en.srt")?.language, "en")
        XCTAssertEqual(d("movie.en.srt")?.name, "English")
        XCTAssertEqual(d("movie.eng.srt")?.language, "en")
        XCTAssertEqual(d("movie.eng.srt")?.name, "English")
        XCTAssertEqual(d("movie.English.srt")?.language, "en")
        XCTAssertEqual(d("movie.English.srt")?.name, "English")
        XCTAssertEqual(d("movie.fr.forced.srt")?.name, "French (forced)")
        XCTAssertEqual(d("movie.fr.forced.srt")?.isForced, true)
        XCTAssertEqual(d("movie.ger.sdh.ass")?.name, "German (SDH)")
        XCTAssertEqual(d("movie.en.Director.srt")?.name, "English – Director")
        XCTAssertEqual(d("movie.pt-BR.vtt")?.language, "pt-BR")
        XCTAssertEqual(d("movie.pt-BR.vtt")?.name, "Portuguese (BR)")
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
        XCTAssertEqual(found.map(\.name).sorted(), ["English", "French (forced)", "Spanish"])
    }

    /// One rule names a track wherever it is named: a stream's language code in either ISO
    /// form, its title, and the words of the language it is named in.
    func testOneNameForATrackFromItsLanguageAndTitle() {
        func name(_ language: String?, _ title: String?, forced: Bool = false, _ origin: TrackFacts.Origin = .stream(number: 2)) -> String {
            TrackFacts(kind: .text, language: language, title: title, isForced: forced, origin: origin).name()
        }
        XCTAssertEqual(name("eng", nil), "English")
        XCTAssertEqual(name("en", nil), "English")
        XCTAssertEqual(name("en", "English"), "English", "a title that is only the language's name")
        XCTAssertEqual(name("fa", "فارسی"), "Persian", "the language's own name counts too")
        XCTAssertEqual(name("eng", "Commentary"), "English – Commentary")
        XCTAssertEqual(name("en", "English (stereo)"), "English (stereo)", "a title that names the language stands alone")
        XCTAssertEqual(name("fre", nil, forced: true), "French (forced)")
        XCTAssertEqual(name("und", nil), "Subtitle 2")
        XCTAssertEqual(name(nil, "Signs"), "Signs")
        XCTAssertEqual(name("tlh", nil), "tlh", "a code not in the table is shown as it is")
        XCTAssertEqual(name(nil, nil, .track(id: 7)), "Track 7")
        XCTAssertEqual(name(nil, "notes", .file(name: "film.notes.srt")), "Unknown language (film.notes.srt)")
        // Other words (the window's, in the user's language) through the same rule.
        var german = TrackWords.english
        german.language = { ["en": "Englisch", "fr": "Französisch"][$0.code] ?? $0.englishName }
        german.withTitle = { "\($0) · \($1)" }
        XCTAssertEqual(TrackFacts(kind: .audio, language: "eng", title: "Commentary", origin: .stream(number: 1)).name(german), "Englisch · Commentary")
        XCTAssertEqual(
            TrackFacts(kind: .text, language: "en", title: "Englisch", origin: .track(id: 1)).name(german), "Englisch",
            "a name made in these words reads the same when it comes back from the device")
    }

    /// The subtitle file turned on at cast time (SidecarSubtitles.preferred).
    func testWhichSubtitleFileStartsOn() {
        func file(_ name: String) -> SubtitleSource { SidecarSubtitles.describe(fileName: name, path: "/m/\(name)", mediaBase: "film")! }
        let embedded = SubtitleSource(path: "embedded-1.srt", format: .srt, language: "en", origin: .stream(number: 1))
        let en = file("film.en.srt"), fr = file("film.fr.srt"), enForced = file("film.en.forced.srt"), enSDH = file("film.en.sdh.srt")
        let unknown = file("film.srt")
        XCTAssertEqual(SidecarSubtitles.preferred([fr, en], languages: ["en"]), 1, "the file in the user's language")
        XCTAssertEqual(SidecarSubtitles.preferred([fr, en], languages: ["fa", "fr"]), 0, "the first language with a file wins")
        XCTAssertEqual(SidecarSubtitles.preferred([enForced, enSDH, en], languages: ["en-GB"]), 2, "a plain one before SDH before forced")
        XCTAssertEqual(SidecarSubtitles.preferred([enForced, enSDH], languages: ["en"]), 1)
        XCTAssertNil(SidecarSubtitles.preferred([fr], languages: ["en"]), "none in the user's language: off")
        XCTAssertEqual(SidecarSubtitles.preferred([unknown], languages: ["en"]), 0, "the only file, naming no language")
        XCTAssertEqual(SidecarSubtitles.preferred([embedded, unknown], languages: []), 1)
        XCTAssertNil(SidecarSubtitles.preferred([unknown, fr], languages: ["en"]), "several files, none in the user's language")
        XCTAssertNil(SidecarSubtitles.preferred([embedded], languages: ["en"]), "streams of the file are never turned on here")
    }
}
