// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import Synchronization

/// Fans values out to any number of AsyncStreams. Holds no value of its own: the owner keeps
/// the one copy of its state and passes the current value to `stream(first:)`, so a new
/// subscriber starts from what the owner has (see `PublishedValue`).
///
/// Each stream buffers the newest `bufferSize` values. Finishing the broadcast finishes
/// every stream, and streams asked for afterwards finish at once (after `first`).
final class Broadcast<Value: Sendable>: Sendable {
    private struct State {
        var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextID = 0
        var finished = false
    }
    private let state = Mutex(State())
    private let bufferSize: Int

    init(bufferSize: Int = 64) {
        self.bufferSize = bufferSize
    }

    /// A stream of every later value, starting with `first` when it is given.
    func stream(first: Value? = nil) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
        if let first { continuation.yield(first) }
        let id: Int? = state.withLock { s in
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
        let targets = state.withLock { Array($0.continuations.values) }
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

/// One value and its observers: the value lives here once; `stream()` yields it first and
/// then every change. Reading and subscribing happen under the same lock as updating, so
/// a subscriber never misses a change nor sees one twice.
final class PublishedValue<Value: Sendable & Equatable>: Sendable {
    private let value: Mutex<Value>
    private let broadcast = Broadcast<Value>()

    init(_ initial: Value) { value = Mutex(initial) }

    var current: Value { value.withLock { $0 } }

    /// The current value first, then every change.
    func stream() -> AsyncStream<Value> {
        value.withLock { broadcast.stream(first: $0) }
    }

    /// Stores `new` and tells observers, when it differs; returns whether it did.
    @discardableResult
    func set(_ new: Value) -> Bool {
        value.withLock { v in
            guard v != new else { return false }
            v = new
            broadcast.send(new)
            return true
        }
    }

    func finish() { broadcast.finish() }
}
