// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import Foundation
import LocalMedia
import NIOCore
import XCTest

/// The live share over real loopback sockets: what a client gets when it joins, a stalled
/// client beside a reading one, clients that leave, addresses that may not fetch.
final class LiveStreamTests: XCTestCase {
    typealias F = SyntheticFMP4

    func testSplitterCutsAtBoxesAndFindsKeyFragments() throws {
        let stream = F.initSegment + F.fragment(1, key: true) + F.fragment(2, key: false, size: 3000) + F.fragment(3, key: true)
        var splitter = FMP4Splitter()
        var pieces: [FMP4Piece] = []
        var at = 0
        var step = 1
        while at < stream.count {  // cut anywhere: inside headers, inside payloads
            let end = min(at + step, stream.count)
            pieces += try splitter.push(stream[at..<end])
            at = end
            step = step % 97 + 13
        }
        XCTAssertEqual(
            pieces,
            [
                .initSegment(F.initSegment), .fragment(F.fragment(1, key: true), key: true), .fragment(F.fragment(2, key: false, size: 3000), key: false),
                .fragment(F.fragment(3, key: true), key: true),
            ])
    }

    func testSplitterRefusesWhatIsNotFragmentedMP4() {
        var a = FMP4Splitter()
        XCTAssertThrowsError(try a.push(Array("not media at all, just some words".utf8)))
        var b = FMP4Splitter()
        XCTAssertThrowsError(try b.push(F.box("ftyp", [0, 0, 0, 0]) + F.fragment(1, key: true))) { e in
            XCTAssertEqual((e as? FMP4Error)?.reason, "a moof box came before the moov box")
        }
        var c = FMP4Splitter()
        XCTAssertThrowsError(try c.push(F.initSegment + F.box("mdat", [1, 2, 3])))
    }

    /// ffmpeg's own output with LiveEncoding's muxer settings: a key frame every second of a
    /// 3-second clip gives three key fragments, and fragments shorter than a group.
    func testSplitterOnFFmpegFragmentedMP4() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-live-\(UUID().uuidString).mp4").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        var encoding = LiveEncoding(width: 160, height: 120, fps: 10, videoKbps: 300)
        encoding.fragmentSeconds = 0.3
        let args = ["-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=3"] + encoding.outputArguments.dropLast() + [out]
        try makeWithFFmpeg(args)
        var splitter = FMP4Splitter()
        let pieces = try splitter.push(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        guard case .initSegment = pieces.first else { return XCTFail("no init segment first") }
        let keys = pieces.dropFirst().map { p -> Bool in
            if case .fragment(_, let key) = p { return key }
            return false
        }
        XCTAssertEqual(keys.first, true)
        XCTAssertEqual(keys.filter { $0 }.count, 3, "\(keys)")
        XCTAssertGreaterThan(keys.count, 3)
    }

    func testLateJoinerStartsAtTheLatestKeyFragment() async throws {
        let server = try await MediaServer.start(host: "127.0.0.1", port: .exactly(0))
        let stream = LiveStream()
        let item = server.share(live: stream, name: "screen.mp4", peer: "127.0.0.1")
        try stream.feed(F.initSegment + F.fragment(1, key: true) + F.fragment(2, key: false) + F.fragment(3, key: true) + F.fragment(4, key: false))
        let reader = try await LiveReader(item.url)
        XCTAssertEqual(reader.status, 200)
        XCTAssertEqual(reader.headers.first(name: "Content-Type"), "video/mp4")
        XCTAssertEqual(reader.headers.first(name: "Access-Control-Allow-Origin"), "*")
        XCTAssertNil(reader.headers.first(name: "Content-Length"))
        let expected = F.initSegment + F.fragment(3, key: true) + F.fragment(4, key: false)
        try await reader.read(upTo: expected.count)
        try stream.feed(F.fragment(5, key: false))
        stream.finish()
        try await reader.readToEnd()
        XCTAssertEqual(reader.received, expected + F.fragment(5, key: false))
        await eventually("the client is forgotten") { stream.counters.clients == 0 }
        await server.stop()
    }

    func testClientBeforeTheFirstKeyFragmentStartsThere() async throws {
        let server = try await MediaServer.start(host: "127.0.0.1", port: .exactly(0))
        let stream = LiveStream()
        let item = server.share(live: stream, name: "screen.mp4", peer: "127.0.0.1")
        async let reading = LiveReader(item.url)
        await eventually("the client joined") { stream.counters.clients == 1 }
        try stream.feed(F.initSegment + F.fragment(1, key: false) + F.fragment(2, key: true))
        let reader = try await reading
        try await reader.read(upTo: F.initSegment.count + F.fragment(2, key: true).count)
        stream.finish()
        try await reader.readToEnd()
        XCTAssertEqual(reader.received, F.initSegment + F.fragment(2, key: true))
        await server.stop()
    }

