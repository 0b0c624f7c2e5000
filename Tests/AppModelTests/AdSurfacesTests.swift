// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastCore
import CastProtocol
import CastReceiver
import XCTest

/// The ad as every surface shows it (AppModel+Ads): "Ad 1 of 3", the clip's title, its poster
/// as the artwork, the clip's progress, Learn More, and the content again after the break.
@MainActor
final class AdSurfacesTests: XCTestCase {
    var h: Harness!
    var model: AppModel!

    override func setUp() async throws {
        h = try await Harness.start()
        model = h.model()
        model.sampleMedia = SampleMedia.bigBuckBunny(artworkPath: "/art/film.png", adPosterPath: "/art/ad.svg")
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV")))
    }

    override func tearDown() async throws {
        await model?.disconnect()
        await h?.stop()
    }

    func testTheAdsFactsThenTheContentAgain() async throws {
        await model.perform(.castSample)
        let ad = try XCTUnwrap(model.adState)
        XCTAssertEqual(ad.heading, "Ad 1 of 3")
        XCTAssertEqual(ad.shownTitle, "Pre-roll ad 1")
        XCTAssertEqual(ad.learnMoreURL, "https://peach.blender.org/")
        try await waitUntil("the clip's poster") { ImageUse.currentMediaSurfaces.allSatisfy { self.model.adArtworkPaths[$0] == "/art/ad.svg" } }
        XCTAssertEqual(model.shownArtworkPath(for: .miniPlayer), "/art/ad.svg", "the poster stands for the artwork during the clip")
        let s = try XCTUnwrap(model.snapshot)
        let clip = try XCTUnwrap(model.adState(at: s.receivedAt))
        XCTAssertEqual(model.progressFraction(at: s.receivedAt), clip.clipTime / 15, accuracy: 0.0001, "the clip's progress")

        // The second clip has neither a poster nor a link.
        try await h.server.advanceClock(by: 15)
        try await waitUntil("the second clip") { self.model.adState?.clipIndex == 2 }
        XCTAssertNil(model.adState?.learnMoreURL)
        XCTAssertFalse(model.isEnabled(.openAdLink))
        try await waitUntil("the film's artwork") { self.model.shownArtworkPath(for: .expandedControllerBackground) == "/art/film.png" }

        try await h.server.advanceClock(by: 40)
        try await waitUntil("the content") { self.model.mediaStatus?.breakStatus == nil }
        XCTAssertNil(model.adState)
        XCTAssertEqual(model.adArtworkPaths, [:])
        XCTAssertEqual(model.shownArtworkPath(for: .miniPlayer), "/art/film.png")
        XCTAssertEqual(model.title, "Big Buck Bunny")
    }

    func testLearnMoreOpensOnlyTheClipsWebLink() async throws {
        await model.perform(.castSample)
        XCTAssertFalse(model.isEnabled(.openAdLink), "no desktop to open it with")
        var opened: [String] = []
        model.linkOpener = { opened.append($0) }
        XCTAssertTrue(model.isEnabled(.openAdLink))
        let outcome = await model.perform(.openAdLink)
        XCTAssertEqual(outcome, .performed)
        XCTAssertEqual(opened, ["https://peach.blender.org/"])
    }

    func testAHostileLinkIsNeverHandedToTheDesktop() async throws {
        var media = SampleMedia.bigBuckBunny(artworkPath: nil)
        media.breakClips?[0].clickThroughUrl = "file:///etc/passwd"
        model.sampleMedia = media
        var opened: [String] = []
        model.linkOpener = { opened.append($0) }
        await model.perform(.castSample)
        XCTAssertNotNil(model.adState)
        XCTAssertNil(model.adState?.learnMoreURL)
        let outcome = await model.perform(.openAdLink)
        XCTAssertEqual(outcome, .refused(nil))
        XCTAssertEqual(opened, [])
    }
}
