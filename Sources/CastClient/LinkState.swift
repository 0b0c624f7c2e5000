// SPDX-License-Identifier: GPL-3.0-or-later
// What a connection's event loop and its actor share, so that a reply can resume the
// request waiting for it straight from the loop that read it.
import CastCore
import CastProtocol
import NIOCore
import Synchronization

/// The part of a `CastConnection` that the channel's event loop reads and writes too:
/// requests waiting for replies, when the device was last heard, whether the link has
/// ended, and how many messages the connection actor has still to process.
///
/// Why: a command's reply used to travel event loop → AsyncStream → connection actor →
/// session actor → connection actor → caller, four thread hand-offs on a busy machine.
/// Now a media message that nothing else needs to see first (`fastPath` accepts it) is
/// applied and resolves its request on the loop, so the caller wakes directly. Ordering is
/// kept: while the actor still has earlier messages to process, later ones queue behind them.
final class LinkState: Sendable {
    struct Pending: Sendable {
        var label: String
        var continuation: CheckedContinuation<NamespacedMessage, any Error>
        var match: (@Sendable (NamespacedMessage) -> Bool)?
        var timeout: Scheduled<Void>?
        var limit: Double

        func resume(_ result: Result<NamespacedMessage, any Error>) {
            timeout?.cancel()
            continuation.resume(with: result)
        }
    }

    private struct State: Sendable {
        var pending: [Int: Pending] = [:]
        var closed: DisconnectReason?
        var lastHeard = ContinuousClock.now
        /// Messages handed to the actor and not processed yet.
        var queued = 0
        var fastPath: (@Sendable (InboundMessage) -> Bool)?
    }

    private let state = Mutex(State())

    /// What became of a message read by the event loop.
    enum Arrival {
        /// Applied and its request (if any) resumed already.
        case handled
        /// For the actor, in order, with its decoded form.
        case queued(Result<NamespacedMessage, CastProtocolError>)
    }

    /// Sets the synchronous handler for media messages (see `CastConnection.open`).
    func setFastPath(_ handler: (@Sendable (InboundMessage) -> Bool)?) {
        state.withLock { $0.fastPath = handler }
    }

    /// Called on the event loop for every message read: decodes it, and applies it at once
    /// when the fast path takes it and nothing is queued before it.
    func arrive(_ raw: CastMessage) -> Arrival {
        let decoded: Result<NamespacedMessage, CastProtocolError>
        do {
            decoded = .success(try raw.decoded())
        } catch {
            decoded = .failure(error)
        }
        if case .success(.media(let media)) = decoded {
            let fast = state.withLock { s in s.queued == 0 && s.closed == nil ? s.fastPath : nil }
            if let fast, fast(InboundMessage(raw: raw, decoded: decoded)) {
                state.withLock { $0.lastHeard = .now }
                resolve(.media(media))
                return .handled
            }
        }
        state.withLock { $0.queued += 1 }
        return .queued(decoded)
    }

    /// The actor finished one queued message.
    func processed() {
        state.withLock { $0.queued -= 1 }
    }

    var closeReason: DisconnectReason? { state.withLock { $0.closed } }

    var lastHeard: ContinuousClock.Instant { state.withLock { $0.lastHeard } }

    func heard() {
        state.withLock { $0.lastHeard = .now }
    }

    /// Registers a request; returns why the link ended when it has (nothing registered then).
    func register(_ id: Int, _ pending: Pending) -> DisconnectReason? {
        state.withLock { s in
            if let closed = s.closed { return closed }
            s.pending[id] = pending
            return nil
        }
    }

    /// Attaches the timer of a registered request (it may have been answered already).
    func setTimer(_ id: Int, _ timer: Scheduled<Void>) {
        let stale = state.withLock { s -> Bool in
            guard s.pending[id] != nil else { return true }
            s.pending[id]?.timeout = timer
            return false
        }
        if stale { timer.cancel() }
    }

    /// Resumes the request `message` answers: the one with its request id, otherwise every
    /// request whose `match` accepts it.
    func resolve(_ message: NamespacedMessage) {
        let id: Int?
        switch message {
        case .receiver(let m): id = m.requestId
        case .media(let m): id = m.requestId
        default: id = nil
        }
        let answered = state.withLock { s -> [Pending] in
            if let id, id != RequestID.unsolicited, let p = s.pending.removeValue(forKey: id) { return [p] }
            guard !s.pending.isEmpty else { return [] }
            var out: [Pending] = []
            for (key, p) in s.pending where p.match?(message) == true {
                s.pending[key] = nil
                out.append(p)
            }
            return out
        }
        for p in answered { p.resume(.success(message)) }
    }

    /// Fails one request (if it still waits).
    func fail(_ id: Int, _ error: any Error) {
        state.withLock { $0.pending.removeValue(forKey: id) }?.resume(.failure(error))
    }

    /// Fails one request with the error `make` builds from its label and limit.
    func fail(_ id: Int, _ make: (String, Double) -> any Error) {
        guard let p = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
        p.resume(.failure(make(p.label, p.limit)))
    }

    /// Marks the link ended and fails every waiting request (once; later calls do nothing).
    func close(_ reason: DisconnectReason) {
        let waiting = state.withLock { s -> [Pending]? in
            guard s.closed == nil else { return nil }
            s.closed = reason
            s.fastPath = nil
            defer { s.pending = [:] }
            return Array(s.pending.values)
        }
        for p in waiting ?? [] { p.resume(.failure(CastClientError.connectionLost(reason))) }
    }
}