    /// One client stops reading; the other keeps receiving every fragment in order, and the
    /// stalled one is skipped instead of buffering without end.
    func testStalledClientDoesNotHoldUpTheOthers() async throws {
        let server = try await MediaServer.start(host: "127.0.0.1", port: .exactly(0))
        var limits = LiveStream.Limits()
        limits.clientBacklog = 256 << 10
        let stream = LiveStream(limits: limits)
        let item = server.share(live: stream, name: "screen.mp4", peer: "127.0.0.1")
        try stream.feed(F.initSegment + F.fragment(0, key: true))
        let stalled = try StalledClient(port: server.port, path: "/\(item.token)/screen.mp4")
        defer { stalled.close() }
        let reader = try await LiveReader(item.url)
        await eventually("both clients joined") { stream.counters.clients == 2 }
        var expected = F.initSegment + F.fragment(0, key: true)
        try await reader.read(upTo: expected.count)
        for n in 1...400 {  // 25 MB, far more than the socket buffers of the stalled client hold
            let fragment = F.fragment(UInt32(n), key: n % 10 == 0, size: 64 << 10)
            try stream.feed(fragment)
            expected += fragment
            try await reader.read(upTo: expected.count)
        }
        XCTAssertEqual(reader.received.count, expected.count)
        XCTAssertTrue(reader.received == expected, "the reading client lost or reordered bytes")
        XCTAssertGreaterThan(stream.counters.skipped, 0)
        XCTAssertEqual(stream.counters.clients, 2)
        stream.finish()
        await server.stop()
    }

    func testClientThatLeavesIsForgotten() async throws {
        let server = try await MediaServer.start(host: "127.0.0.1", port: .exactly(0))
        let stream = LiveStream()
        let item = server.share(live: stream, name: "screen.mp4", peer: "127.0.0.1")
        try stream.feed(F.initSegment + F.fragment(1, key: true))
        let client = try StalledClient(port: server.port, path: "/\(item.token)/screen.mp4")
        await eventually("the client joined") { stream.counters.clients == 1 }
        client.close()
        await eventually("the client is forgotten") { stream.counters.clients == 0 }
        XCTAssertEqual(stream.counters.clientsGone, 1)
        try stream.feed(F.fragment(2, key: false))  // nobody to send it to
        XCTAssertEqual(stream.counters.fragments, 2)
        await server.stop()
    }

    func testOnlyTheDeviceMayWatch() async throws {
        let server = try await MediaServer.start(host: "127.0.0.1", port: .exactly(0))
        let stream = LiveStream()
        let item = server.share(live: stream, name: "screen.mp4", peer: "192.0.2.7")
        try stream.feed(F.initSegment + F.fragment(1, key: true))
        let reader = try await LiveReader(item.url)
        XCTAssertEqual(reader.status, 403)
        XCTAssertEqual(stream.counters.clients, 0)
        await server.stop()
    }

    func testHeadRangeAndTheEnd() async throws {
        let server = try await MediaServer.start(host: "127.0.0.1", port: .exactly(0))
        let stream = LiveStream()
        let item = server.share(live: stream, name: "screen.mp4", peer: "127.0.0.1")
        try stream.feed(F.initSegment + F.fragment(1, key: true))
        var head = HTTPClientRequest(url: item.url)
        head.method = .HEAD
        let h = try await HTTPClient.shared.execute(head, timeout: .seconds(10))
        XCTAssertEqual(h.status.code, 200)
        XCTAssertEqual(h.headers.first(name: "Content-Type"), "video/mp4")
        XCTAssertEqual(stream.counters.clients, 0)
        var ranged = HTTPClientRequest(url: item.url)
        ranged.headers.add(name: "Range", value: "bytes=100-")
        let r = try await HTTPClient.shared.execute(ranged, timeout: .seconds(10))
        XCTAssertEqual(r.status.code, 200, "a live stream has no byte positions to seek to")
        stream.finish()
        let whole = try await r.body.collect(upTo: 1 << 20)
        XCTAssertEqual(Array(whole.readableBytesView), F.initSegment + F.fragment(1, key: true))
        let after = try await LiveReader(item.url)
        XCTAssertEqual(after.status, 404)

        let failed = LiveStream()
        let item2 = server.share(live: failed, name: "screen.mp4", peer: "127.0.0.1")
        XCTAssertThrowsError(try failed.feed(Array("garbage, not boxes".utf8)))
        let answer = try await LiveReader(item2.url)
        XCTAssertEqual(answer.status, 503)
        try await answer.readToEnd()
        XCTAssertTrue(String(decoding: answer.received, as: UTF8.self).contains("not fragmented MP4"))
        await server.stop()
    }

    func testEndingTheCastEndsEveryResponse() async throws {
        let share = MediaShare(port: .exactly(0))
        let stream = LiveStream()
        let cast = try await share.publish(live: stream, name: "screen.mp4", title: "Screen", device: "127.0.0.1", localAddress: "127.0.0.1")
        XCTAssertEqual(cast.media.streamType, .live)
        XCTAssertEqual(cast.media.contentType, "video/mp4")
        XCTAssertNil(cast.media.duration)
        try stream.feed(F.initSegment + F.fragment(1, key: true))
        let reader = try await LiveReader(cast.url)
        try await reader.read(upTo: 1)
        await share.end(cast)
        try await reader.readToEnd()
        XCTAssertTrue(reader.ended)
        let serving = await share.isServing(cast.url)
        XCTAssertFalse(serving)
    }
}
