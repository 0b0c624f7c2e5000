// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient

extension Output {
    /// The time part of the media line for a live stream, from CastClient's live facts:
    /// "LIVE" at the live edge, "LIVE −1:20" behind it (with the window that can be seeked),
    /// and for a stream that has ended, the position and length of what it recorded.
    static func liveTime(_ live: LivePlayback) -> String {
        guard let range = live.seekableRange else { return live.isLive ? "LIVE" : "\(seconds(live.position)) / --:--" }
        let window = range.upperBound - range.lowerBound
        guard live.isLive else {
            return "ENDED LIVE  \(seconds((live.position ?? range.lowerBound) - range.lowerBound)) / \(seconds(window))"
        }
        let behind = live.isBehindLive ? " -" + seconds(live.behindLive ?? 0) : ""
        return "LIVE\(behind)  (seekable \(seconds(window)))"
    }
}

/// `"live"` in `castctl status --json` and the other status reports: CastClient's live facts.
struct LiveReport: Encodable {
    /// False once the receiver said the stream ended (isLiveDone).
    var isLive: Bool
    var seekableStart: Double?
    var seekableEnd: Double?
    var isMovingWindow: Bool
    /// Seconds behind the live edge.
    var behindLive: Double?

    init(_ live: LivePlayback) {
        isLive = live.isLive
        seekableStart = live.seekableRange?.lowerBound
        seekableEnd = live.seekableRange?.upperBound
        isMovingWindow = live.isMovingWindow
        behindLive = live.behindLive
    }
}
