// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import CastCore
import CastProtocol
import Foundation
import LocalMedia
import XCTest

/// `MediaShare.prepare` on real files made by ffmpeg (Debian's; the test is skipped
/// without it): probe, metadata, sidecar subtitles, artwork, refusal of what cannot play.
final class MediaShareTests: XCTestCase {
    var dir: String!

    override func setUp() async throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-share-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func ffmpeg(_ args: [String]) throws { try makeWithFFmpeg(args) }

    func testAudioWithTagsAndACoverBesideIt() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed")
        try ffmpeg([
            "-f", "lavfi", "-i", "sine=duration=3", "-c:a", "libmp3lame", "-metadata", "title=Song Title", "-metadata", "artist=The Band",
            "-metadata", "album=An Album", "-metadata", "track=4/12", "-metadata", "date=2021", "\(dir!)/01 song.mp3",
        ])
        try ffmpeg(["-f", "lavfi", "-i", "color=c=blue:size=32x32", "-frames:v", "1", "\(dir!)/folder.jpg"])
        let share = MediaShare(port: .exactly(0))
        let cast = try await share.prepare(file: "\(dir!)/01 song.mp3", device: "127.0.0.1", localAddress: "127.0.0.1")
        let m = cast.media
        XCTAssertEqual(m.contentType, "audio/mpeg")
        XCTAssertEqual(m.metadata?.metadataType, .musicTrack)
        XCTAssertEqual(m.metadata?.title, "Song Title")
        XCTAssertEqual(m.metadata?.artist, "The Band")
        XCTAssertEqual(m.metadata?.albumName, "An Album")
        XCTAssertEqual(m.metadata?.trackNumber, 4)
        XCTAssertEqual(m.metadata?.releaseDate, "2021")
        XCTAssertEqual(m.duration ?? 0, 3, accuracy: 0.2)
        XCTAssertTrue(m.contentId.hasSuffix("/01%20song.mp3"), m.contentId)
        let image = try XCTUnwrap(m.metadata?.images?.first?.url)
        XCTAssertTrue(image.hasSuffix("/folder.jpg"))
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: image), timeout: .seconds(10))
        XCTAssertEqual(response.headers.first(name: "Content-Type"), "image/jpeg")
        await share.end(cast)
    }

    /// A title made from the file name loses its track number; one from the file's tags is kept.
    func testTitleFromTagsOrFromTheFileName() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed")
        try ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libmp3lame", "-metadata", "title=01 Overture", "\(dir!)/02 - x.mp3"])
        try ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libmp3lame", "\(dir!)/03 - Finale.mp3"])
        let share = MediaShare(port: .exactly(0))
        let tagged = try await share.prepare(file: "\(dir!)/02 - x.mp3", device: "127.0.0.1", localAddress: "127.0.0.1")
        XCTAssertEqual(tagged.media.metadata?.title, "01 Overture")
        let untagged = try await share.prepare(file: "\(dir!)/03 - Finale.mp3", device: "127.0.0.1", localAddress: "127.0.0.1")
        XCTAssertEqual(untagged.media.metadata?.title, "Finale")
        await share.end(tagged)
        await share.end(untagged)
    }

    func testVideoWithSidecarSubtitlesAndRefusals() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "\(dir!)/My.Film.2020.720p.mp4"])
        try Data("1\n00:00:00,500 --> 00:00:01,000\nHi\n".utf8).write(to: URL(fileURLWithPath: "\(dir!)/My.Film.2020.720p.eng.srt"))
        try Data("not subtitles".utf8).write(to: URL(fileURLWithPath: "\(dir!)/My.Film.2020.720p.de.srt"))
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=1", "-c:v", "libx264", "\(dir!)/clip.mkv"])
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=1", "-c:v", "mpeg4", "\(dir!)/old.mp4"])

        let share = MediaShare(port: .exactly(0))
        let cast = try await share.prepare(file: "file://\(dir!)/My.Film.2020.720p.mp4", device: "127.0.0.1", localAddress: "127.0.0.1")
        XCTAssertEqual(cast.media.metadata?.metadataType, .movie)
        XCTAssertEqual(cast.media.metadata?.title, "My Film 2020")
        XCTAssertEqual(cast.media.tracks?.map(\.language), ["en"])
        XCTAssertEqual(cast.media.tracks?.map(\.name), ["English"])
        XCTAssertEqual(cast.media.tracks?.first?.trackContentType, "text/vtt")
        // The English file starts on for someone who reads English, not for anyone else.
        XCTAssertEqual(cast.defaultTextTrack(languages: ["en-US"]), 1)
        XCTAssertNil(cast.defaultTextTrack(languages: ["fa"]))
        XCTAssertTrue(cast.warnings.contains { $0.contains("My.Film.2020.720p.de.srt") }, "\(cast.warnings)")
        await share.end(cast)

        // What the device cannot play as it is is planned for conversion (TranscodeTests), not refused.
        let (_, mkvPlan) = try await share.plan(file: "\(dir!)/clip.mkv", model: nil)
        XCTAssertEqual(mkvPlan.delivery, .hls)
        XCTAssertEqual(mkvPlan.video?.action, .convert, "x264 keeps testsrc's RGB as 4:4:4, which no Cast device decodes")
        XCTAssertTrue(mkvPlan.video?.reason.contains("not 4:2:0") == true, mkvPlan.video?.reason ?? "")
        let (_, oldPlan) = try await share.plan(file: "\(dir!)/old.mp4", model: nil)
        XCTAssertEqual(oldPlan.video?.action, .convert)
        XCTAssertTrue(oldPlan.video?.reason.contains("MPEG-4 Part 2 video") == true, oldPlan.video?.reason ?? "")
        do {
            _ = try await share.prepare(file: "\(dir!)/nothing.mp4", device: "127.0.0.1", localAddress: "127.0.0.1")
            XCTFail("a missing file must be refused")
        } catch {
            XCTAssertEqual(error, .unreadable(path: "\(dir!)/nothing.mp4", reason: "no such file"))
        }
    }

    /// A file's container chapters are cast as a WebVTT chapter track (issue 31), served like
    /// its subtitles, which senders read back into the same chapters.
    func testContainerChaptersBecomeAChapterTrack() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed")
        let meta =
            ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1500\ntitle=Cold & <Open>\n"
            + "[CHAPTER]\nTIMEBASE=1/1000\nSTART=1500\nEND=3000\ntitle=Second\n"
        try Data(meta.utf8).write(to: URL(fileURLWithPath: "\(dir!)/chapters.txt"))
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=3", "-i", "\(dir!)/chapters.txt", "-map", "0", "-map_chapters", "1",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "\(dir!)/chaptered.mp4",
        ])
        let share = MediaShare(port: .exactly(0))
        let cast = try await share.prepare(file: "\(dir!)/chaptered.mp4", device: "127.0.0.1", localAddress: "127.0.0.1")
        let track = try XCTUnwrap(cast.media.tracks?.first { $0.subtype == .chapters })
        XCTAssertEqual(track.trackId, MediaShare.chapterTrackID)
        XCTAssertEqual(track.type, .text)
        XCTAssertEqual(track.trackContentType, "text/vtt")
        let chapters = try await WebVTTChapters.fetch(try XCTUnwrap(track.trackContentId))
        XCTAssertEqual(chapters, [MediaChapter(start: 0, end: 1.5, title: "Cold & <Open>"), MediaChapter(start: 1.5, end: 3, title: "Second")])
        await share.end(cast)

        // A file without chapters gets no chapter track.
        try ffmpeg(["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "libmp3lame", "\(dir!)/plain.mp3"])
        let plain = try await share.prepare(file: "\(dir!)/plain.mp3", device: "127.0.0.1", localAddress: "127.0.0.1")
        XCTAssertNil(plain.media.tracks?.first { $0.subtype == .chapters })
        await share.end(plain)
    }
}
