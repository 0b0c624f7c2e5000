// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import Foundation
import LocalMedia
import XCTest

@testable import AppModel

/// Tracks by kind and chapters (issue 31), against the simulated receiver: a chapter track
/// becomes the chapter list (not a subtitle), METADATA tracks are never offered, captions and
/// descriptions are marked, next/previous chapter seek as players do, an audiobook chapter
/// names itself, and a chapter file that is not WebVTT says so and gives no chapters.
@MainActor
final class ChaptersModelTests: XCTestCase {
    static let chapters = [
        MediaChapter(start: 0, end: 100, title: "One"),
        MediaChapter(start: 100, end: 250, title: "Two"),
        MediaChapter(start: 250, end: 600, title: "Three"),
    ]

    static func film(chapterURL: String = WebVTTChapters.dataURL(chapters), metadata: MediaMetadata = MediaMetadata(title: "Film")) -> MediaInformation {
        MediaInformation(
            contentId: "https://media.example/film.mp4", contentType: "video/mp4", metadata: metadata, duration: 600,
            tracks: [
                MediaTrack(trackId: 1, type: .text, subtype: .subtitles, trackContentId: "https://media.example/en.vtt", language: "en"),
                MediaTrack(trackId: 2, type: .text, subtype: .captions, trackContentId: "https://media.example/cc.vtt", language: "en"),
                MediaTrack(trackId: 3, type: .text, subtype: .descriptions, trackContentId: "https://media.example/d.vtt", language: "en"),
                MediaTrack(trackId: 4, type: .text, subtype: .chapters, trackContentId: chapterURL, language: "en"),
                MediaTrack(trackId: 5, type: .text, subtype: .metadata, trackContentId: "https://media.example/m.vtt"),
                MediaTrack(trackId: 6, type: .audio, language: "en"),
            ])
    }

    func connected(_ h: Harness) async throws -> AppModel {
        let model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV")))
        XCTAssertTrue(model.isConnected, model.notice?.text ?? "")
        return model
    }

    func seek(_ model: AppModel, _ h: Harness, to seconds: Double) async throws {
        await model.perform(.seekTo(seconds))
        try await waitUntil("at \(seconds) s") { abs(model.position(at: .now) - seconds) < 0.01 }
    }

    func testAChapterTrackIsTheChapterListNotASubtitle() async throws {
        let h = try await Harness.start()
        let model = try await connected(h)
        await model.load(Self.film())
        try await waitUntil("the chapters read") { !model.chapters.isEmpty }
        XCTAssertEqual(model.chapters, Self.chapters)
        XCTAssertEqual(model.textTracks.map(\.trackId), [1, 2, 3], "chapters and metadata are not offered as subtitles")
        XCTAssertEqual(model.textTracks.map(AppModel.trackLabel), ["\u{200E}English", "\u{200E}English (CC)", "\u{200E}English (described video)"])
        XCTAssertEqual(model.chapterTrack?.trackId, 4)

        // Turning subtitles on and off leaves the chapter track alone, and it never counts as subtitles.
        await model.perform(.selectTextTrack(2))
        try await waitUntil("captions on") { model.activeTextTrackID == 2 }
        await model.perform(.selectTextTrack(nil))
        try await waitUntil("subtitles off") { model.activeTextTrackID == nil }

        // Next and previous chapter, and the chapter line, follow the position.
        try await waitUntil("playing") { model.isPlaying }
        XCTAssertTrue(model.isEnabled(.nextChapter))
        XCTAssertEqual(model.chapterLine(at: .now), "Chapter 1 · \u{2068}One\u{2069}")
        XCTAssertEqual(model.state(of: .seekToChapter), .int(0))
        await model.perform(.nextChapter)
        try await waitUntil("in chapter 2") { (try await h.receiverMedia()?.currentTime ?? 0) == 100 }
        try await waitUntil("the window too") { model.chapterIndex(at: model.position) == 1 }
        XCTAssertEqual(model.chapterLine(at: .now), "Chapter 2 · \u{2068}Two\u{2069}")
        // Within 3 s of a chapter's start, Previous goes to the chapter before; later, to this one's start.
        try await h.server.advanceClock(by: 2)
        _ = try await model.session?.media.requestStatus()
        await model.perform(.previousChapter)
        try await waitUntil("back in chapter 1") { (try await h.receiverMedia()?.currentTime ?? -1) == 0 }
        try await seek(model, h, to: 280)
        await model.perform(.previousChapter)
        try await waitUntil("the start of chapter 3") { (try await h.receiverMedia()?.currentTime ?? 0) == 250 }
        try await waitUntil("the window at 250 s") { abs(model.position(at: .now) - 250) < 0.01 }
        // In the last chapter there is no next one: nothing is sent.
        await model.perform(.nextChapter)
        let after = try await h.receiverMedia()?.currentTime
        XCTAssertEqual(after, 250)
        // The Chapters menu: a chapter by its index.
        await model.perform(AppAction(.seekToChapter, .int(1)))
        try await waitUntil("chapter 2 from the menu") { (try await h.receiverMedia()?.currentTime ?? 0) == 100 }
        XCTAssertEqual(model.state(of: .seekToChapter), .int(1))
        await model.disconnect()
        await h.stop()
    }

