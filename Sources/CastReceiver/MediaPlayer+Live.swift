// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol

/// A LIVE stream's timeline on the receiver's clock, as a Web Receiver plays a live HLS stream
/// with a replay (DVR) window: no duration; the live edge moves at 1× from the LOAD; the
/// seekable range is the last `window` seconds before the edge (`isMovingWindow`), reported in
/// `liveSeekableRange`; seeks are clamped into it; a stream that ends (`isLiveDone`, the test
/// hook END_LIVE) stops moving and plays to its last second, then IDLE/FINISHED.
///
/// Positions are seconds of stream time: at the LOAD the edge is at `window` (the window is
/// already filled, as a channel tuned into is), so the range starts at 0.
struct LiveTimeline: Equatable {
    /// The replay window in seconds (`castctl receiver --live-window`); 0: none (radio).
    var window: Double = 120
    /// Receiver clock when the stream was loaded.
    var loadedAt: Double = 0
    /// Receiver clock when the stream ended (END_LIVE); nil while it is live.
    var doneAt: Double?

    /// The live edge at `now`: it stops when the stream is done.
    func edge(at now: Double) -> Double {
        window + max(0, min(now, doneAt ?? now) - loadedAt)
    }

    /// Where a position may be at `now`: inside the window (without one, anywhere up to the edge).
    func range(at now: Double) -> ClosedRange<Double> {
        let end = edge(at: now)
        return max(0, end - window)...end
    }
}

extension MediaPlayer {
    var isLive: Bool { media?.streamType == .live }

    /// A live stream starts where it is asked to (inside the window), else at the live edge.
    mutating func startLive(requested: Double?, now: Double) {
        guard isLive else { return }
        live.loadedAt = now
        live.doneAt = nil
        contentTime = clampLive(requested ?? live.edge(at: now), at: now)
    }

    func clampLive(_ position: Double, at now: Double) -> Double {
        let range = live.range(at: now)
        return min(max(position, range.lowerBound), range.upperBound)
    }

    /// What MEDIA_STATUS reports for a live stream with a replay window (nil otherwise).
    func liveSeekableRange(at now: Double) -> LiveSeekableRange? {
        guard isLive, live.window > 0 else { return nil }
        let range = live.range(at: now)
        let done = live.doneAt != nil
        return LiveSeekableRange(start: range.lowerBound, end: range.upperBound, isMovingWindow: !done, isLiveDone: done)
    }

    /// Where the content ends: a live stream's last second once it is done (never before),
    /// else the media's duration.
    var contentEnd: Double? {
        if isLive { return live.doneAt.map { live.edge(at: $0) } }
        return media?.duration.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// END_LIVE: the stream stops being live; what the window holds plays to its end.
    /// Returns false when nothing live plays.
    mutating func endLive(now: Double) -> Bool {
        _ = advance(to: now)
        guard isActive, isLive, live.doneAt == nil else { return false }
        rebase(now)
        live.doneAt = now
        return true
    }
}
