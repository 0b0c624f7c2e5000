// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastProtocol
import XCTest

/// How a notice is cut for a toast (first sentence) and its Details (the rest and the detail),
/// and the one rule for which icon stands for an item.
@MainActor
final class NoticeAndKindTests: XCTestCase {
    var h: Harness!

    override func setUp() async throws { h = try await Harness.start() }
    override func tearDown() async throws { await h?.stop() }

    private func notice(_ text: String, detail: String? = nil, retry: String? = nil) -> AppModel.Notice {
        let model = h.model()
        model.post(text, detail: detail, retry: retry)
        return model.notice!
    }

    func testToastShowsTheFirstSentenceAndDetailsTheRest() async {
        let n = notice("Living Room TV did not answer. Check that it is on and on this network.", detail: "connect timed out")
        XCTAssertEqual(n.headline, "Living Room TV did not answer.")
        XCTAssertEqual(n.explanation, "Check that it is on and on this network.\n\nconnect timed out")
        XCTAssertTrue(n.hasMore)
    }

    func testOneSentenceWithoutDetailNeedsNoDetails() async {
        let n = notice("Saved as the default style.")
        XCTAssertEqual(n.headline, "Saved as the default style.")
        XCTAssertNil(n.explanation)
        XCTAssertFalse(n.hasMore)
        XCTAssertTrue(notice("Gone.", retry: "device-1").hasMore, "Try Again lives in Details")
    }

    func testNumbersNamesAndOtherScriptsAreNotCutApart() async {
        XCTAssertEqual(notice("192.168.1.20 did not answer.").headline, "192.168.1.20 did not answer.")
        XCTAssertEqual(notice("Version 1.2 of Film… is here. More.").headline, "Version 1.2 of Film… is here.")
        XCTAssertEqual(notice("無法連線。請檢查網路").headline, "無法連線。")
        XCTAssertEqual(notice("وصل نشد؟ دوباره").headline, "وصل نشد؟")
    }

    func testMediaKindPicksTheIcon() async {
        func media(_ type: String?, _ meta: MetadataType?) -> MediaInformation {
            MediaInformation(contentId: "http://example.com/x", contentType: type, metadata: meta.map { MediaMetadata(metadataType: $0) })
        }
        XCTAssertEqual(MediaKind(media("video/mp4", nil)), .video)
        XCTAssertEqual(MediaKind(media("video/mp4", .musicTrack)), .audio, "a music track served as MP4 is music")
        XCTAssertEqual(MediaKind(media("audio/mpeg", .generic)), .audio)
        XCTAssertEqual(MediaKind(media("image/jpeg", nil)), .image)
        XCTAssertEqual(MediaKind(media(nil, .photo)), .image)
        XCTAssertEqual(MediaKind(nil), .video)
        XCTAssertEqual(MediaKind.audio.iconName, "audio-x-generic-symbolic")
    }

    func testEveryEndHasOneWord() async {
        XCTAssertEqual(AppModel.PlaybackPhase.finished.endedText, "Finished")
        XCTAssertEqual(AppModel.PlaybackPhase.stopped.endedText, "Stopped")
        XCTAssertEqual(AppModel.PlaybackPhase.failed.endedText, "Could not play")
        XCTAssertNil(AppModel.PlaybackPhase.playing.endedText)
        XCTAssertTrue(AppModel.PlaybackPhase.failed.isOver)
        XCTAssertFalse(AppModel.PlaybackPhase.paused.isOver)
    }
}