    func testAnAudiobookChapterNamesItself() async throws {
        let h = try await Harness.start()
        let model = try await connected(h)
        var book = MediaMetadata(metadataType: .audiobookChapter, title: "The Hobbit")
        book.bookTitle = "The Hobbit"
        book.chapterNumber = 3
        book.chapterTitle = "Over Hill and Under Hill"
        await model.load(
            MediaInformation(contentId: "https://media.example/hobbit-3.mp3", contentType: "audio/mpeg", metadata: book, duration: 1800))
        try await waitUntil("playing") { model.isPlaying }
        XCTAssertEqual(model.chapterLine(at: .now), "Chapter 3 · \u{2068}Over Hill and Under Hill\u{2069}")
        XCTAssertTrue(model.chapters.isEmpty)
        XCTAssertFalse(model.isEnabled(.nextChapter), "no chapter list: nothing to skip to")
        // Only the chapter's title, which then is the title shown: it is not said twice.
        var untitled = MediaMetadata(metadataType: .audiobookChapter)
        untitled.chapterTitle = "Riddles in the Dark"
        untitled.chapterNumber = 5
        await model.load(
            MediaInformation(contentId: "https://media.example/hobbit-5.mp3", contentType: "audio/mpeg", metadata: untitled, duration: 1800))
        try await waitUntil("chapter 5") { model.title == "Riddles in the Dark" }
        XCTAssertEqual(model.chapterLine(at: .now), "Chapter 5")
        await model.disconnect()
        await h.stop()
    }

    func testAChapterFileThatIsNotWebVTTSaysSoAndGivesNoChapters() async throws {
        let h = try await Harness.start()
        let model = try await connected(h)
        let srt = "data:text/plain," + "1\n00:00:01,000 --> 00:00:02,000\nHello\n".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        await model.load(Self.film(chapterURL: srt))
        try await waitUntil("the notice") { model.notice?.text == "The chapters of this media cannot be shown." }
        XCTAssertTrue(model.notice?.detail?.hasSuffix("it is not a WebVTT file (it does not start with WEBVTT)") == true, model.notice?.detail ?? "")
        XCTAssertEqual(model.chapterList.problem, "it is not a WebVTT file (it does not start with WEBVTT)")
        XCTAssertTrue(model.chapters.isEmpty)
        XCTAssertFalse(model.isEnabled(.seekToChapter))
        XCTAssertEqual(model.textTracks.map(\.trackId), [1, 2, 3], "still not a subtitle")
        // Another media with good chapters replaces the list.
        await model.load(Self.film())
        try await waitUntil("the new chapters") { model.chapters == Self.chapters }
        XCTAssertNil(model.chapterList.problem)
        await model.disconnect()
        await h.stop()
    }

    func testTheSampleHasChaptersCaptionsAndAHiddenMetadataTrack() async throws {
        let sample = SampleMedia.bigBuckBunny(artworkPath: nil)
        let tracks = sample.tracks ?? []
        XCTAssertEqual(tracks.filter { $0.group == .metadata }.count, 1)
        XCTAssertEqual(tracks.filter { $0.group == .captions }.count, 1)
        let url = try XCTUnwrap(tracks.first { $0.group == .chapters }?.trackContentId)
        let chapters = try await WebVTTChapters.fetch(url)
        XCTAssertEqual(chapters, SampleMedia.bigBuckBunnyChapters)
        XCTAssertTrue(chapters.allSatisfy { $0.end <= (sample.duration ?? 0) })
    }
}
