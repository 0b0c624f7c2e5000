// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import NIOCore
import NIOHTTP1

extension MediaServer {
    /// Shares a live stream: every GET of the URL is one endless chunked response that
    /// starts at the stream's latest key fragment (see ``LiveStream``). `name` ends the URL
    /// (e.g. `screen.mp4`: receivers look at the extension).
    public func share(live stream: LiveStream, name: String, peer: String) -> SharedItem {
        add(SharedEntry(name: name, content: .live(stream), contentType: stream.contentType, peer: normalizedIP(peer)))
    }
}

extension MediaRequestHandler {
    /// A live answer: 200 with no length (chunked), no Range (a Range header is answered
    /// with the whole live stream, as a live HTTP source does), no caching. HEAD gets the
    /// headers only. A stream that ended answers 404 (ended normally) or 503 (failed).
    func serveLive(_ stream: LiveStream, entry: SharedEntry, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        if let ended = stream.ended {
            if let failure = ended { return simple(.serviceUnavailable, failure + "\n", head: head, keepAlive: keepAlive, context: context) }
            return simple(.notFound, "The live stream has ended.\n", head: head, keepAlive: keepAlive, context: context)
        }
        var h = Self.corsHeaders()
        h.add(name: "Content-Type", value: entry.contentType)
        h.add(name: "Cache-Control", value: "no-store")
        let response = HTTPResponseHead(version: head.version, status: .ok, headers: h)
        if head.method == .HEAD {
            var r = response
            r.headers.add(name: "Content-Length", value: "0")
            return send(r, body: nil, keepAlive: keepAlive, context: context)
        }
        // The response ends only when the stream does: the connection closes with it.
        var r = response
        r.headers.replaceOrAdd(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(r)), promise: nil)
        let client = LiveResponder(stream: stream, context: context, limit: stream.limits.clientBacklog)
        guard let (initSegment, group) = stream.join(client) else {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        context.channel.closeFuture.whenComplete { _ in stream.leave(client) }
        client.start(initSegment: initSegment, group: group)
    }
}

/// One client of a live stream on its connection's event loop: writes fragments in order,
/// counts the bytes not yet taken by the socket, and skips to the next key fragment when
/// that backlog grows past the limit.
final class LiveResponder: LiveClient {
    private struct OnLoop {
        var started = false
        var waiting = 0
        var skipping = false
        var done = false
    }
    private let stream: LiveStream
    private let limit: Int
    private let loop: any EventLoop
    private let bound: NIOLoopBoundBox<(ChannelHandlerContext, OnLoop)>

    init(stream: LiveStream, context: ChannelHandlerContext, limit: Int) {
        self.stream = stream
        self.limit = limit
        self.loop = context.eventLoop
        self.bound = NIOLoopBoundBox((context, OnLoop()), eventLoop: context.eventLoop)
    }

    /// On the loop, right after joining: the init segment and the current group.
    func start(initSegment: ByteBuffer?, group: [ByteBuffer]) {
        guard let initSegment, !group.isEmpty else { return }  // the first key fragment will start it
        bound.value.1.started = true
        write(initSegment)
        for f in group { write(f) }
    }

    func deliver(_ fragment: ByteBuffer, key: Bool) {
        loop.execute { self.take(fragment, key: key) }
    }

    func end() {
        loop.execute {
            guard !self.bound.value.1.done else { return }
            self.bound.value.1.done = true
            let context = self.bound.value.0
            guard context.channel.isActive else { return }
            context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    private func take(_ fragment: ByteBuffer, key: Bool) {
        guard !bound.value.1.done, bound.value.0.channel.isActive else { return }
        if !bound.value.1.started {
            guard key, let initSegment = stream.initSegment else { return }  // not a place to start decoding
            bound.value.1.started = true
            write(initSegment)
        }
        if bound.value.1.skipping {
            guard key, bound.value.1.waiting <= limit / 2 else { return stream.countSkipped(1) }
            bound.value.1.skipping = false
        } else if bound.value.1.waiting > 0, bound.value.1.waiting + fragment.readableBytes > limit {
            bound.value.1.skipping = true
            return stream.countSkipped(1)
        }
        write(fragment)
    }

    private func write(_ buffer: ByteBuffer) {
        let size = buffer.readableBytes
        bound.value.1.waiting += size
        let context = bound.value.0
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(buffer)))).assumeIsolated().whenComplete { _ in
            self.bound.value.1.waiting -= size
        }
    }
}
