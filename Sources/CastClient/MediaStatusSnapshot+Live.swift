// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastProtocol

/// What a live stream's status means at one moment: the facts every surface shows (the window,
/// the mini player, MPRIS, `castctl status`), derived here once from the receiver's status.
///
/// The rule, as the Cast SDK reads `liveSeekableRange`:
/// - a stream is live when its `streamType` is LIVE or the status carries a seekable range,
///   until the receiver says `isLiveDone`; then it is an ended stream, a recording of fixed
///   length that plays to its end;
/// - the live edge (the range's `end`) moves with real time (1×, playing or paused, whatever
///   the playback rate); the range's `start` moves with it when `isMovingWindow`;
/// - the position never leaves the range (`streamPosition` clamps it): paused long enough, a
///   moving window drags it along; at 2× it stops at the live edge.
public struct LivePlayback: Sendable, Equatable {
    /// Nearer than this to the live edge (seconds) counts as at the edge: no "Go to Live", no
    /// time behind. Network delay and the receiver's buffering are of this order.
    public static let edgeTolerance = 3.0

    /// The seekable window at the moment; nil for a live stream without one (radio).
    public var seekableRange: ClosedRange<Double>?
    public var isMovingWindow: Bool
    /// The receiver said `isLiveDone`: no longer live, the range no longer moves.
    public var isDone: Bool
    /// The content position at the moment (inside `seekableRange` when there is one).
    public var position: Double?

    /// Still live (not ended).
    public var isLive: Bool { !isDone }
    /// Seconds behind the live edge (0 or more); nil without a range or once ended.
    public var behindLive: Double? {
        guard !isDone, let range = seekableRange, let position else { return nil }
        return max(0, range.upperBound - position)
    }
    /// Far enough behind the live edge for "Go to Live" and a "−1:20" to mean something.
    public var isBehindLive: Bool { (behindLive ?? 0) >= Self.edgeTolerance }
    /// Where "Go to Live" seeks: the live edge.
    public var liveEdge: Double? { isDone ? nil : seekableRange?.upperBound }
}

extension MediaStatusSnapshot {
    /// A live stream (LIVE, or with a seekable range), ended or not.
    public var isLiveStream: Bool {
        guard let status else { return false }
        return status.effectiveMedia?.streamType == .live || status.liveSeekableRange != nil
    }

    /// The live facts at `now`; nil for a stream that is not live.
    public func live(at now: ContinuousClock.Instant) -> LivePlayback? {
        guard isLiveStream, let status else { return nil }
        let range = status.liveSeekableRange
        return LivePlayback(
            seekableRange: liveRange(at: now), isMovingWindow: range?.isMovingWindow ?? false,
            isDone: range?.isLiveDone ?? false, position: streamPosition(at: now))
    }

    /// The seekable window at `now`, moved on from the status by the time since it arrived.
    /// nil when the receiver sent none (or one with no end, or ending before it starts).
    func liveRange(at now: ContinuousClock.Instant) -> ClosedRange<Double>? {
        guard let r = status?.liveSeekableRange, let end = r.end, end.isFinite else { return nil }
        let start = r.start.map { $0.isFinite ? $0 : 0 } ?? 0
        guard start <= end else { return nil }
        guard r.isLiveDone != true else { return start...end }
        let elapsed = max(0, (now - receivedAt).seconds)
        return (r.isMovingWindow == true ? start + elapsed : start)...(end + elapsed)
    }
}
