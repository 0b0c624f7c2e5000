// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import Synchronization

/// The time base of simulated playback: media positions, ad-break progress and the end of
/// media are all computed from `now`. Heartbeats and fault timers use real time regardless.
///
/// Inject a ``ManualClock`` to drive playback deterministically from tests.
public protocol ReceiverClock: Sendable {
    /// Seconds since an arbitrary, fixed origin; never decreases.
    var now: Double { get }
}

/// Real, monotonic time: what `castctl receiver` uses unless told `--clock manual`.
public struct SystemClock: ReceiverClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var now: Double {
        let d = origin.duration(to: ContinuousClock.now)
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// A clock that moves only when told to. Tests advance it through
/// ``CastReceiverServer/advanceClock(by:)`` so the receiver also re-evaluates playback
/// (ad breaks starting and ending, media finishing) at the new time and tells every sender.
public final class ManualClock: ReceiverClock {
    private let seconds: Mutex<Double>

    /// - Parameter start: the initial reading, in seconds.
    public init(start: Double = 0) { seconds = Mutex(start) }

    public var now: Double { seconds.withLock { $0 } }

    /// Moves the clock forward. Negative amounts are ignored: the clock never goes back.
    /// Prefer ``CastReceiverServer/advanceClock(by:)``, which also updates playback at once.
    public func advance(by delta: Double) {
        guard delta > 0, delta.isFinite else { return }
        seconds.withLock { $0 += delta }
    }
}
