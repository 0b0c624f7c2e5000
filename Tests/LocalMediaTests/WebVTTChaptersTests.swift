// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import Foundation
import XCTest

@testable import LocalMedia

/// Chapter tracks (issue 31): a WebVTT chapter file read tolerantly into chapters, a file that
/// is not one refused with a sentence, and the file CastDeck writes read back the same.
final class WebVTTChaptersTests: XCTestCase {
    func testAChapterFileAsBrowsersReadIt() throws {
        let file = """
            \u{FEFF}WEBVTT - chapters of a film\r
            Kind: chapters\r
            \r
            NOTE written by hand,
            with a second line\r
            \r
            STYLE\r
            ::cue { color: red }\r
            \r
            intro\r
            00:00.000 --> 01:00.000\r
            <b>Opening</b> &amp; Titles\r
            \r
            3\r
            00:02:00.000 --> 00:03:00.000 align:start\r
            The &lt;Trap&gt;\r
            \r
            2\r
            00:01:00.000 --> 00:02:00.000\r
            Part
            Two\r
            \r
            broken\r
            00:xx --> 00:03:10.000\r
            Not read\r
            \r
            00:05:00.000 --> 00:04:00.000\r
            Ends before it starts\r
            \r
            00:03:00.000 --> 00:04:00.000\r
            \r
            """
        let chapters = try WebVTTChapters.parse(Array(file.utf8))
        XCTAssertEqual(
            chapters,
            [
                MediaChapter(start: 0, end: 60, title: "Opening & Titles"),
                MediaChapter(start: 60, end: 120, title: "Part Two"),
                MediaChapter(start: 120, end: 180, title: "The <Trap>"),
                MediaChapter(start: 180, end: 240, title: ""),
            ], "in time order, tags removed, references decoded, unreadable and backward cues skipped")
    }

    func testAFileThatIsNotAChapterListSaysWhy() {
        XCTAssertThrowsError(try WebVTTChapters.parse(Array("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8))) {
            XCTAssertEqual(($0 as? WebVTTChapters.Unusable)?.reason, "it is not a WebVTT file (it does not start with WEBVTT)")
        }
        XCTAssertThrowsError(try WebVTTChapters.parse(Array("WEBVTTX\n\n00:00.000 --> 00:01.000\nA\n".utf8)), "WEBVTT must stand alone")
        XCTAssertThrowsError(try WebVTTChapters.parse(Array("WEBVTT\n\nNOTE nothing here\n".utf8))) {
            XCTAssertEqual(($0 as? WebVTTChapters.Unusable)?.reason, "it holds no chapter cue")
        }
        XCTAssertThrowsError(try WebVTTChapters.parse([0xFF, 0x00, 0x12, 0x80]))
        XCTAssertThrowsError(try WebVTTChapters.parse([]))
    }

    func testAHostileListIsCutAndTitlesAreShortened() throws {
        var file = "WEBVTT\n\n"
        for i in 0..<(WebVTTChapters.maxChapters + 50) {
            file += "\(WebVTTConverter.timestamp(Double(i))) --> \(WebVTTConverter.timestamp(Double(i + 1)))\n\(String(repeating: "x", count: 500))\n\n"
        }
        let chapters = try WebVTTChapters.parse(Array(file.utf8))
        XCTAssertEqual(chapters.count, WebVTTChapters.maxChapters)
        XCTAssertEqual(chapters[0].title.count, 200)
    }

    func testWhatCastDeckWritesReadsBackTheSame() async throws {
        let chapters = [
            MediaChapter(start: 0, end: 61.5, title: "Intro & <Credits>"),
            MediaChapter(start: 61.5, end: 3725, title: "فصل دوم --> پایان"),
        ]
        let text = WebVTTChapters.render(chapters)
        XCTAssertTrue(text.hasPrefix("WEBVTT\n\n00:00:00.000 --> 00:01:01.500\nIntro &amp; &lt;Credits&gt;\n"))
        XCTAssertTrue(text.contains("فصل دوم --&gt; پایان"), "no title ends its cue early")
        let back = try WebVTTChapters.parse(Array(text.utf8))
        XCTAssertEqual(back, chapters)
        let fetched = try await WebVTTChapters.fetch(WebVTTChapters.dataURL(chapters))
        XCTAssertEqual(fetched, back, "a data: URL track is read without a server")
        let plain = try await WebVTTChapters.fetch("data:text/vtt,WEBVTT%0A%0A00:10.000%20--%3E%2000:20.000%0AOne%0A")
        XCTAssertEqual(plain, [MediaChapter(start: 10, end: 20, title: "One")])
    }

    func testATrackThatCannotBeFetchedSaysWhy() async throws {
        do {
            _ = try await WebVTTChapters.fetch("file:///etc/passwd")
            XCTFail("a file: URL is not fetched")
        } catch {
            XCTAssertEqual(error.reason, "it is neither an http(s) nor a data: URL")
        }
        do {
            _ = try await WebVTTChapters.fetch("data:text/vtt;base64,@@@")
            XCTFail("a broken data: URL")
        } catch {
            XCTAssertEqual(error.reason, "its data: URL cannot be read")
        }
        // A port nobody listens on: refused at once.
        do {
            _ = try await WebVTTChapters.fetch("http://127.0.0.1:9/chapters.vtt", timeout: .seconds(3))
            XCTFail("nothing listens there")
        } catch {
            XCTAssertTrue(error.reason.hasPrefix("it could not be fetched"), error.reason)
        }
    }
}
