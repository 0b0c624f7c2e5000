// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import Foundation
import ImageCache
import XCTest

/// The repository root, found from this file's location.
let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The project's venv python when present, else python3 from PATH.
func pythonExecutable() -> String {
    let venv = repositoryRoot.appendingPathComponent(".venv/bin/python").path
    return FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/env"
}

/// Fixtures/image_server.py, started on 127.0.0.1 with an ephemeral port for one test.
final class ImageServer: @unchecked Sendable {
    let process = Process()
    let port: Int

    init() throws {
        let script = repositoryRoot.appendingPathComponent("Tests/ImageCacheTests/Fixtures/image_server.py").path
        let python = pythonExecutable()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = python == "/usr/bin/env" ? ["python3", script] : [script]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // Hang guard: the server prints its port within a few seconds or the test fails.
        let deadline = Date().addingTimeInterval(20)
        var text = ""
        while !text.contains("\n") && Date() < deadline {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("PORT "),
            let port = Int(line.dropFirst(5))
        else {
            process.terminate()
            throw NSError(domain: "ImageServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "server did not start: \(text)"])
        }
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Requests per path (query excluded) as counted by the server.
    func counts() async throws -> [String: Int] {
        try await stats()["counts"] ?? [:]
    }

    /// Conditional requests (If-None-Match / If-Modified-Since) per path.
    func conditional() async throws -> [String: Int] {
        try await stats()["conditional"] ?? [:]
    }

    func get(_ path: String) async throws {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url(path)), timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 20)
    }

    private func stats() async throws -> [String: [String: Int]] {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url("/_stats")), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode([String: [String: Int]].self, from: Data(body.readableBytesView))
    }

    func stop() {
        stopProcess(process)
    }

    deinit { stop() }
}

/// A clock tests move by hand, so max-age can be crossed without sleeping.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Double = 1_800_000_000

    var now: Double { lock.withLock { value } }
    func advance(_ seconds: Double) { lock.withLock { value += seconds } }
}

/// A fresh, empty cache directory under the system temporary directory.
func makeTemporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("castdeck-imagecache-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func assertThrows<T>(
    _ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line,
    _ check: (ImageCacheError) -> Bool
) async {
    do {
        _ = try await expression()
        XCTFail("expected an ImageCacheError", file: file, line: line)
    } catch let error as ImageCacheError {
        XCTAssertTrue(check(error), "unexpected error: \(error)", file: file, line: line)
    } catch {
        XCTFail("expected an ImageCacheError, got \(error)", file: file, line: line)
    }
}

/// The PNG's pixel size read from its IHDR chunk.
func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
    guard bytes.count > 24, bytes[0] == 0x89, bytes[1] == 0x50 else { return nil }
    func be(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
    return (be(16), be(20))
}

/// SIGKILL and wait (polling: Foundation's waitUntilExit can spin forever off the main thread).
func stopProcess(_ process: Process) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(10_000) }
}
