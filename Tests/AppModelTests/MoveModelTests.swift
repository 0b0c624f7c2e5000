// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import Foundation
import XCTest

@testable import AppModel

/// Move to… headless (AppModel+Move.swift): a queue of files from this computer moves from one
/// simulated receiver to another that fetches what it loads, at another loopback address, so
/// the files must be shared anew for it; the window then follows the target. A target that
/// cannot be reached leaves the source playing and says so.
@MainActor
final class MoveModelTests: XCTestCase {
    var source: Harness!
    var target: Harness!
    var model: AppModel!
    var dir = ""

    override func setUp() async throws {
        source = try await Harness.start(name: "Living Room TV")
        target = try await Harness.start(name: "Kitchen Speaker", host: "127.0.0.2", fetchMedia: true)
        model = source.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: source.address, name: "Living Room TV")))
        dir = NSTemporaryDirectory() + "castdeck-move-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/album", withIntermediateDirectories: true)
        for (n, title) in [(1, "One"), (2, "Two"), (3, "Three")] { try makeAudio("\(dir)/album/\(n) - \(title).mp3", title: title) }
    }

    override func tearDown() async throws {
        await model.disconnect()
        await source.stop()
        await target.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    func testAQueueOfLocalFilesMovesAndTheWindowFollowsTheTarget() async throws {
        await model.castFiles([dir + "/album"])
        // Next is offered once the window knows the queue (its status may come after the
        // receiver has it): pressed earlier, it would be refused and the test would wait in vain.
        try await waitUntil("the queue on the source and in the window") {
            try await self.source.server.queueItems().count == 3 && self.model.queue.count == 3 && self.model.isEnabled(.queueNext)
        }
        await model.perform(.queueNext)
        try await waitUntil("item 2") { self.model.queue.currentIndex == 1 }
        await model.perform(AppAction(.setRate, .double(2)))
        try await waitUntil("item 2 at 2×") { self.model.mediaStatus?.playbackRate == 2 && self.model.queue.currentIndex == 1 }
        let kitchen = try XCTUnwrap(model.addDevice(address: target.address, name: "Kitchen Speaker"))
        XCTAssertEqual(model.moveTargets.map(\.id), [kitchen.id], "the connected device is not offered")
        XCTAssertTrue(model.isEnabled(.moveToDevice))
        let oldURLs = try await source.server.queueItems().compactMap { $0.media?.contentId }

        await model.perform(AppAction(.moveToDevice, .int(0)))

        XCTAssertNil(model.moveProgress)
        XCTAssertEqual(model.connection, .connected(deviceID: kitchen.id))
        let arrived = try await target.receiverMedia()
        let moved = try XCTUnwrap(arrived)
        XCTAssertEqual(moved.playerState, .playing, "the target fetched what it was given: the files were shared for it")
        XCTAssertEqual(moved.playbackRate, 2)
        let items = try await target.server.queueItems()
        XCTAssertEqual(items.map { $0.media?.metadata?.title }, ["One", "Two", "Three"])
        XCTAssertEqual(items.firstIndex { $0.itemId == moved.currentItemId }, 1)
        XCTAssertTrue(Set(items.compactMap { $0.media?.contentId }).isDisjoint(with: oldURLs), "new tokens for the new device")
        let left = try await source.receiverMedia()
        XCTAssertEqual(left?.playerState, .idle)
        XCTAssertEqual(model.queueCasts.count, 3, "the window serves the target's files")
        try await waitUntil("the window shows the target's queue") { self.model.queue.count == 3 }
    }

    func testAnUnreachableTargetLeavesTheSourcePlaying() async throws {
        await model.perform(.castSample)
        try await waitUntil("the sample plays") { self.model.mediaStatus?.playerState == .playing }
        let nowhere = try XCTUnwrap(model.addDevice(address: "127.0.0.1:1", name: "Nowhere"))
        let sourceID = try XCTUnwrap(model.connectedDevice?.id)
        let moved = await model.move(toAddress: nowhere.address, deviceID: nowhere.id, name: "Nowhere")
        XCTAssertFalse(moved)
        XCTAssertEqual(model.connection, .connected(deviceID: sourceID))
        let still = try await source.receiverMedia()
        XCTAssertEqual(still?.playerState, .playing)
        let notice = try XCTUnwrap(model.notice)
        XCTAssertEqual(notice.text, "Nowhere could not play it, so it goes on playing here.")
        XCTAssertTrue(notice.detail?.contains("127.0.0.1:1") ?? false, notice.detail ?? "")
        XCTAssertTrue(model.isEnabled(.moveToDevice), "another try is possible")
    }
}
