import Observation

/// Re-runs `render` whenever an @Observable property it read changes.
///
/// Observation reports a change once per tracking pass, from `willSet`; we re-render on the
/// next main-actor turn (coalescing bursts), reading the new values, and track again.
/// Keep the returned token alive as long as the view lives; `cancel()` stops re-rendering.
@MainActor
public final class ObservationToken {
    private var render: (@MainActor () -> Void)?
    private var scheduled = false

    init(_ render: @escaping @MainActor () -> Void) { self.render = render }

    public func cancel() { render = nil }
    public var isActive: Bool { render != nil }

    func run() {
        scheduled = false
        guard let render else { return }
        withObservationTracking {
            render()
        } onChange: { [weak self] in
            Task { @MainActor [weak self] in self?.schedule() }
        }
    }

    private func schedule() {
        guard !scheduled else { return }
        scheduled = true
        Task { @MainActor [weak self] in self?.run() }
    }
}

/// Renders now and again on every change of what `render` reads.
@MainActor @discardableResult
public func observe(_ render: @escaping @MainActor () -> Void) -> ObservationToken {
    let token = ObservationToken(render)
    token.run()
    return token
}
