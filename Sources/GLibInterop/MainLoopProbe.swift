// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CGtk
import Glibc

/// Measures how long the GLib main loop goes without running its sources: a 10 ms timeout
/// notes how late each wake-up comes (the actual time minus the time it was due). Every second
/// it appends one line of JSON to a file:
///
///     {"t":1234.567,"max_ms":3.1,"longest_ms":41.7,"ticks":100}
///
/// `t` is CLOCK_MONOTONIC in seconds (the same clock as Python's `time.monotonic()`), `max_ms`
/// the longest lateness in the second that ended at `t`, `longest_ms` the longest since the
/// start, `ticks` the wake-ups in that second. A test picks the lines of the interval it cares
/// about. `finish()` (on exit) writes the last, partial second. Enabled in castdeck by
/// CASTDECK_MAINLOOP_PROBE=PATH (docs/gui.md).
@MainActor
public final class MainLoopProbe {
    private let fd: Int32
    private let intervalUs = 10_000
    private var due = 0
    private var periodStart = 0
    private var periodMax = 0
    private var longest = 0
    private var ticks = 0
    private var source: guint = 0

    /// Starts probing and writing to `path` (truncated first); nil if it cannot be opened.
    public init?(path: String) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        let now = g_get_monotonic_time()
        due = now + intervalUs
        periodStart = now
        source = GLibSource.timeout(ms: UInt32(intervalUs / 1000)) { [weak self] in
            self?.tick() ?? false
        }
    }

    private func tick() -> Bool {
        let now = g_get_monotonic_time()
        let late = max(0, now - due)
        periodMax = max(periodMax, late)
        longest = max(longest, late)
        ticks += 1
        // GLib schedules the next wake-up from this one.
        due = now + intervalUs
        if now - periodStart >= 1_000_000 { flush(now) }
        return true
    }

    private func flush(_ now: Int) {
        let line = "{\"t\":\(Double(now) / 1e6),\"max_ms\":\(Double(periodMax) / 1000),\"longest_ms\":\(Double(longest) / 1000),\"ticks\":\(ticks)}\n"
        _ = line.withCString { write(fd, $0, strlen($0)) }
        periodStart = now
        periodMax = 0
        ticks = 0
    }

    /// Writes the partial last second and stops.
    public func finish() {
        guard source != 0 else { return }
        GLibSource.remove(source)
        source = 0
        flush(g_get_monotonic_time())
        close(fd)
    }
}
