// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastCore
import CastProtocol
import Synchronization
import XCTest

/// Every place that shows artwork asks for its own image at the display's scale factor, and
/// a change of scale asks again: against the simulated receiver, with media it
/// loads, and an artwork provider that records the requests and answers with a path naming them.
@MainActor
final class ArtworkModelTests: XCTestCase {
    final class Recorder: ArtworkProvider {
        let requests = Mutex<[String]>([])
        func localPath(for images: [CastImage], use: ImageUse, scale: Int) async -> String? {
            let asked = "\(use.rawValue)@\(scale)"
            requests.withLock { $0.append(asked) }
            return "/art/\(asked)/\(images.count)"
        }
        var asked: Set<String> { requests.withLock { Set($0) } }
    }

    func testEachPlaceAsksForItsOwnSizeAndAgainWhenTheScaleChanges() async throws {
        let h = try await Harness.start()
        let recorder = Recorder()
        let model = h.model(artwork: recorder)
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV")))
        XCTAssertTrue(model.isConnected, model.notice?.text ?? "")

        let images = [
            CastImage(url: "http://127.0.0.1:9/small.png", width: 64, height: 64),
            CastImage(url: "http://127.0.0.1:9/large.png", width: 1280, height: 1280),
        ]
        let media = MediaInformation(
            contentId: "https://media.example/film.mp4", contentType: "video/mp4",
            metadata: MediaMetadata(metadataType: .movie, title: "Poster test", images: images), duration: 600)
        await model.load(media)

        let places = ImageUse.allCases
        try await waitUntil("every place resolved at scale 1") { places.allSatisfy { model.artworkPath(for: $0) != nil } }
        for use in places {
            XCTAssertEqual(model.artworkPath(for: use), "/art/\(use.rawValue)@1/2", "\(use)")
        }

        model.displayScale = 2
        try await waitUntil("every place resolved again at scale 2") {
            places.allSatisfy { model.artworkPath(for: $0) == "/art/\($0.rawValue)@2/2" }
        }
        XCTAssertEqual(recorder.asked, Set(places.flatMap { ["\($0.rawValue)@1", "\($0.rawValue)@2"] }))

        // Statuses of the same media do not ask again.
        let before = recorder.requests.withLock { $0.count }
        try await model.session!.media.requestStatus()
        XCTAssertEqual(recorder.requests.withLock { $0.count }, before)

        await model.disconnect()
        await h.stop()
    }

    func testAPlaceAsksForItsPointSizeTimesTheScale() {
        XCTAssertEqual(ImageUse.expandedControllerBackground.pixelWidth(scale: 2), 1280)
        XCTAssertEqual(ImageUse.miniControllerThumbnail.pixelWidth(scale: 1), 48)
        XCTAssertEqual(ImageUse.mediaSession.pixelWidth(scale: 0), 256, "a scale below 1 counts as 1")
    }

    func testLocalFilesPickTheImageNearestThePlace() async {
        let images = [
            CastImage(url: "file:///art/64.png", width: 64, height: 64),
            CastImage(url: "file:///art/1280.png", width: 1280, height: 1280),
        ]
        let local = LocalArtworkProvider()
        let web = CastImage(url: "https://example.com/700.png", width: 700, height: 700)
        let onlyLocal = await local.localPath(for: images + [web], use: .expandedControllerBackground, scale: 1)
        XCTAssertEqual(onlyLocal, "/art/1280.png", "a web image nearer the size is the cache's to fetch, not a local file")
        let none = await local.localPath(for: [web], use: .miniPlayer, scale: 1)
        XCTAssertNil(none)
        let thumb = await local.localPath(for: images, use: .miniControllerThumbnail, scale: 1)
        let large = await local.localPath(for: images, use: .expandedControllerBackground, scale: 2)
        XCTAssertEqual(thumb, "/art/64.png")
        XCTAssertEqual(large, "/art/1280.png")
    }
}
