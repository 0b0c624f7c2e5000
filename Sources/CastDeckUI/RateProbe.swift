// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// CASTDECK_RATE_PROBE=N:PATH — the window's own command path, timed (Benchmarks/gui).
import AppModel
import GLibInterop
import Glibc
import GtkInterop

/// Times the window's whole path for a speed change, N times: the `win.rate` action activated
/// as a click on a speed button activates it → the command table → SET_PLAYBACK_RATE on the
/// wire → the receiver's status → the snapshot stored → the expanded controller renders the new
/// speed. One sample ends when `render()` runs with the requested speed; the next click waits
/// 50 ms (a person's clicks are that far apart at the very least). When N are taken, writes `{"iterations", "p50_ms", "p99_ms"}` to PATH.
@MainActor
final class RateProbe {
    static let shared: RateProbe? = {
        guard let raw = getenv("CASTDECK_RATE_PROBE"), case let spec = String(cString: raw),
            let colon = spec.firstIndex(of: ":"), let n = Int(spec[..<colon]), n > 0
        else { return nil }
        return RateProbe(count: n, path: String(spec[spec.index(after: colon)...]))
    }()

    let count: Int
    let path: String
    private var samples: [Double] = []
    private var pending: (target: Double, start: ContinuousClock.Instant)?
    private var scheduled = false
    private weak var actions: ModelActions?

    init(count: Int, path: String) {
        self.count = count
        self.path = path
    }

    /// Called by the expanded controller's render with what it shows now.
    func rendered(rateEnabled: Bool, rate: Double, actions: ModelActions) {
        self.actions = actions
        if let p = pending, rate == p.target {
            let took = ContinuousClock.now - p.start
            samples.append(Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15)
            pending = nil
            if samples.count == count { finish() }
        }
        guard rateEnabled, pending == nil, !scheduled, samples.count < count else { return }
        scheduled = true
        // A person's next click comes long after the last frame: wait 50 ms, so that the render
        // it causes is not held back by the at-most-once-per-frame rule (ObservationToken).
        GLibSource.timeout(ms: 50) { [self] in
            scheduled = false
            let target: Double = rate == 2 ? 1 : 2
            guard let action = self.actions?.actions.first(where: { $0.0 == .setRate })?.1 else { return false }
            pending = (target, .now)
            action.activate(.double(target))
            return false
        }
    }

    private func finish() {
        let sorted = samples.sorted()
        func pct(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(p / 100 * Double(sorted.count)))] }
        let line = #"{"iterations":\#(sorted.count),"p50_ms":\#(pct(50)),"p99_ms":\#(pct(99))}"# + "\n"
        guard let file = fopen(path, "w") else { return }
        fputs(line, file)
        fclose(file)
    }
}
