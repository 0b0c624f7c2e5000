// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

#if canImport(Glibc)
import Glibc
#endif

/// Why `readFileBytes` read nothing.
public enum FileReadError: Error, Equatable, Sendable {
    /// The file could not be opened or read; `errno` says why.
    case system(errno: Int32)
    /// It is not a regular file (a directory, a FIFO…).
    case notARegularFile
    /// It holds more than the caller's limit.
    case tooLarge(limit: Int)

    /// The reason in words, for a message a person reads.
    public var reason: String {
        switch self {
        case .system(let code): String(cString: strerror(code))
        case .notARegularFile: "not a regular file"
        case .tooLarge(let limit): "larger than \(limit) bytes"
        }
    }
}

/// The whole content of a regular file, read with open(2)/read(2).
///
/// For the small files a short process reads at start (the session file, PEM roots):
/// Foundation's `Data(contentsOf:)` first builds a URL and spells out its path, whose first
/// use costs a `castctl` run a scan of the binary's conformance records.
public func readFileBytes(atPath path: String, limit: Int = 16 << 20) throws(FileReadError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .system(errno: errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .system(errno: errno) }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile }
    guard Int(info.st_size) <= limit else { throw .tooLarge(limit: limit) }
    // The size is a hint: the file may grow or shrink while it is read.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(info.st_size) + 1)
    var chunk = [UInt8](repeating: 0, count: max(4096, min(Int(info.st_size) + 1, 1 << 20)))
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n == 0 { return bytes }
        if n < 0 {
            if errno == EINTR { continue }
            throw .system(errno: errno)
        }
        guard bytes.count + n <= limit else { throw .tooLarge(limit: limit) }
        bytes.append(contentsOf: chunk[..<n])
    }
}
