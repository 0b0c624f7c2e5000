// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import CastProtocol

/// When a sender writes down where its media stands: the one rule of the window and of the
/// castctl that serves a file, fed with the media statuses they follow anyway.
///
/// - while it plays, every `interval` seconds (15: a crash or a pulled plug loses at most
///   that much), checked on each status and on `tick`;
/// - at once when it pauses, and when the queue moves to another item;
/// - when it stops, is replaced or fails (IDLE but not FINISHED): where it was, reckoned from
///   the last status before (a device's IDLE status need not say where it stopped);
/// - when it finishes: forget it;
/// - when the sender lets go (`end`: the link dropped, Ctrl-C, quit): where it was.
///
/// `position` is the content position at the status's arrival, by CastClient's rule
/// (`MediaStatusSnapshot.streamPosition`); the tracker moves it on by the rate in between.
public struct ResumeTracker: Sendable {
    public enum State: Equatable, Sendable {
        case playing(rate: Double)
        case paused
        /// Buffering or loading: the position holds.
        case waiting
        /// IDLE: `finished` when it played to its end (or the queue did).
        case ended(finished: Bool)
    }

    /// What to write down.
    public enum Report: Equatable, Sendable {
        case remember(position: Double, duration: Double?, item: Int?, itemCount: Int?)
        /// It played to the end.
        case forget
    }

    public let key: PlaybackKey
    public let interval: Double

    private struct Last {
        var position: Double
        var at: ContinuousClock.Instant
        var rate: Double
        var duration: Double?
        var item: Int?
        var itemCount: Int?
    }

    private var last: Last?
    private var written: (at: ContinuousClock.Instant, position: Double, item: Int?)?
    /// Nothing more is written once the media ended or the sender let go.
    public private(set) var isDone = false

    public init(key: PlaybackKey, interval: Double = 15) {
        self.key = key
        self.interval = interval
    }

    /// The state a media status stands for (nil without one).
    public static func state(of status: MediaStatus?) -> State? {
        guard let status else { return nil }
        switch status.playerState {
        case .playing: return .playing(rate: status.playbackRate ?? 1)
        case .paused: return .paused
        case .buffering, .loading: return .waiting
        case .idle, .unknown:
            // IDLE with no reason and media: loaded, not started (autoplay off).
            if status.idleReason == nil { return status.effectiveMedia != nil ? .paused : nil }
            return .ended(finished: status.idleReason == .finished)
        }
    }

    /// A media status arrived at `now`.
    public mutating func status(
        _ state: State, position: Double?, duration: Double?, item: Int? = nil,
        itemCount: Int? = nil, at now: ContinuousClock.Instant
    ) -> Report? {
        guard !isDone else { return nil }
        switch state {
        case .ended(finished: true):
            // Between a queue's items a device may say IDLE/FINISHED for a moment: the next
            // item is where it goes on. The end of the last item is the end.
            if let l = last, let i = l.item, let count = l.itemCount, i + 1 < count {
                written = (now, 0, i + 1)
                return .remember(position: 0, duration: nil, item: i + 1, itemCount: count)
            }
            isDone = true
            return .forget
        case .ended(finished: false):
            return end(at: now)
        case .playing, .paused, .waiting:
            guard let position, position.isFinite else { return nil }
            let rate: Double = if case .playing(let r) = state, r.isFinite { r } else { 0 }
            let movedItem = written.map { $0.item != item } ?? false
            last = Last(position: position, at: now, rate: rate, duration: duration, item: item, itemCount: itemCount)
            // Loading says little (a device may say 0 before it has sought to the start time):
            // written only once it plays or pauses.
            if state == .waiting { return nil }
            if state == .paused, let w = written, w.item == item, abs(w.position - position) < 0.5 { return nil }
            if state == .paused || movedItem || isDue(now) { return report(at: now) }
            return nil
        }
    }

    /// A timer: writes while it plays, once `interval` has passed since the last write.
    public mutating func tick(at now: ContinuousClock.Instant) -> Report? {
        guard !isDone, let last, last.rate > 0, isDue(now) else { return nil }
        return report(at: now)
    }

    /// The sender lets go (or the media stopped): where it stands now, once.
    public mutating func end(at now: ContinuousClock.Instant) -> Report? {
        guard !isDone else { return nil }
        isDone = true
        return last == nil ? nil : report(at: now)
    }

    /// The position at `now`, moved on from the last status by its rate, within the duration.
    public func position(at now: ContinuousClock.Instant) -> Double? {
        guard let last else { return nil }
        let elapsed = now - last.at
        var p = last.position + last.rate * max(0, elapsed.seconds)
        if let d = last.duration, d > 0 { p = min(p, d) }
        return max(0, p)
    }

    private func isDue(_ now: ContinuousClock.Instant) -> Bool {
        guard let w = written else { return true }
        return now - w.at >= .seconds(interval)
    }

    private mutating func report(at now: ContinuousClock.Instant) -> Report? {
        guard let last, let p = position(at: now) else { return nil }
        written = (now, p, last.item)
        return .remember(position: p, duration: last.duration, item: last.item, itemCount: last.itemCount)
    }
}

extension PlaybackMemory {
    /// Writes what a tracker reported for `key`.
    public func apply(_ report: ResumeTracker.Report, for key: PlaybackKey) throws(PlaybackMemoryError) {
        switch report {
        case .forget: try forget(key)
        case .remember(let position, let duration, let item, let count):
            try remember(key, at: position, duration: duration, item: item, of: count)
        }
    }
}
