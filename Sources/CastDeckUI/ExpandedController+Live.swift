// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// A live stream in the expanded controller: the "Live" badge at the end of the time row; with
/// a seekable window, the seek bar spans the window (and moves with it), the time reads how far
/// behind the live edge the position is ("−1:20"), and Go to Live jumps to the edge. A stream
/// without a window has no seek bar. Once the stream has ended (isLiveDone) the window is a
/// recording: elapsed and remaining time, no badge. All facts come from AppModel+Live.swift.
extension ExpandedController {
    var liveBadge: Label { ui.get("live-badge") }
    var goLiveButton: Button { ui.get("go-live") }

    /// Renders the seek bar and times of a live stream; false (nothing done) for other media.
    /// `settled`: the seek bar is not being moved, so it may be set.
    func renderLive(settled: Bool) -> Bool {
        guard let live = model.live else {
            liveBadge.isVisible = false
            goLiveButton.isVisible = false
            seek.isVisible = true
            return false
        }
        liveBadge.isVisible = live.isLive
        goLiveButton.isVisible = live.isBehindLive && model.isEnabled(.goToLive)
        seek.isVisible = live.seekableRange != nil
        guard settled else { return true }
        guard let range = live.seekableRange else {
            elapsed.text = ""
            remaining.text = ""
            return true
        }
        let position = live.position ?? range.upperBound
        seek.setRange(range.lowerBound, max(range.upperBound, range.lowerBound + 1))
        seek.value = position
        showLiveTimes(position: position, range: range, isLive: live.isLive)
        return true
    }

    /// While the seek bar is held on a live stream: how far behind live its target is.
    func showLiveSeekTarget() -> Bool {
        guard let live = model.live, let range = live.seekableRange else { return false }
        showLiveTimes(position: seek.value, range: range, isLive: live.isLive)
        return true
    }

    /// Behind the live edge: "−1:20" (nothing at the edge). An ended stream: elapsed and remaining.
    private func showLiveTimes(position: Double, range: ClosedRange<Double>, isLive: Bool) {
        if isLive {
            let behind = max(0, range.upperBound - position)
            elapsed.text = behind >= AppModel.liveEdgeTolerance ? "\u{2212}" + formatTime(behind) : ""
            remaining.text = ""
        } else {
            elapsed.text = formatTime(max(0, position - range.lowerBound))
            remaining.text = "\u{2212}" + formatTime(max(0, range.upperBound - position))
        }
    }
}
