// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastProtocol
import XCTest

@testable import LocalMedia

/// When the window and a serving castctl write down where media stands.
final class ResumeTrackerTests: XCTestCase {
    let t0 = ContinuousClock.now
    func at(_ s: Double) -> ContinuousClock.Instant { t0 + .milliseconds(Int64(s * 1000)) }
    func remember(_ p: Double, _ d: Double? = 600, item: Int? = nil, of n: Int? = nil) -> ResumeTracker.Report {
        .remember(position: p, duration: d, item: item, itemCount: n)
    }

    func testWritesWhilePlayingEveryIntervalAndOnPause() {
        var t = ResumeTracker(key: .link("https://example.com/a.mp4"), interval: 15)
        XCTAssertNil(t.status(.waiting, position: 0, duration: 600, at: at(0)), "loading says nothing yet")
        XCTAssertEqual(t.status(.playing(rate: 1), position: 100, duration: 600, at: at(1)), remember(100))
        XCTAssertNil(t.status(.playing(rate: 1), position: 105, duration: 600, at: at(6)))
        XCTAssertNil(t.tick(at: at(15)))
        XCTAssertEqual(t.tick(at: at(16)), remember(115), "moved on by the clock from the last status")
        XCTAssertEqual(t.status(.paused, position: 130, duration: 600, at: at(26)), remember(130), "a pause at once")
        XCTAssertNil(t.status(.paused, position: 130, duration: 600, at: at(27)), "the same pause again: nothing")
        XCTAssertNil(t.tick(at: at(100)), "paused: no timer writes")
        XCTAssertEqual(t.status(.playing(rate: 2), position: 130, duration: 600, at: at(100)), remember(130), "playing again, long after the last write")
        XCTAssertEqual(t.tick(at: at(116)), remember(162), "at twice the speed")
    }

    func testStoppedIsWhereItWasAndFinishedForgets() {
        var t = ResumeTracker(key: .link("https://example.com/a.mp4"))
        _ = t.status(.playing(rate: 1), position: 70, duration: 600, at: at(0))
        // The IDLE status comes 4 s later; where it says it is does not matter.
        XCTAssertEqual(t.status(.ended(finished: false), position: 0, duration: 600, at: at(4)), remember(74))
        XCTAssertTrue(t.isDone)
        XCTAssertNil(t.status(.playing(rate: 1), position: 80, duration: 600, at: at(5)), "done")
        XCTAssertNil(t.end(at: at(6)))

        var f = ResumeTracker(key: .link("https://example.com/a.mp4"))
        _ = f.status(.playing(rate: 1), position: 590, duration: 600, at: at(0))
        XCTAssertEqual(f.status(.ended(finished: true), position: 600, duration: 600, at: at(10)), .forget)

        var never = ResumeTracker(key: .link("https://example.com/a.mp4"))
        XCTAssertNil(never.status(.ended(finished: false), position: nil, duration: nil, at: at(1)), "failed before it played")
        var clamped = ResumeTracker(key: .link("https://example.com/a.mp4"))
        _ = clamped.status(.playing(rate: 1), position: 595, duration: 600, at: at(0))
        XCTAssertEqual(clamped.end(at: at(60)), remember(600), "never past the end")
    }

    func testAQueueWritesItsItem() {
        var t = ResumeTracker(key: .link("https://example.com/q"), interval: 15)
        XCTAssertEqual(t.status(.playing(rate: 1), position: 20, duration: 180, item: 0, itemCount: 3, at: at(0)), remember(20, 180, item: 0, of: 3))
        XCTAssertEqual(
            t.status(.playing(rate: 1), position: 0, duration: 200, item: 1, itemCount: 3, at: at(2)), remember(0, 200, item: 1, of: 3),
            "another item: at once")
        // Between items a device may be IDLE/FINISHED for a moment.
        XCTAssertEqual(t.status(.ended(finished: true), position: nil, duration: nil, at: at(200)), remember(0, nil, item: 2, of: 3))
        XCTAssertFalse(t.isDone)
        _ = t.status(.playing(rate: 1), position: 0, duration: 100, item: 2, itemCount: 3, at: at(201))
        XCTAssertEqual(t.status(.ended(finished: true), position: nil, duration: nil, at: at(301)), .forget, "the end of the last")
    }

    func testStatesOfMediaStatuses() {
        var s = MediaStatus(mediaSessionId: 1, playerState: .playing)
        s.playbackRate = 2
        XCTAssertEqual(ResumeTracker.state(of: s), .playing(rate: 2))
        s.playerState = .buffering
        XCTAssertEqual(ResumeTracker.state(of: s), .waiting)
        s.playerState = .idle
        s.idleReason = .cancelled
        XCTAssertEqual(ResumeTracker.state(of: s), .ended(finished: false))
        s.idleReason = .finished
        XCTAssertEqual(ResumeTracker.state(of: s), .ended(finished: true))
        XCTAssertNil(ResumeTracker.state(of: nil))
    }

    func testReportsAreWrittenByTheMemory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tracker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let memory = PlaybackMemory(path: dir.appendingPathComponent("p.json").path)
        let key = PlaybackKey.link("https://example.com/a.mp4")
        try memory.apply(remember(70), for: key)
        XCTAssertEqual(memory.position(for: key)?.position, 70)
        try memory.apply(.forget, for: key)
        XCTAssertNil(memory.position(for: key))
    }
}
