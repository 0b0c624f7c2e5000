// SPDX-License-Identifier: GPL-3.0-or-later
// What a short castctl process reads and writes without Foundation: whole small files
// (readFileBytes) and log lines on standard error (StandardErrorLogHandler).
import CastClient
import CastCore
import Foundation
import Logging
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ReadFileBytesTests {
    let dir: String = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-read-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    @Test func readsWholeFilesOfAnySize() throws {
        for size in [0, 1, 4095, 4096, 4097, 300_000] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let path = dir + "/f\(size)"
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            #expect(try readFileBytes(atPath: path) == bytes, "\(size) bytes")
        }
    }

    @Test func saysWhyItReadNothing() throws {
        #expect(throws: FileReadError.system(errno: ENOENT)) { try readFileBytes(atPath: dir + "/missing") }
        #expect(throws: FileReadError.notARegularFile) { try readFileBytes(atPath: dir) }
        let path = dir + "/big"
        FileManager.default.createFile(atPath: path, contents: Data(count: 2000))
        #expect(throws: FileReadError.tooLarge(limit: 1000)) { try readFileBytes(atPath: path, limit: 1000) }
        #expect(FileReadError.system(errno: ENOENT).reason == "No such file or directory")
        chmod(path, 0)
        if getuid() != 0 {  // root reads it anyway
            #expect(throws: FileReadError.system(errno: EACCES)) { try readFileBytes(atPath: path) }
        }
    }
}

@Suite(.serialized) struct StandardErrorLogHandlerTests {
    /// What `body` writes to file descriptor 2.
    func captureStandardError(_ body: () -> Void) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-stderr-\(UUID().uuidString)").path
        let fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
        try #require(fd >= 0)
        let saved = dup(2)
        dup2(fd, 2)
        body()
        dup2(saved, 2)
        close(saved)
        close(fd)
        defer { unlink(path) }
        return String(decoding: try readFileBytes(atPath: path), as: UTF8.self)
    }

    @Test func writesStreamLogHandlersLayoutWithMetadataInKeyOrder() throws {
        var logger = Logger(label: "cast.test") { StandardErrorLogHandler(label: $0, logLevel: .info, metadataProvider: nil) }
        logger[metadataKey: "z.device"] = "127.0.0.1:8009"
        var other = logger
        other[metadataKey: "only.other"] = "x"
        let text = try captureStandardError {
            logger.debug("not written: below the level")
            logger.warning("the link closed", metadata: ["a.reason": "timeout"])
        }
        // Only this logger's lines: other suites run in parallel and may write to fd 2 meanwhile.
        let ours = text.split(separator: "\n").map(String.init).filter { $0.contains(" cast.test: ") }
        let line = try #require(ours.first)
        #expect(ours.count == 1)
        // 2026-11-25T01:02:03+0000 warning cast.test: a.reason=timeout z.device=127.0.0.1:8009 [CastClientTests] the link closed
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        #expect(parts[0].count >= 24 && parts[0].contains("T"))
        #expect(parts[1] == "warning cast.test: a.reason=timeout z.device=127.0.0.1:8009 [CastClientTests] the link closed")
        // Metadata is a value: the copy's key is not in the original's lines.
        #expect(!line.contains("only.other"))
    }
}
