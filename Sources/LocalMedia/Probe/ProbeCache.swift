// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What identifies one version of a file cheaply: the file system, the inode, the size and
/// the modification time to the nanosecond. A rename keeps it; writing to the file (or a
/// new file put in its place) changes it. Read with one `stat`, no byte of the file.
struct FileStamp: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64

    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    }

    /// The cache file's name for answers of `tool` (another ffprobe may answer otherwise).
    func key(tool: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for b in tool.utf8 { hash = (hash ^ UInt32(b)) &* 16_777_619 }
        return "\(device)-\(inode)-\(size)-\(modified)-" + String(hash, radix: 16)
    }
}

/// ffprobe's answers about a file, kept by ``FileStamp``: its streams and format, and the
/// keyframe times of a video stream that is copied into segments. Casting the same file again
/// (the next day, after a seek that restarts the cast, or resuming it) asks ffprobe nothing.
///
/// Held in memory for the process and on disk under `$XDG_CACHE_HOME/castdeck/probe/`
/// (castctl is a new process each time): one small JSON file per file version, the newest
/// `limit` kept. A cache file that cannot be read is ignored and written again; the cache is
/// only ever a shortcut, never the truth.
final class ProbeCache: @unchecked Sendable {
    struct Entry: Codable, Sendable {
        /// ffprobe's JSON output, as it printed it.
        var probe: String?
        /// Keyframe times per stream index.
        var keyframes: [String: [Double]] = [:]
    }

    static let shared = ProbeCache(directory: XDGDirectory.cache.path().map { $0 + "/probe" })

    let directory: String?
    let limit: Int
    /// Guarded by `lock`.
    private var memory: [String: Entry] = [:]
    private let lock = NSLock()

    init(directory: String?, limit: Int = 500) {
        self.directory = directory
        self.limit = limit
    }

    /// What `tool` said about this version of a file, from memory or disk.
    func entry(_ stamp: FileStamp, tool: String) -> Entry? {
        let key = stamp.key(tool: tool)
        if let e = lock.withLock({ memory[key] }) { return e }
        guard let directory, let data = FileManager.default.contents(atPath: "\(directory)/\(key).json"),
            let e = try? JSONDecoder().decode(Entry.self, from: data)
        else { return nil }
        lock.withLock { memory[key] = e }
        return e
    }

    /// Adds what `change` sets to the entry of `stamp`, in memory and on disk.
    func update(_ stamp: FileStamp, tool: String, _ change: (inout Entry) -> Void) {
        let key = stamp.key(tool: tool)
        let entry: Entry = lock.withLock {
            var e = memory[key] ?? Entry()
            change(&e)
            memory[key] = e
            return e
        }
        guard let directory, let data = try? JSONEncoder().encode(entry) else { return }
        let fm = FileManager.default
        try? fm.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = "\(directory)/\(key).json"
        let temporary = path + ".\(getpid()).tmp"
        guard fm.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
        trim()
    }

    /// Keeps the newest `limit` cache files.
    private func trim() {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory), names.count > limit else { return }
        let dated: [(String, Int)] = names.compactMap { name in
            var st = stat()
            let path = "\(directory)/\(name)"
            return stat(path, &st) == 0 ? (path, Int(st.st_mtim.tv_sec)) : nil
        }
        for (path, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(names.count - limit) { unlink(path) }
    }
}
