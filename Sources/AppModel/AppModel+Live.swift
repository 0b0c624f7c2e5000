// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol

// Live streams: every surface (the expanded controller, the mini controller and mini player,
// MPRIS) reads the same facts from here, which read CastClient's one rule
// (`MediaStatusSnapshot.live(at:)`, `LivePlayback`), the rule castctl prints too.
extension AppModel {
    /// The live facts at `now`; nil for media that is not a live stream.
    public func live(at now: ContinuousClock.Instant) -> LivePlayback? {
        snapshot?.live(at: now)
    }
    public var live: LivePlayback? { live(at: .now) }

    /// Nearer the live edge than this (seconds) is at the edge (CastClient's `LivePlayback`).
    public static let liveEdgeTolerance = LivePlayback.edgeTolerance

    /// A live stream that has not ended: the "Live" badge shows.
    public var isLive: Bool { live?.isLive == true }

    /// Where a seek can go at `now`: the media's length, or a live stream's seekable window
    /// (nil when there is neither: a live stream without a window, an unknown duration).
    public func seekableRange(at now: ContinuousClock.Instant) -> ClosedRange<Double>? {
        if let live = live(at: now) { return live.seekableRange }
        guard let d = duration, d > 0 else { return nil }
        return 0...d
    }
    public var seekableRange: ClosedRange<Double>? { seekableRange(at: .now) }

    /// "Live" with the device's name, or the device's name: the line under the title of the
    /// mini controller and the mini player.
    public var castingLine: String {
        let casting = sessionDeviceName.map { tr("Casting to {0}", $0) } ?? subtitle
        return isLive ? Localization.joinParts([tr("Live"), casting]) : casting
    }

    /// The position as a fraction of what can be seeked (0…1), for the progress lines outside
    /// an ad (`progressFraction`); 0 when nothing can be (a live stream without a window sits
    /// at its edge: 1).
    func seekableFraction(at now: ContinuousClock.Instant) -> Double {
        guard let range = seekableRange(at: now) else { return isLive ? 1 : 0 }
        let span = range.upperBound - range.lowerBound
        guard span > 0 else { return 1 }
        return min(1, max(0, (position(at: now) - range.lowerBound) / span))
    }

    /// Go to Live: a seek to the live edge, as the Cast SDK's sender does.
    func goToLive() async {
        guard let edge = live?.liveEdge else { return }
        await seek(to: edge)
    }
}
