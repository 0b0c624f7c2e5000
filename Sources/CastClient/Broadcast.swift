// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import Synchronization

/// Fans one sequence of values out to any number of AsyncStreams.
///
/// Each `stream()` gets its own AsyncStream that starts with the current value (when
/// `replayLatest` is set) and then receives every later value, buffering the newest
/// `bufferSize`. Finishing the broadcast finishes every stream.
final class Broadcast<Value: Sendable>: Sendable {
    private struct State {
        var latest: Value?
        var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextID = 0
        var finished = false
    }
    private let state: Mutex<State>
    private let replayLatest: Bool
    private let bufferSize: Int

    init(initial: Value? = nil, replayLatest: Bool = true, bufferSize: Int = 64) {
        state = Mutex(State(latest: initial))
        self.replayLatest = replayLatest
        self.bufferSize = bufferSize
    }

    var latest: Value? { state.withLock { $0.latest } }

    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
        let id: Int? = state.withLock { s in
            if replayLatest, let v = s.latest { continuation.yield(v) }
            if s.finished { return nil }
            let id = s.nextID
            s.nextID += 1
            s.continuations[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func send(_ value: Value) {
        let targets = state.withLock { s -> [AsyncStream<Value>.Continuation] in
            s.latest = value
            return Array(s.continuations.values)
        }
        for c in targets { c.yield(value) }
    }

    func finish() {
        let targets = state.withLock { s -> [AsyncStream<Value>.Continuation] in
            s.finished = true
            defer { s.continuations = [:] }
            return Array(s.continuations.values)
        }
        for c in targets { c.finish() }
    }
}
