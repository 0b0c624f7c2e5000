// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import Foundation
import LocalMedia
import NIOCore
import NIOHTTP1
import XCTest

/// The server over real loopback sockets with a real HTTP client (curl, Python and
/// chromium cover the rest in Tests/System/run-localmedia.sh).
final class MediaServerTests: XCTestCase {
    var file: String!
    let bytes: [UInt8] = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    override func setUp() async throws {
        file = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-server-\(UUID().uuidString).bin").path
        FileManager.default.createFile(atPath: file, contents: Data(bytes))
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(atPath: file)
    }

    func get(_ url: String, headers: [(String, String)] = [], method: HTTPMethod = .GET) async throws -> (UInt, HTTPHeaders, [UInt8]) {
        var r = HTTPClientRequest(url: url)
        r.method = method
        for (k, v) in headers { r.headers.add(name: k, value: v) }
        let response = try await HTTPClient.shared.execute(r, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (response.status.code, response.headers, Array(body.readableBytesView))
    }

    func testRangeCORSAndRevocation() async throws {
        let server = try await MediaServer.start(host: "127.0.0.1", port: .exactly(0))
        let item = server.share(path: file, name: "a file é.bin", contentType: "video/mp4", peer: "127.0.0.1")
        XCTAssertTrue(item.url.hasSuffix("/a%20file%20%C3%A9.bin"), item.url)

        let (s1, h1, b1) = try await get(item.url, headers: [("Range", "bytes=10-19")])
        XCTAssertEqual(s1, 206)
        XCTAssertEqual(b1, Array(bytes[10...19]))
        XCTAssertEqual(h1.first(name: "Content-Range"), "bytes 10-19/10000")
        XCTAssertEqual(h1.first(name: "Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(h1.first(name: "Accept-Ranges"), "bytes")
        XCTAssertEqual(h1.first(name: "Content-Type"), "video/mp4")

        let (s2, _, b2) = try await get(item.url)
        XCTAssertEqual(s2, 200)
        XCTAssertEqual(b2, bytes)

        let (s3, h3, _) = try await get(item.url, headers: [("Range", "bytes=20000-")])
        XCTAssertEqual(s3, 416)
        XCTAssertEqual(h3.first(name: "Content-Range"), "bytes */10000")

        let wrong = item.url.replacingOccurrences(of: item.token, with: String(repeating: "0", count: 32))
        let (s4, _, _) = try await get(wrong)
        XCTAssertEqual(s4, 404)

        server.revoke([item.token])
        // With no share left, nobody is a permitted client: 403 before any path is looked at.
        let (s5, _, _) = try await get(item.url)
        XCTAssertEqual(s5, 403)
        await server.stop()
    }

    func testOnlyTheDeviceMayFetch() async throws {
        let server = try await MediaServer.start(host: "127.0.0.1", port: .exactly(0))
        let item = server.share(path: file, name: "x.bin", contentType: "video/mp4", peer: "192.0.2.7")
        let (status, headers, _) = try await get(item.url)
        XCTAssertEqual(status, 403)
        XCTAssertEqual(headers.first(name: "Access-Control-Allow-Origin"), "*")
        await server.stop()
    }

    func testDefaultRangeFallsBackWhenAllPortsAreTaken() async throws {
        var taken: [MediaServer] = []
        for _ in 0..<3 { taken.append(try await MediaServer.start(host: "127.0.0.1", port: .range(18610...18611))) }
        XCTAssertEqual(Set(taken.map(\.port)).count, 3)
        XCTAssertTrue(taken.prefix(2).allSatisfy { (18610...18611).contains($0.port) })
        XCTAssertFalse((18610...18611).contains(taken[2].port))
        do {
            _ = try await MediaServer.start(host: "127.0.0.1", port: .exactly(taken[0].port))
            XCTFail("an explicit busy port must fail")
        } catch {
            XCTAssertTrue(error.description.contains("in use"), error.description)
        }
        for s in taken { await s.stop() }
    }
}
