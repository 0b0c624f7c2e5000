// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import Foundation
import LocalMedia
import NIOCore
import NIOHTTP1
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Fragmented MP4 made by hand: just the boxes ``FMP4Splitter`` reads, with a video track 1
/// (sync samples marked through trun's first-sample flags) and an audio track 2.
enum SyntheticFMP4 {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(payload.count + 8)) + Array(type.utf8) + payload
    }
    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static var initSegment: [UInt8] {
        func trak(_ id: UInt32, _ handler: String) -> [UInt8] {
            let tkhd = box("tkhd", [0, 0, 0, 3] + be32(0) + be32(0) + be32(id) + [UInt8](repeating: 0, count: 68))
            let hdlr = box("hdlr", be32(0) + be32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
            return box("trak", tkhd + box("mdia", hdlr))
        }
        // trex: version/flags, track, description index, duration, size, flags (non-sync by default).
        let trex = box("trex", be32(0) + be32(1) + be32(1) + be32(0) + be32(0) + be32(0x0101_0000))
        return box("ftyp", Array("isom".utf8) + be32(512)) + box("moov", trak(1, "vide") + trak(2, "soun") + box("mvex", trex))
    }

    /// A fragment whose mdat holds `size` bytes starting with the fragment's number.
    static func fragment(_ number: UInt32, key: Bool, size: Int = 64) -> [UInt8] {
        let tfhd = box("tfhd", be32(0x02_0000) + be32(1))
        let trun = box("trun", be32(0x000004) + be32(1) + be32(key ? 0x0200_0000 : 0x0101_0000))
        let audio = box("traf", box("tfhd", be32(0) + be32(2)) + box("trun", be32(0) + be32(1)))
        let moof = box("moof", box("mfhd", be32(0) + be32(number)) + audio + box("traf", tfhd + trun))
        var data = be32(number) + [UInt8](repeating: UInt8(truncatingIfNeeded: number), count: max(size - 4, 0))
        data = Array(data.prefix(max(size, 4)))
        return moof + box("mdat", data)
    }
}

/// A live response read as it comes.
final class LiveReader {
    private var iterator: HTTPClientResponse.Body.AsyncIterator
    let status: UInt
    let headers: HTTPHeaders
    private(set) var received: [UInt8] = []
    private(set) var ended = false

    init(_ url: String) async throws {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        status = response.status.code
        headers = response.headers
        iterator = response.body.makeAsyncIterator()
    }

    /// Reads until at least `count` bytes came in all, or the body ended.
    func read(upTo count: Int) async throws {
        while received.count < count, !ended {
            if let chunk = try await iterator.next() {
                received += chunk.readableBytesView
            } else {
                ended = true
            }
        }
    }

    func readToEnd() async throws { try await read(upTo: .max) }
}

/// A client that sends a GET and then reads nothing, with a tiny receive buffer.
final class StalledClient {
    let fd: Int32
    init(port: Int, path: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = in_port_t(UInt16(port).bigEndian)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard r == 0 else { throw POSIXError(.ECONNREFUSED) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    }
    func close() { _ = Glibc.close(fd) }
}

/// Waits (bounded) until `condition` holds; fails the test when it never does.
func eventually(_ what: String, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) async {
    for _ in 0..<1000 {
        if condition() { return }
        try? await Task.sleep(for: .milliseconds(10))
    }
    XCTFail("never happened: \(what)", file: file, line: line)
}
