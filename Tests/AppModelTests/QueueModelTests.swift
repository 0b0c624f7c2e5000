// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastProtocol
import Foundation
import XCTest

/// The window's queue state and commands, headless, against the simulated receiver: a folder
/// of three audio files (made with ffmpeg) cast as a queue, Play Next / Add to Queue, the
/// queue actions of the table, and another sender's edits reaching the model.
@MainActor
final class QueueModelTests: XCTestCase {
    var h: Harness!
    var model: AppModel!
    var dir = ""

    override func setUp() async throws {
        h = try await Harness.start()
        model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address)))
        dir = NSTemporaryDirectory() + "castdeck-queue-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/album", withIntermediateDirectories: true)
        for (n, title) in [(1, "One"), (2, "Two"), (10, "Ten")] { try makeAudio("\(dir)/album/\(n) - \(title).mp3", title: title) }
        try makeAudio("\(dir)/extra.mp3", title: "Extra")
        try makeAudio("\(dir)/later.mp3", title: "Later")
    }

    override func tearDown() async throws {
        await model.disconnect()
        await h.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    func receiverTitles() async throws -> [String?] {
        try await h.server.queueItems().map { $0.media?.metadata?.title }
    }

    func expectTitles(_ want: [String?], line: UInt = #line) async throws {
        let got = try await receiverTitles()
        XCTAssertEqual(got, want, line: line)
    }

    func expectMedia<T: Equatable>(_ key: KeyPath<MediaStatus, T?>, _ want: T, line: UInt = #line) async throws {
        let got = try await h.receiverMedia()?[keyPath: key]
        XCTAssertEqual(got, want, line: line)
    }

    func testAFolderBecomesAQueueAndTheTableMovesIt() async throws {
        await model.castFiles([dir + "/album"])
        try await expectTitles(["One", "Two", "Ten"])
        try await waitUntil("the model's three rows") { self.model.queueRows.count == 3 }
        await model.loadQueueItems(0..<3)
        try await waitUntil("the titles") { self.model.queueRows.map(\.title) == ["One", "Two", "Ten"] }
        XCTAssertTrue(model.queueRows[0].isCurrent)
        XCTAssertTrue(model.hasQueue)
        XCTAssertFalse(model.isEnabled(.queuePrev), "nothing before the first item with repeat off")
        XCTAssertTrue(model.isEnabled(.queueNext))

        // Something plays: Play Next and Add to Queue place the files.
        XCTAssertTrue(model.castingShouldAsk)
        await model.castQueue([dir + "/extra.mp3"], mode: .playNext)
        try await expectTitles(["One", "Extra", "Two", "Ten"])
        await model.castQueue([dir + "/later.mp3"], mode: .addToQueue)
        try await expectTitles(["One", "Extra", "Two", "Ten", "Later"])
        try await waitUntil("five rows") { self.model.queueRows.count == 5 }

        let ids = try await h.server.queueItems().compactMap(\.itemId)
        await model.perform(.queueNext)
        try await expectMedia(\.currentItemId, ids[1])
        await model.perform(.queueJump(ids[3]))
        try await expectMedia(\.currentItemId, ids[3])
        try await waitUntil("the model's current item") { self.model.queue.currentItemID == ids[3] }
        await model.perform(.queueMoveUp(ids[4]))
        try await expectTitles(["One", "Extra", "Two", "Later", "Ten"])
        try await waitUntil("the move in the model") { self.model.queue.itemIDs == [ids[0], ids[1], ids[2], ids[4], ids[3]] }
        await model.perform(.queueMoveDown(ids[0]))
        try await expectTitles(["Extra", "One", "Two", "Later", "Ten"])
        try await waitUntil("the second move in the model") { self.model.queue.itemIDs.first == ids[1] }
        await model.perform(.queuePlayNext(ids[1]))
        try await expectTitles(["One", "Two", "Later", "Ten", "Extra"])
        try await waitUntil("Play Next in the model") { self.model.queue.itemIDs.last == ids[1] }
        await model.perform(.queueRemove(ids[2]))
        try await expectTitles(["One", "Later", "Ten", "Extra"])
        // A row dragged onto another takes its place ("Extra" onto "One").
        await model.perform(.queueMove(ids[1], onto: ids[0]))
        try await expectTitles(["Extra", "One", "Later", "Ten"])
        try await waitUntil("the drag in the model") { self.model.queue.itemIDs.first == ids[1] }

        // Repeat cycles off → all → one → off; Shuffle on = all and shuffle, off = all.
        for want: RepeatMode in [.all, .single, .off] {
            await model.perform(.cycleRepeat)
            try await expectMedia(\.repeatMode, want)
            try await waitUntil("the model's repeat \(want)") { self.model.queue.repeatMode == want }
        }
        await model.perform(.toggleShuffle)
        try await expectMedia(\.repeatMode, .allAndShuffle)
        try await waitUntil("shuffle on") { self.model.state(of: .toggleShuffle) == .bool(true) }
        await model.perform(.toggleShuffle)
        try await expectMedia(\.repeatMode, .all)
    }

    func testAnotherSendersEditsReachTheModel() async throws {
        await model.castFiles([dir + "/album/1 - One.mp3", dir + "/album/2 - Two.mp3"])
        try await expectTitles(["One", "Two"])
        let phone = try await h.otherSender()
        defer { Task { await phone.leave() } }
        let extra = QueueItem(
            media: MediaInformation(
                contentId: "https://example.com/x.mp3", contentType: "audio/mpeg",
                metadata: MediaMetadata(title: "From the phone")))
        try await phone.media.queueInsert([extra])
        try await waitUntil("the phone's insert in the rows") { self.model.queueRows.count == 3 }
        await model.loadQueueItems(0..<3)
        try await waitUntil("its title") { self.model.queueRows.last?.title == "From the phone" }
        try await phone.media.queueRemove([try XCTUnwrap(model.queue.itemIDs.first)])
        try await waitUntil("the phone's removal") { self.model.queueRows.map(\.title) == ["Two", "From the phone"] }
    }

    /// "artist · 3:25" is joined by the translated separator: in Persian and Arabic a middle
    /// dot beside a digit reads as zero ("۳ · " looks like "۳۰"), so they use another mark.
    func testARowsPartsAreJoinedByTheTranslatedSeparator() async throws {
        // A phone launches the media receiver and loads a queue; the window follows.
        let phone = CastSession(device: try DeviceAddress(parsing: h.address), configuration: h.client)
        _ = try await phone.start()
        defer { Task { await phone.leave() } }
        let items = (1...2).map { n in
            QueueItem(
                media: MediaInformation(
                    contentId: "https://example.com/\(n).mp3", contentType: "audio/mpeg",
                    metadata: MediaMetadata(title: "Song \(n)", subtitle: "The Testers"), duration: 205))
        }
        try await phone.media.queueLoad(items, startIndex: 0, repeatMode: .off)
        try await waitUntil("two rows") { self.model.queueRows.count == 2 }
        await model.loadQueueItems(0..<2)
        try await waitUntil("the rows' details") { self.model.queueRows.allSatisfy(\.isLoaded) }
        XCTAssertEqual(model.queueRows.first?.detail, "The Testers · 3:25")

        let english = Localization.translate
        defer { Localization.translate = english }
        Localization.translate = { $0 == " · " ? "، " : english($0) }  // Arabic's translation
        XCTAssertEqual(Localization.separator, "، ")
        XCTAssertEqual(model.queueRows.first?.detail, "The Testers، 3:25")
        XCTAssertFalse(model.queueRows.contains { $0.detail.contains("·") }, "a middle dot beside the digits")
        XCTAssertEqual(Localization.joinParts(["Queue", "", "3 items"]), "Queue، 3 items", "empty parts are left out")
        // The duration in the UI language's digits too (issue 35: Persian rows showed 3:25).
        Localization.translate = { ["0123456789": "۰۱۲۳۴۵۶۷۸۹", " · ": "، "][$0] ?? english($0) }
        XCTAssertEqual(model.queueRows.first?.detail, "The Testers، ۳:۲۵")
    }
}
