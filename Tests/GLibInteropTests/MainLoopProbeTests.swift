// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk
import Foundation
import GLibInterop
import XCTest

/// CASTDECK_MAINLOOP_PROBE's probe: a main loop blocked on purpose shows as a stall at least
/// as long as the block, in a JSON line on the monotonic clock.
/// XCTest runs test methods on the process main thread (see MainLoopTests).
final class MainLoopProbeTests: XCTestCase {
    func testABlockedLoopIsMeasured() throws {
        try MainActor.assumeIsolated { try Self.blockedLoop() }
    }

    @MainActor
    static func blockedLoop() throws {
        let path = NSTemporaryDirectory() + "probe-\(getpid()).jsonl"
        defer { unlink(path) }
        let probe = try XCTUnwrap(MainLoopProbe(path: path))
        var ticks = 0
        GLibSource.timeout(ms: 5) {
            ticks += 1
            return ticks < 10
        }
        iterate { ticks >= 10 }
        let before = ProcessInfo.processInfo.systemUptime
        usleep(150_000)  // the main loop cannot run its sources meanwhile
        var after = 0
        GLibSource.timeout(ms: 30) {
            after += 1
            return after < 3
        }
        iterate { after >= 3 }
        probe.finish()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let objects = try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Double]) }
        let last = try XCTUnwrap(objects.last)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(last["longest_ms"]), 130)
        XCTAssertGreaterThanOrEqual(objects.map { $0["max_ms"] ?? 0 }.max() ?? 0, 130)
        // `t` is CLOCK_MONOTONIC seconds, the clock systemUptime reads too.
        XCTAssertGreaterThan(try XCTUnwrap(last["t"]), before)
        XCTAssertNil(MainLoopProbe(path: "/nonexistent-dir/probe.jsonl"))
    }
}
