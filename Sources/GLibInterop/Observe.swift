// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Observation

/// Re-runs `render` whenever an @Observable property it read changes.
///
/// Observation reports a change once per tracking pass, from `willSet`; we re-render on the
/// next main-actor turn (coalescing bursts), reading the new values, and track again. A view
/// re-renders at most once per display frame (`frameInterval`): under a storm of status
/// messages (another sender seeking a hundred times a second) the changes of one frame are
/// drawn together and the main loop stays free for input.
/// Keep the returned token alive as long as the view lives; `cancel()` stops re-rendering.
@MainActor
public final class ObservationToken {
    private var render: (@MainActor () -> Void)?
    private var scheduled = false
    private var lastRun: ContinuousClock.Instant?
    /// One frame at 60 Hz.
    static let frameInterval = Duration.milliseconds(16)

    init(_ render: @escaping @MainActor () -> Void) { self.render = render }

    public func cancel() { render = nil }
    public var isActive: Bool { render != nil }

    func run() {
        scheduled = false
        guard let render else { return }
        lastRun = .now
        withObservationTracking {
            render()
        } onChange: { [weak self] in
            Task { @MainActor [weak self] in self?.schedule() }
        }
    }

    private func schedule() {
        guard !scheduled else { return }
        scheduled = true
        let wait = lastRun.map { Self.frameInterval - (ContinuousClock.now - $0) } ?? .zero
        if wait <= .zero {
            Task { @MainActor [weak self] in self?.run() }
        } else {
            Task { @MainActor [weak self] in
                try? await Task.sleep(for: wait)
                self?.run()
            }
        }
    }
}

/// Renders now and again on every change of what `render` reads.
@MainActor @discardableResult
public func observe(_ render: @escaping @MainActor () -> Void) -> ObservationToken {
    let token = ObservationToken(render)
    token.run()
    return token
}
