// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol

/// The latest media status with the moment it arrived, and the one rule that turns it
/// into "where is playback now". castctl and the window both read positions from here,
/// so they cannot disagree about the same status at the same moment.
///
/// The rule, as the Default Media Receiver plays:
/// - nothing moves unless the player is PLAYING;
/// - during an ad break (`breakStatus` present) the content position holds at the reported
///   `currentTime` and the break clip's clock advances at normal speed (1×) from
///   `currentBreakClipTime` (ads ignore the playback rate);
/// - an embedded break (`isEmbedded`, the ad is part of the content's stream) is the
///   exception: the content position and the clip's clock both move at the playback rate;
/// - otherwise the content position advances by `playbackRate` per second, clamped to the
///   media's duration and never below 0;
/// - a live stream's position stays inside its seekable range, which moves with time
///   (`MediaStatusSnapshot+Live.swift`, `LivePlayback`).
public struct MediaStatusSnapshot: Sendable, Equatable {
    /// The receiver's latest word (merged with earlier statuses), nil when no media session.
    public var status: MediaStatus?
    /// When `status` arrived.
    public var receivedAt: ContinuousClock.Instant

    public init(status: MediaStatus?, receivedAt: ContinuousClock.Instant) {
        self.status = status
        self.receivedAt = receivedAt
    }

    /// Seconds elapsed since the status arrived while it was playing; 0 otherwise.
    private func playingTime(at now: ContinuousClock.Instant) -> Double {
        guard status?.playerState == .playing else { return 0 }
        return max(0, (now - receivedAt).seconds)
    }

    /// The content position at `now`, in seconds; nil when the status gives no position.
    public func streamPosition(at now: ContinuousClock.Instant) -> Double? {
        guard let status, let time = status.currentTime else { return nil }
        guard status.breakStatus == nil || isInEmbeddedBreak else { return max(0, time) }
        var position = time + (status.playbackRate ?? 1) * playingTime(at: now)
        if let range = liveRange(at: now) { return min(max(position, range.lowerBound), range.upperBound) }
        if !isLiveStream, let duration = status.effectiveMedia?.duration, duration > 0 { position = min(position, duration) }
        return max(position, 0)
    }

    /// Seconds into the playing ad clip at `now`; nil outside a break.
    public func breakClipTime(at now: ContinuousClock.Instant) -> Double? {
        guard let b = status?.breakStatus else { return nil }
        let rate = isInEmbeddedBreak ? (status?.playbackRate ?? 1) : 1
        return max(0, (b.currentBreakClipTime ?? 0) + rate * playingTime(at: now))
    }
}
