// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import LocalMedia
import XCTest

final class MediaFormatTests: XCTestCase {
    func testRangeForms() {
        XCTAssertEqual(RangeRequest(header: nil, size: 100), .whole)
        XCTAssertEqual(RangeRequest(header: "bytes=0-9", size: 100), .partial(first: 0, last: 9))
        XCTAssertEqual(RangeRequest(header: "bytes=90-", size: 100), .partial(first: 90, last: 99))
        XCTAssertEqual(RangeRequest(header: "bytes=-10", size: 100), .partial(first: 90, last: 99))
        XCTAssertEqual(RangeRequest(header: "bytes=-500", size: 100), .partial(first: 0, last: 99))
        XCTAssertEqual(RangeRequest(header: "bytes=50-500", size: 100), .partial(first: 50, last: 99))
        XCTAssertEqual(RangeRequest(header: "bytes=100-", size: 100), .unsatisfiable)
        XCTAssertEqual(RangeRequest(header: "bytes=-0", size: 100), .unsatisfiable)
        XCTAssertEqual(RangeRequest(header: "bytes=0-1,5-6", size: 100), .whole)
        XCTAssertEqual(RangeRequest(header: "bytes=9-1", size: 100), .whole)
        XCTAssertEqual(RangeRequest(header: "items=0-1", size: 100), .whole)
        XCTAssertEqual(RangeRequest(header: "bytes=abc", size: 100), .whole)
    }

    func testMagicNumbersNotExtensions() {
        func b(_ s: String, at: Int = 0) -> [UInt8] { Array(repeating: 0, count: at) + Array(s.utf8) + Array(repeating: 0, count: 40) }
        XCTAssertEqual(MediaFormat.sniff(b("ftypisom", at: 4), fileName: "x.mkv").mimeType, "video/mp4")
        XCTAssertEqual(MediaFormat.sniff(b("ftypM4A ", at: 4)).mimeType, "audio/mp4")
        XCTAssertEqual(MediaFormat.sniff([0x1A, 0x45, 0xDF, 0xA3] + Array("....webm".utf8), fileName: "x.mp4").mimeType, "video/webm")
        let mkv = MediaFormat.sniff([0x1A, 0x45, 0xDF, 0xA3] + Array("....matroska".utf8))
        XCTAssertEqual(mkv.mimeType, "video/x-matroska")
        XCTAssertFalse(mkv.castable)
        XCTAssertEqual(MediaFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0], fileName: "x.png").mimeType, "image/jpeg")
        XCTAssertEqual(MediaFormat.sniff(b("ID3")).mimeType, "audio/mpeg")
        XCTAssertEqual(MediaFormat.sniff(b("fLaC")).mimeType, "audio/flac")
        XCTAssertEqual(MediaFormat.sniff(b("OggS")).mimeType, "audio/ogg")
        XCTAssertEqual(MediaFormat.sniff(Array("RIFF\0\0\0\0WAVEfmt ".utf8)).mimeType, "audio/wav")
        XCTAssertEqual(MediaFormat.sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)).mimeType, "image/webp")
        XCTAssertEqual(MediaFormat.sniff(Array("hello".utf8), fileName: "a.mp4").kind, .other)
    }

    func testTitleFromFileName() {
        XCTAssertEqual(LocalMediaInfo.cleanTitle(fileName: "The.Big.Film.2019.1080p.BluRay.x264-GRP.mp4"), "The Big Film 2019")
        XCTAssertEqual(LocalMediaInfo.cleanTitle(fileName: "[Group] my_holiday_video.webm"), "my holiday video")
        XCTAssertEqual(LocalMediaInfo.cleanTitle(fileName: "song.mp3"), "song")
    }

    /// A track number before a name is not part of a title made from the file name (issue 35).
    func testTitleFromFileNameLosesItsTrackNumber() {
        func title(_ name: String, audio: Bool = false) -> String { LocalMediaInfo.cleanTitle(fileName: name, isAudio: audio) }
        XCTAssertEqual(title("01 film.mkv"), "film")
        XCTAssertEqual(title("01 - Song.mp3", audio: true), "Song")
        XCTAssertEqual(title("01. Song.flac", audio: true), "Song")
        XCTAssertEqual(title("1-01 Song.mp3", audio: true), "Song")
        XCTAssertEqual(title("07_track_name.ogg", audio: true), "track name")
        XCTAssertEqual(title("12 Song.mp3", audio: true), "Song")
        XCTAssertEqual(title("3 - The Big Film.mkv"), "The Big Film")
        // Films whose name starts with a number keep it.
        XCTAssertEqual(title("28 Days Later.mkv"), "28 Days Later")
        XCTAssertEqual(title("12 Angry Men.mp4"), "12 Angry Men")
        XCTAssertEqual(title("2-Headed Shark Attack.mp4"), "2-Headed Shark Attack")
        XCTAssertEqual(title("2001 A Space Odyssey.mkv"), "2001 A Space Odyssey")
        XCTAssertEqual(title("1917.mkv"), "1917")
        XCTAssertEqual(title("01.mp3", audio: true), "01", "nothing but a number stays")
    }
}
