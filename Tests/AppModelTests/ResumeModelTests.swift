// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastProtocol
import Foundation
import LocalMedia
import XCTest

/// Where playback stopped, in the window's model (issue 36), against the simulated receiver:
/// what the window cast is remembered from the statuses it follows (pause, stop, a timer),
/// casting it again asks (Resume / Start Over / cancel), a moved file is the same file, the
/// end forgets, a queue goes on at its item, and the switch turns it all off.
@MainActor
final class ResumeModelTests: XCTestCase {
    var h: Harness!
    var model: AppModel!
    var dir = ""
    var memory: PlaybackMemory!
    var asked: [AppModel.ResumeQuestion] = []
    var answer = AppModel.ResumeAnswer.resume
    let link = "http://127.0.0.1:9/resume/film.mp4"

    override func setUp() async throws {
        h = try await Harness.start()
        model = h.model()
        dir = NSTemporaryDirectory() + "castdeck-resume-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/album", withIntermediateDirectories: true)
        memory = PlaybackMemory(path: dir + "/state/playback-positions.json")
        model.playbackMemory = memory
        model.resumePrompt = { [unowned self] question in
            self.asked.append(question)
            return self.answer
        }
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address)))
    }

    override func tearDown() async throws {
        await model.disconnect()
        await h.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    func receiver() async throws -> MediaStatus? { try await h.receiverMedia() }

    /// Seeks on the receiver and waits until the model has heard. A link has no duration, so
    /// no seek bar (seek-to is not enabled): a relative seek from where it is, as the arrow
    /// keys and MPRIS' Seek send it.
    func seek(_ seconds: Double) async throws {
        let outcome = await model.perform(.seekBy(seconds - model.position))
        XCTAssertEqual(outcome, .performed)
        try await waitUntil("the seek to \(seconds)") { abs(self.model.position - seconds) < 1.5 }
    }

    func stop() async throws {
        await model.perform(.stopCasting)
        try await waitUntil("stopped") { self.model.phase == .stopped }
    }

    func remembered(_ key: PlaybackKey, near position: Double) async throws {
        try await waitUntil("\(key) remembered at \(position)") {
            guard let p = self.memory.position(for: key)?.position else { return false }
            return abs(p - position) < 2
        }
    }

    func testALinkStoppedPartWayAsksAndResumesOrStartsOver() async throws {
        await model.castLink(link)
        XCTAssertTrue(asked.isEmpty, "nothing remembered: nothing asked")
        try await waitUntil("playing") { self.model.isPlaying }
        try await seek(70)
        try await stop()
        try await remembered(.link(link), near: 70)

        answer = .resume
        await model.castLink(link)
        XCTAssertEqual(asked.count, 1)
        XCTAssertEqual(asked.first?.title, "film.mp4")
        XCTAssertEqual(asked.first?.position ?? 0, 70, accuracy: 2)
        XCTAssertNil(asked.first?.item)
        let resumed = try await receiver()
        XCTAssertEqual(resumed?.playerState, .playing)
        XCTAssertEqual(resumed?.currentTime ?? 0, 70, accuracy: 2, "loaded where it stopped")

        try await stop()
        answer = .startOver
        await model.castLink(link)
        XCTAssertEqual(asked.count, 2)
        let over = try await receiver()
        XCTAssertEqual(over?.currentTime ?? -1, 0, accuracy: 1, "Start Over")
        try await waitUntil("the old place forgotten once it plays from the start") { self.memory.position(for: .link(self.link)) == nil }

        try await seek(80)
        try await stop()
        try await remembered(.link(link), near: 80)
        answer = .cancel
        let before = try await receiver()?.mediaSessionId
        await model.castLink(link)
        XCTAssertEqual(asked.count, 3)
        let cancelled = try await receiver()
        XCTAssertEqual(cancelled?.mediaSessionId, before, "Escape: nothing was loaded")
        XCTAssertEqual(cancelled?.playerState, .idle)

        // Play Again starts at the start, as it says, without asking.
        await model.perform(.playAgain)
        XCTAssertEqual(asked.count, 3)
        let again = try await receiver()
        XCTAssertEqual(again?.currentTime ?? -1, 0, accuracy: 1)
    }

    func testAFileIsRememberedWhilePlayingAndOnPauseAndKnownWhereverItIs() async throws {
        model.resumeInterval = 0.3
        let film = dir + "/film.mp3"
        try makeAudio(film, title: "Film", seconds: 120)
        await model.castFiles([film])
        try await waitUntil("playing") { self.model.isPlaying }
        try await seek(40)
        // No pause, no stop: the timer writes while it plays.
        try await remembered(try .file(film), near: 40)
        await model.perform(.pause)
        try await seek(55)
        try await remembered(try .file(film), near: 55)

        // The same film moved and renamed: the same place.
        let moved = dir + "/album/Moved Film.mp3"
        try FileManager.default.moveItem(atPath: film, toPath: moved)
        await model.castFiles([moved])
        XCTAssertEqual(asked.count, 1)
        XCTAssertEqual(asked.first?.title, "Moved Film.mp3")
        XCTAssertEqual(asked.first?.position ?? 0, 55, accuracy: 2)
        try await waitUntil("the moved film playing") { self.model.isPlaying }
        let moving = try await receiver()
        XCTAssertEqual(moving?.currentTime ?? 0, 55, accuracy: 2)

        // Played to its end (the last 5 %): forgotten, the next cast starts over.
        try await seek(118)
        try await h.server.advanceClock(by: 5)
        try await waitUntil("finished") { self.model.phase == .finished }
        try await waitUntil("forgotten at the end") { self.memory.position(for: try .file(moved)) == nil }
        await model.castFiles([moved])
        XCTAssertEqual(asked.count, 1, "nothing to ask about")
    }

    func testAQueueGoesOnAtItsItem() async throws {
        for (n, title) in [(1, "One"), (2, "Two"), (3, "Three")] { try makeAudio("\(dir)/album/\(n) - \(title).mp3", title: title, seconds: 60) }
        let album = dir + "/album"
        await model.castFiles([album])
        try await waitUntil("three items") { self.model.queue.count == 3 }
        await model.perform(.queueJump(model.queue.itemIDs[1]))
        try await waitUntil("the second item") { self.model.queue.currentIndex == 1 && self.model.isPlaying }
        try await seek(25)
        try await stop()
        let key = try XCTUnwrap(PlaybackKey.queue(sources: [album]))
        try await waitUntil("the queue remembered") {
            guard let p = self.memory.position(for: key) else { return false }
            return p.item == 1 && abs(p.position - 25) < 2
        }

        await model.castFiles([album])
        XCTAssertEqual(asked.count, 1)
        XCTAssertEqual(asked.first?.item, 1)
        XCTAssertEqual(asked.first?.position ?? 0, 25, accuracy: 2)
        XCTAssertEqual(asked.first?.title, "album")
        let status = try await receiver()
        let items = try await h.server.queueItems()
        XCTAssertEqual(items.count, 3)
        XCTAssertEqual(status?.currentItemId, items[1].itemId, "the second item")
        XCTAssertEqual(status?.currentTime ?? 0, 25, accuracy: 2)
    }

    func testTurningItOffForgetsEverythingAndAsksNothing() async throws {
        let prefs = MemoryPlaybackPreferences()
        model.playbackPreferences = prefs
        await model.castLink(link)
        try await waitUntil("playing") { self.model.isPlaying }
        try await seek(70)
        try await stop()
        try await remembered(.link(link), near: 70)
        XCTAssertEqual(model.state(of: .toggleRememberPositions), .bool(true))
        XCTAssertTrue(model.isEnabled(.toggleRememberPositions))

        await model.perform(.toggleRememberPositions)
        XCTAssertFalse(model.remembersPositions)
        XCTAssertFalse(prefs.remembersPositions, "kept in the preferences")
        XCTAssertEqual(model.state(of: .toggleRememberPositions), .bool(false))
        try await waitUntil("everything forgotten") { self.memory.all().isEmpty }
        await model.castLink(link)
        XCTAssertTrue(asked.isEmpty)
        try await seek(90)
        try await stop()
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertTrue(memory.all().isEmpty, "off: nothing written")

        // Preferences, through the action table: offered once the window says how.
        XCTAssertFalse(model.isEnabled(.showPreferences))
        var shown = 0
        model.preferencesPrompt = { shown += 1 }
        XCTAssertTrue(model.isEnabled(.showPreferences))
        await model.perform(.showPreferences)
        XCTAssertEqual(shown, 1)
        XCTAssertEqual(AppAction.Name.showPreferences.accelerators, ["<Control>comma"])

        // Changed elsewhere (gsettings set): the model follows.
        prefs.remembersPositions = true
        model.playbackPreferencesChanged()
        XCTAssertTrue(model.remembersPositions)

        // GSettings says "changed" while the switch writes it: that comes back into the model,
        // which must find nothing left to do (it recursed until the stack ran out).
        let echoing = EchoingPreferences()
        echoing.model = model
        model.playbackPreferences = echoing
        await model.perform(.toggleRememberPositions)
        XCTAssertFalse(model.remembersPositions)
        XCTAssertFalse(echoing.value)
        XCTAssertEqual(echoing.writes, 1)
    }
}

/// Preferences that say they changed as soon as they are written, as GSettings does.
@MainActor
final class EchoingPreferences: PlaybackPreferences {
    weak var model: AppModel?
    var value = true
    var writes = 0
    var surroundDevices: [String] = [] {
        didSet { model?.surroundPreferencesChanged() }
    }
    var remembersPositions: Bool {
        get { value }
        set {
            value = newValue
            writes += 1
            model?.playbackPreferencesChanged()
        }
    }
}
