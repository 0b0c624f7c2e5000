// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Small POSIX helpers: the cache needs exact control over fsync, rename and O_EXCL, which
/// Foundation's file APIs do not expose.
enum FileIO {
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var code: Int32
        var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    }

    static func makeDirectory(_ path: String) throws(Failure) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw Failure(operation: "mkdir", path: path, code: errno)
        }
    }

    /// Creates every missing component of `path`.
    static func makeDirectories(_ path: String) throws(Failure) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            try makeDirectory(current)
        }
    }

    /// Reads a whole file, or nil when it does not exist or cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let expected = Int(st.st_size)
        var result = [UInt8](repeating: 0, count: expected)
        var filled = 0
        while filled < expected {
            let n = result.withUnsafeMutableBytes { buf in
                Glibc.read(fd, buf.baseAddress! + filled, expected - filled)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            filled += n
        }
        if filled < expected { result.removeSubrange(filled...) }
        return result
    }

    /// The size of a file in bytes, or nil when it does not exist.
    static func size(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_size)
    }

    /// Last modification time in seconds since 1970, or nil when the file does not exist.
    static func modificationTime(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_mtim.tv_sec)
    }

    static func remove(_ path: String) {
        unlink(path)
    }

    /// Names in a directory (without "." and "..").
    static func list(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Writes `bytes` so that `path` either keeps its old content or has the complete new one,
    /// even if the process dies halfway: temporary file in `tmpDirectory`, fsync, rename.
    static func writeAtomically(_ bytes: UnsafeRawBufferPointer, to path: String, tmpDirectory: String) throws(Failure) {
        let file = try TempFile(directory: tmpDirectory)
        do throws(Failure) {
            try file.write(bytes)
            try file.commit(to: path)
        } catch {
            file.discard()
            throw error
        }
    }

    static func writeAtomically(_ bytes: [UInt8], to path: String, tmpDirectory: String) throws(Failure) {
        let result: Result<Void, Failure> = bytes.withUnsafeBytes { buf in
            do throws(Failure) {
                try writeAtomically(buf, to: path, tmpDirectory: tmpDirectory)
                return .success(())
            } catch { return .failure(error) }
        }
        try result.get()
    }
}

/// A file being written in the cache's tmp directory; it becomes visible under its final name only
/// through `commit(to:)` (fsync + rename). Files left behind by a crash are removed on next open.
final class TempFile: @unchecked Sendable {
    let path: String
    private var fd: Int32
    private(set) var written = 0

    private static let counter = AtomicCounter()

    init(directory: String) throws(FileIO.Failure) {
        let name = "\(getpid())-\(TempFile.counter.next())-\(UInt32.random(in: 0 ... .max)).part"
        path = directory + "/" + name
        fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd < 0 { throw FileIO.Failure(operation: "create", path: path, code: errno) }
    }

    deinit {
        if fd >= 0 {
            close(fd)
            unlink(path)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FileIO.Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw FileIO.Failure(operation: "write", path: path, code: errno)
            }
            offset += n
        }
        written += bytes.count
    }

    /// fsync, close, and rename over `destination`.
    func commit(to destination: String) throws(FileIO.Failure) {
        if fsync(fd) != 0 { throw FileIO.Failure(operation: "fsync", path: path, code: errno) }
        close(fd)
        fd = -1
        if rename(path, destination) != 0 {
            let code = errno
            unlink(path)
            throw FileIO.Failure(operation: "rename", path: destination, code: code)
        }
    }

    /// close and rename without fsync (benchmark seeding only).
    func renameWithoutSync(to destination: String) throws(FileIO.Failure) {
        close(fd)
        fd = -1
        if rename(path, destination) != 0 {
            let code = errno
            unlink(path)
            throw FileIO.Failure(operation: "rename", path: destination, code: code)
        }
    }

    func discard() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        unlink(path)
    }
}

/// A tiny lock-protected counter for unique temporary names.
final class AtomicCounter: @unchecked Sendable {
    private var value = 0
    private var lock = pthread_mutex_t()

    init() { pthread_mutex_init(&lock, nil) }

    func next() -> Int {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        value += 1
        return value
    }
}
