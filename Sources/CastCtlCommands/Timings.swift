// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastCore
import Foundation
import LocalMedia

/// `CASTDECK_TIMINGS=1 castctl cast FILE`: one line on stderr as each step towards playing
/// ends, `castctl: timing: STEP SECONDS`, the seconds counted from the start of the cast
/// (the `play` benchmark splits the way to the first frame with them). Silent otherwise.
enum Timings {
    static let enabled = ProcessInfo.processInfo.environment["CASTDECK_TIMINGS"].map { !$0.isEmpty && $0 != "0" } ?? false
    private static let clock = ContinuousClock()
    /// Set once, before the cast's tasks start.
    nonisolated(unsafe) private static var origin: ContinuousClock.Instant?

    /// Starts the count.
    static func begin() {
        origin = clock.now
    }

    /// The step that has just ended.
    static func mark(_ step: String) {
        guard enabled, let start = origin else { return }
        write(step, clock.now - start)
    }

    /// The steps of `MediaShare.inspect`, which began with the count: each at the sum of the
    /// durations up to it.
    static func report(_ steps: [PrepareTiming]) {
        guard enabled else { return }
        var sum = 0.0
        for s in steps {
            sum += s.seconds
            Console.err(String(format: "castctl: timing: %@ %.4f\n", s.step.replacingOccurrences(of: " ", with: "-"), sum))
        }
    }

    private static func write(_ step: String, _ d: Duration) {
        Console.err(String(format: "castctl: timing: %@ %.4f\n", step.replacingOccurrences(of: " ", with: "-"), d.seconds))
    }
}
