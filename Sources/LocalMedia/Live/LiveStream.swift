// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import NIOConcurrencyHelpers
import NIOCore

/// A live fragmented-MP4 stream that any number of clients watch at once (the HTTP live
/// path of screen mirroring): the media server answers every GET of its token with one
/// endless chunked response.
///
/// What a client gets: the init segment, then the fragments from the latest key fragment on
/// (the group of pictures being sent now), then every new fragment as it comes. So a client
/// that joins late, or reconnects, starts decoding at once and never receives more than one
/// group of pictures of the past.
///
/// A client that reads slower than the stream is made (a stalled Wi-Fi link) never holds
/// up the encoder or the other clients: once more than ``Limits/clientBacklog`` bytes wait
/// in its connection, new fragments are dropped for it until a key fragment comes while its
/// backlog is below half the limit; its picture jumps to the present instead of falling
/// ever further behind. A client that goes away is forgotten at once.
public final class LiveStream: Sendable {
    public struct Limits: Sendable {
        /// Bytes waiting in one client's connection above which fragments are skipped for it.
        public var clientBacklog: Int = 4 << 20
        /// Bytes of the current group of pictures kept for new clients; past this (an encoder
        /// that makes no key frames) it is dropped and new clients wait for the next key fragment.
        public var maxGroup: Int = 16 << 20
        public init() {}
    }

    /// What the stream did so far (tests, benchmarks, a status line).
    public struct Counters: Sendable, Equatable {
        public var fragments = 0
        public var keyFragments = 0
        public var bytes = 0
        /// Fragments not sent to some client because it was too slow (one count per client).
        public var skipped = 0
        public var clients = 0
        /// Clients that came and left or were dropped.
        public var clientsGone = 0
    }

    /// The MIME type served (`video/mp4`).
    public let contentType: String
    public let limits: Limits

    private struct State {
        var splitter = FMP4Splitter()
        var initSegment: ByteBuffer?
        var group: [ByteBuffer] = []
        var groupBytes = 0
        var clients: [ObjectIdentifier: any LiveClient] = [:]
        var ended: String??
        var counters = Counters()
    }
    private let state = NIOLockedValueBox(State())
    private let allocator = ByteBufferAllocator()

    public init(contentType: String = "video/mp4", limits: Limits = Limits()) {
        self.contentType = contentType
        self.limits = limits
    }

    /// Adds bytes of the encoder's output (any cut). Never blocks on clients.
    /// Throws when the bytes are not fragmented MP4; the stream has then ended.
    public func feed(_ bytes: some Collection<UInt8>) throws(FMP4Error) {
        let cut: Result<[FMP4Piece], FMP4Error> = state.withLockedValue { s in
            do {
                return .success(try s.splitter.push(bytes))
            } catch let e as FMP4Error {
                return .failure(e)
            } catch {
                return .failure(FMP4Error(reason: "\(error)"))
            }
        }
        switch cut {
        case .success(let pieces):
            for p in pieces { publish(p) }
        case .failure(let error):
            finish(failure: error.description)
            throw error
        }
    }

    /// Publishes one piece (what ``feed(_:)`` does for each piece it cut).
    public func publish(_ piece: FMP4Piece) {
        let (buffer, key, targets): (ByteBuffer, Bool, [any LiveClient])
        switch piece {
        case .initSegment(let bytes):
            let b = allocator.buffer(bytes: bytes)
            state.withLockedValue { $0.initSegment = b }
            return
        case .fragment(let bytes, let isKey):
            buffer = allocator.buffer(bytes: bytes)
            key = isKey
            targets = state.withLockedValue { s in
                guard s.ended == nil else { return [] }
                s.counters.fragments += 1
                s.counters.bytes += bytes.count
                if key {
                    s.counters.keyFragments += 1
                    s.group = []
                    s.groupBytes = 0
                }
                if key || !s.group.isEmpty {
                    s.group.append(buffer)
                    s.groupBytes += bytes.count
                    if s.groupBytes > limits.maxGroup {
                        s.group = []
                        s.groupBytes = 0
                    }
                }
                return Array(s.clients.values)
            }
        }
        for c in targets { c.deliver(buffer, key: key) }
    }

    /// Ends the stream for every client (their responses end) and for new ones (answered 503
    /// with `failure`, or 404 when it ended normally).
    public func finish(failure: String? = nil) {
        let targets = state.withLockedValue { s -> [any LiveClient] in
            guard s.ended == nil else { return [] }
            s.ended = .some(failure)
            s.group = []
            s.groupBytes = 0
            defer { s.clients = [:] }
            return Array(s.clients.values)
        }
        for c in targets { c.end() }
    }

    /// Nil while live; once ended, the failure (nil inside when it ended normally).
    public var ended: String?? { state.withLockedValue { $0.ended } }

    public var counters: Counters {
        state.withLockedValue { s in
            var c = s.counters
            c.clients = s.clients.count
            return c
        }
    }

    /// Whether a client can start now (the init segment and a key fragment are known).
    public var isReady: Bool { state.withLockedValue { $0.initSegment != nil && !$0.group.isEmpty } }

    /// Adds a client. Returns what it must be sent first (init segment + current group),
    /// empty when no key fragment is known yet (its first delivery will be a key fragment's
    /// turn: ``LiveClient`` implementations wait for one); nil once the stream ended.
    func join(_ client: any LiveClient) -> (initSegment: ByteBuffer?, group: [ByteBuffer])? {
        state.withLockedValue { s in
            guard s.ended == nil else { return nil }
            s.clients[ObjectIdentifier(client)] = client
            return (s.initSegment, s.group)
        }
    }

    /// Forgets a client (its connection closed, or it was answered and left).
    func leave(_ client: any LiveClient) {
        state.withLockedValue { s in
            if s.clients.removeValue(forKey: ObjectIdentifier(client)) != nil { s.counters.clientsGone += 1 }
        }
    }

    func countSkipped(_ n: Int) {
        state.withLockedValue { $0.counters.skipped += n }
    }

    /// The init segment once known (a client that joined before it waits for it).
    var initSegment: ByteBuffer? { state.withLockedValue { $0.initSegment } }
}

/// One watcher of a ``LiveStream``: called from the stream's feeding thread, so
/// implementations hop to their own event loop.
protocol LiveClient: AnyObject, Sendable {
    func deliver(_ fragment: ByteBuffer, key: Bool)
    func end()
}
