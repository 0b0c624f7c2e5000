// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import CastProtocol
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// The state file of PlaybackMemory:
//
//     {"version": 1, "entries": {"file:9f2c…": {"position": 2530, "duration": 10200, "savedAt": 1795000000},
//                                "queue:41aa…": {"item": 2, "position": 70.5, "savedAt": 1795000100}}}
//
// read and written as a JSON tree (CastProtocol's parser and writer, as SessionStore does),
// `savedAt` in seconds since 1970. An entry that does not read is left out, the others stay.
extension PlaybackMemory {
    struct Contents {
        var entries: [String: ResumePoint] = [:]
        /// The file is there but is not a positions file: it is kept aside before it is replaced.
        var isCorrupt = false
    }

    /// The largest file read: 1,000 entries take about 100 KiB.
    static let sizeLimit = 4 << 20

    func load() -> Contents {
        let bytes: [UInt8]
        do {
            bytes = try readFileBytes(atPath: path, limit: Self.sizeLimit)
        } catch .system(errno: ENOENT) {
            Self.logger.debug("No playback positions remembered yet (\(path) does not exist).")
            return Contents()
        } catch {
            Self.logger.debug("Playback positions start empty: \(path) cannot be read (\(error.reason)).")
            return Contents(isCorrupt: error == .tooLarge(limit: Self.sizeLimit) || error == .notARegularFile)
        }
        guard let tree = try? JSONValue(parsing: bytes), let entries = tree["entries"]?.objectValue else {
            Self.logger.debug("Playback positions start empty: \(path) is not a positions file (it is kept as \(path).corrupt when next written).")
            return Contents(isCorrupt: true)
        }
        var out = Contents()
        for (key, value) in entries.members {
            guard PlaybackKey(storageKey: key) != nil, let point = ResumePoint(json: value) else {
                Self.logger.debug("Playback positions: the entry \(key) of \(path) does not read and is left out.")
                continue
            }
            out.entries[key] = point
        }
        return out
    }

    func write(_ entries: [String: ResumePoint], keepingCorrupt: Bool) throws(PlaybackMemoryError) {
        let directory = (path as NSString).deletingLastPathComponent
        let members = entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }
        let tree = JSONValue.object(["version": .int(1), "entries": .object(JSONObject(members: members))])
        let bytes = Array((CastJSON.encode(tree) + "\n").utf8)
        if keepingCorrupt {
            // What the file held is not thrown away: someone may want to read it.
            _ = rename(path, path + ".corrupt")
        }
        let temporary = directory + "/.playback-positions.\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(errno) }
        var ok = fchmod(fd, 0o600) == 0
        var done = 0
        while ok && done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ok = false } else { done += n }
        }
        let code = errno
        // On the disk before it takes the old file's place: a crash leaves the old or the new.
        if ok { ok = fsync(fd) == 0 }
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let e = ok ? errno : code
            unlink(temporary)
            throw failure(e)
        }
    }

    /// Runs `body` holding an exclusive lock on `<file>.lock` (flock), made with the folder
    /// (mode 0700) when missing: read-change-write from two processes (the window and castctl)
    /// would otherwise lose one's change.
    func withLock(_ body: () throws(PlaybackMemoryError) -> Void) throws(PlaybackMemoryError) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw PlaybackMemoryError(path: path, reason: "its folder cannot be made (\(error.localizedDescription))")
        }
        let fd = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure(errno) }
        }
        defer { flock(fd, LOCK_UN) }
        try body()
    }

    private func failure(_ code: Int32) -> PlaybackMemoryError {
        PlaybackMemoryError(path: path, reason: String(cString: strerror(code)))
    }
}

extension ResumePoint {
    init?(json: JSONValue) {
        guard let o = json.objectValue, let position = o["position"]?.doubleValue, position.isFinite, position >= 0,
            let saved = o["savedAt"]?.doubleValue, saved.isFinite
        else { return nil }
        let duration = o["duration"]?.doubleValue.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        var item: Int?
        if let raw = o["item"] {
            guard let i = raw.intValue, i >= 0 else { return nil }
            item = i
        }
        self.init(position: position, duration: duration, item: item, savedAt: Date(timeIntervalSince1970: saved))
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("position", .double(position))]
        if let duration { members.append(("duration", .double(duration))) }
        if let item { members.append(("item", .int(Int64(item)))) }
        members.append(("savedAt", .double(savedAt.timeIntervalSince1970.rounded())))
        return .object(JSONObject(members: members))
    }
}
