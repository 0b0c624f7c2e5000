// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// Answers one HTTP/1.1 connection of the media server (keep-alive and pipelining are
/// handled by NIO's `HTTPServerPipelineHandler` in front of it).
///
/// Order of checks for every request: the client's address (403 unless it is a device a
/// file was shared with), then the method (OPTIONS is the CORS preflight; anything but
/// GET/HEAD is 405), then the path (exactly `/<token>/<escaped name>` of a live share,
/// else 404: no other path, no traversal, no directory listing can reach a byte).
final class MediaRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// sendfile is asked for this much at a time, so a file that shrinks while it is sent
    /// is noticed between pieces and the connection ends instead of waiting for bytes that
    /// will never come.
    static let chunkSize: Int64 = 4 << 20

    private let table: ShareTable
    private var request: HTTPRequestHead?

    init(table: ShareTable) { self.table = table }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): request = head
        case .body: break  // bodies are ignored: no method here takes one
        case .end:
            if let head = request { respond(to: head, context: context) }
            request = nil
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: - Answers

    static func corsHeaders() -> HTTPHeaders {
        [
            "Access-Control-Allow-Origin": "*",
            "Access-Control-Expose-Headers": "Content-Length, Content-Range, Accept-Ranges, Content-Type",
        ]
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = head.isKeepAlive
        let client = context.channel.remoteAddress?.ipAddress.map(normalizedIP) ?? ""
        guard table.isPeer(client) else {
            return simple(.forbidden, "Only the Cast device this file was shared with may fetch it.\n", head: head, keepAlive: keepAlive, context: context)
        }
        switch head.method {
        case .OPTIONS:
            var h = Self.corsHeaders()
            h.add(name: "Access-Control-Allow-Methods", value: "GET, HEAD, OPTIONS")
            h.add(name: "Access-Control-Allow-Headers", value: "Content-Type, Accept-Encoding, Range, Origin, If-Range")
            h.add(name: "Access-Control-Max-Age", value: "600")
            h.add(name: "Allow", value: "GET, HEAD, OPTIONS")
            h.add(name: "Content-Length", value: "0")
            return send(HTTPResponseHead(version: head.version, status: .noContent, headers: h), body: nil, keepAlive: keepAlive, context: context)
        case .GET, .HEAD:
            break
        default:
            var h = Self.corsHeaders()
            h.add(name: "Allow", value: "GET, HEAD, OPTIONS")
            return simple(.methodNotAllowed, "Only GET, HEAD and OPTIONS are served.\n", extra: h, head: head, keepAlive: keepAlive, context: context)
        }
        guard let (entry, name) = lookup(head.uri), entry.peer == client else {
            return simple(.notFound, "Nothing is shared at this address.\n", head: head, keepAlive: keepAlive, context: context)
        }
        switch entry.content {
        case .bytes(let bytes):
            serve(bytes: bytes, entry: entry, head: head, keepAlive: keepAlive, context: context)
        case .file(let path):
            serve(path: path, entry: entry, head: head, keepAlive: keepAlive, context: context)
        case .generated(let source):
            serveGenerated(source, name: name, entry: entry, head: head, keepAlive: keepAlive, context: context)
        case .live(let stream):
            serveLive(stream, entry: entry, head: head, keepAlive: keepAlive, context: context)  // MediaRequestHandler+Live.swift
        }
    }

    /// Asks the source (which may have to wait for ffmpeg) and answers on the event loop.
    private func serveGenerated(
        _ source: any GeneratedFiles, name: String, entry: SharedEntry, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        let promise = loop.makePromise(of: GeneratedAnswer.self)
        promise.completeWithTask { await source.answer(name) }
        promise.futureResult.whenSuccess { answer in
            let (handler, context) = bound.value
            guard context.channel.isActive else { return }
            var e = entry
            switch answer {
            case .notFound:
                handler.simple(.notFound, "Nothing is shared at this address.\n", head: head, keepAlive: keepAlive, context: context)
            case .failed(let why):
                handler.simple(.serviceUnavailable, why + "\n", head: head, keepAlive: keepAlive, context: context)
            case .bytes(let bytes, let type):
                e.contentType = type
                handler.serve(bytes: bytes, entry: e, head: head, keepAlive: keepAlive, context: context)
            case .file(let path, let type):
                e.contentType = type
                handler.serve(path: path, entry: e, head: head, keepAlive: keepAlive, context: context)
            }
        }
    }

    /// `/<32 hex>/<escaped name>` (a query string is ignored) → the live entry and the name,
    /// or nil. A generated entry takes any plain name (letters, digits, `._-`, no leading dot).
    private func lookup(_ uri: String) -> (SharedEntry, String)? {
        var path = Substring(uri)
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<q] }
        guard path.hasPrefix("/") else { return nil }
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let token = String(parts[0])
        guard SharedItem.isToken(token) else { return nil }
        guard let name = String(parts[1]).removingPercentEncoding, let entry = table.entry(token.lowercased()) else { return nil }
        if case .generated = entry.content {
            let plain =
                !name.isEmpty && !name.hasPrefix(".") && name.count <= 64
                && name.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)
                }
            return plain ? (entry, name) : nil
        }
        return entry.name == name ? (entry, name) : nil
    }

    func simple(
        _ status: HTTPResponseStatus, _ text: String, extra: HTTPHeaders = [:], head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var h = Self.corsHeaders()
        for (name, value) in extra where !name.hasPrefix("Access-Control-Allow-Origin") && !name.hasPrefix("Access-Control-Expose") {
            h.add(name: name, value: value)
        }
        h.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        h.add(name: "Content-Length", value: String(text.utf8.count))
        let body = head.method == .HEAD ? nil : context.channel.allocator.buffer(string: text)
        send(HTTPResponseHead(version: head.version, status: status, headers: h), body: body, keepAlive: keepAlive, context: context)
    }

    func send(_ response: HTTPResponseHead, body: ByteBuffer?, keepAlive: Bool, context: ChannelHandlerContext) {
        var response = response
        response.headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            done.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    /// Status line and headers of a range answer; nil when the range cannot be satisfied
    /// (the 416 has then been sent).
    private func rangeHead(
        entry: SharedEntry, size: Int64, validators: HTTPHeaders, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext
    ) -> (HTTPResponseHead, first: Int64, last: Int64)? {
        var range = RangeRequest(header: head.headers.first(name: "Range"), size: size)
        // If-Range: the range holds only while the file is the one the client saw.
        if let condition = head.headers.first(name: "If-Range"), range != .whole {
            let matches = validators.contains { $0.value == condition && ($0.name == "ETag" ? !condition.hasPrefix("W/") : true) }
            if !matches { range = .whole }
        }
        var h = Self.corsHeaders()
        for (name, value) in validators { h.add(name: name, value: value) }
        h.add(name: "Accept-Ranges", value: "bytes")
        h.add(name: "Content-Type", value: entry.contentType)
        h.add(name: "Cache-Control", value: "no-store")
        switch range {
        case .unsatisfiable:
            h.add(name: "Content-Range", value: "bytes */\(size)")
            h.add(name: "Content-Length", value: "0")
            send(HTTPResponseHead(version: head.version, status: .rangeNotSatisfiable, headers: h), body: nil, keepAlive: keepAlive, context: context)
            return nil
        case .whole:
            h.add(name: "Content-Length", value: String(size))
            return (HTTPResponseHead(version: head.version, status: .ok, headers: h), 0, size - 1)
        case .partial(let first, let last):
            h.add(name: "Content-Range", value: "bytes \(first)-\(last)/\(size)")
            h.add(name: "Content-Length", value: String(last - first + 1))
            return (HTTPResponseHead(version: head.version, status: .partialContent, headers: h), first, last)
        }
    }

    private func serve(bytes: [UInt8], entry: SharedEntry, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        let size = Int64(bytes.count)
        let etag = "\"b\(String(size, radix: 16))-\(String(UInt32(truncatingIfNeeded: bytes.reduce(5381) { ($0 &* 33) &+ Int($1) }), radix: 16))\""
        guard let answer = rangeHead(entry: entry, size: size, validators: ["ETag": etag], head: head, keepAlive: keepAlive, context: context) else { return }
        let body: ByteBuffer? =
            head.method == .HEAD || size == 0 ? nil : context.channel.allocator.buffer(bytes: bytes[Int(answer.first)...Int(answer.last)])
        send(answer.0, body: body, keepAlive: keepAlive, context: context)
    }

    private func serve(path: String, entry: SharedEntry, head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return simple(.notFound, "The shared file is gone.\n", head: head, keepAlive: keepAlive, context: context)
        }
        let file = OpenFile(NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: fd), descriptor: fd)
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & 0o170000) == 0o100000 else {  // a regular file
            file.close()
            return simple(.notFound, "The shared file is gone.\n", head: head, keepAlive: keepAlive, context: context)
        }
        let size = Int64(st.st_size)
        let mtime = Date(timeIntervalSince1970: TimeInterval(st.st_mtim.tv_sec))
        let etag = "\"\(String(UInt64(st.st_ino), radix: 16))-\(String(size, radix: 16))-\(String(st.st_mtim.tv_sec, radix: 16))\""
        let validators: HTTPHeaders = ["ETag": etag, "Last-Modified": httpDate(mtime)]
        guard let answer = rangeHead(entry: entry, size: size, validators: validators, head: head, keepAlive: keepAlive, context: context) else {
            file.close()
            return
        }
        let (response, first, last) = answer
        if head.method == .HEAD || size == 0 {
            file.close()
            return send(response, body: nil, keepAlive: keepAlive, context: context)
        }
        var r = response
        r.headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(r)), promise: nil)
        watch(file, context: context)
        stream(file, from: first, to: last + 1, keepAlive: keepAlive, context: context)
    }

    /// Sends `[from, end)` of the file in pieces of ``chunkSize``; checks before each piece
    /// that the file still has those bytes, and ends the connection when it does not.
    private func stream(_ file: OpenFile, from: Int64, to end: Int64, keepAlive: Bool, context: ChannelHandlerContext) {
        if from >= end {
            file.close()
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !keepAlive { done.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
            return
        }
        let upTo = min(from + Self.chunkSize, end)
        var st = stat()
        guard fstat(file.descriptor, &st) == 0, Int64(st.st_size) >= upTo else {
            // The file shrank: the promised Content-Length cannot be kept, so the only
            // honest end is to close the connection (the client sees a short body).
            file.close()
            context.close(promise: nil)
            return
        }
        file.pendingEnd = upTo
        let region = FileRegion(fileHandle: file.handle, readerIndex: Int(from), endIndex: Int(upTo))
        context.writeAndFlush(wrapOutboundOut(.body(.fileRegion(region)))).assumeIsolated().whenComplete { result in
            switch result {
            case .success: self.stream(file, from: upTo, to: end, keepAlive: keepAlive, context: context)
            case .failure:
                file.close()
                context.close(promise: nil)
            }
        }
    }

    /// A piece already handed to sendfile cannot be checked between pieces: if the file
    /// is cut short under it, sendfile finds nothing more to send and the response would
    /// stall. Once a second, while the response lasts, the file's size is compared with
    /// the end of the piece in flight, and the connection is closed when it fell short.
    private func watch(_ file: OpenFile, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((file, context), eventLoop: context.eventLoop)
        file.watchdog = context.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
            let (file, context) = bound.value
            var st = stat()
            if fstat(file.descriptor, &st) != 0 || Int64(st.st_size) < file.pendingEnd {
                // Closing fails the pending write, whose completion closes the file.
                context.close(promise: nil)
            }
        }
    }
}

@available(*, unavailable)
extension MediaRequestHandler: Sendable {}

/// An open file closed exactly once, whoever gets there first.
final class OpenFile {
    let handle: NIOFileHandle
    let descriptor: CInt
    /// The end of the piece being sent (exclusive), for the watchdog.
    var pendingEnd: Int64 = 0
    var watchdog: RepeatedTask?
    private var open = true
    init(_ handle: NIOFileHandle, descriptor: CInt) {
        self.handle = handle
        self.descriptor = descriptor
    }
    func close() {
        guard open else { return }
        open = false
        watchdog?.cancel()
        watchdog = nil
        try? handle.close()
    }
}

/// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 IMF-fixdate).
func httpDate(_ date: Date) -> String {
    var t = time_t(date.timeIntervalSince1970)
    var tmv = tm()
    gmtime_r(&t, &tmv)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return
        "\(days[Int(tmv.tm_wday)]), \(two(tmv.tm_mday)) \(months[Int(tmv.tm_mon)]) \(tmv.tm_year + 1900) \(two(tmv.tm_hour)):\(two(tmv.tm_min)):\(two(tmv.tm_sec)) GMT"
}
