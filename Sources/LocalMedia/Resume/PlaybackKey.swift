// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a remembered position belongs to: a file of this computer (by what it holds, not
/// where it lies), a link (by its URL), or a queue (by where its items came from).
///
/// The key is a SHA-256 digest, so the state file that holds the positions names no file,
/// folder or address: it is no list of what was watched for anyone who reads it.
public struct PlaybackKey: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        case file, link, queue
    }

    public let kind: Kind
    /// Lower-case hexadecimal SHA-256.
    public let digest: String

    init(kind: Kind, digest: String) {
        self.kind = kind
        self.digest = digest
    }

    /// The key in the state file: `file:…`, `link:…`, `queue:…`.
    public var storageKey: String { kind.rawValue + ":" + digest }

    public var description: String { storageKey }

    init?(storageKey: String) {
        guard let colon = storageKey.firstIndex(of: ":"), let kind = Kind(rawValue: String(storageKey[..<colon])) else { return nil }
        let digest = String(storageKey[storageKey.index(after: colon)...])
        guard digest.count == 64, digest.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        self.init(kind: kind, digest: digest)
    }

    /// A link, by its URL as given (surrounding white space aside).
    public static func link(_ url: String) -> PlaybackKey {
        PlaybackKey(kind: .link, digest: sha256Hex(Array(url.trimmingCharacters(in: .whitespacesAndNewlines).utf8)))
    }

    /// A file of this computer (a path or a `file://` URL), by its identity (`FileIdentity`).
    public static func file(_ pathOrURL: String) throws(FileIdentityError) -> PlaybackKey {
        PlaybackKey(kind: .file, digest: try FileIdentity.digest(ofFile: MediaShare.localPath(pathOrURL)))
    }

    /// A queue, by what it was made from: one playlist by the playlist file's identity (moved,
    /// it is still the same list); one folder by its absolute path (its files are read again
    /// each time, so what it holds may change and it stays the same folder); several items by
    /// their absolute paths and URLs in order. `recursive` (subfolders too) is another queue.
    /// Nil when a playlist cannot be read.
    public static func queue(sources: [String], recursive: Bool = false) -> PlaybackKey? {
        var text = "castdeck-queue-v1\n" + (recursive ? "recursive\n" : "flat\n")
        if sources.count == 1, MediaShare.isLocal(sources[0]) {
            let path = MediaShare.localPath(sources[0])
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT == S_IFREG {
                guard let digest = try? FileIdentity.digest(ofFile: path) else { return nil }
                text += "playlist\n" + digest
            } else {
                text += "folder\n" + absolute(path)
            }
        } else {
            for s in sources { text += (MediaShare.isLocal(s) ? absolute(MediaShare.localPath(s)) : s) + "\n" }
        }
        return PlaybackKey(kind: .queue, digest: sha256Hex(Array(text.utf8)))
    }

    /// `path` made absolute and free of `.`, `..` and symbolic links where it exists.
    static func absolute(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (full as NSString).standardizingPath
    }
}

/// Why a file has no identity.
public enum FileIdentityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// It could not be opened or read (`errno`).
    case unreadable(path: String, errno: Int32)
    /// A folder, a device, a FIFO…
    case notARegularFile(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let code): "\((path as NSString).lastPathComponent) cannot be read: \(String(cString: strerror(code)))."
        case .notARegularFile(let path): "\((path as NSString).lastPathComponent) is not a regular file."
        }
    }
}

/// Which file this is, whatever it is called and wherever it lies.
///
/// A file is known by its size and a SHA-256 of its first and last 64 KiB (all of it when it
/// is smaller than 128 KiB), not by its path, its inode or its modification time:
/// - renamed or moved, even to another disk, a file keeps its bytes, so it keeps its place;
///   its path, and on another file system its inode, would not;
/// - copied, its time changes and its bytes do not;
/// - edited (cut, re-encoded, re-muxed, tags rewritten), a media file changes its size, or its
///   header or index, which containers keep at the start (MP4's `moov` when made for the web,
///   Matroska's segment info, ID3v2) or the end (MP4's `moov` otherwise, Matroska's cues,
///   ID3v1): another film, or another cut of it, starts at the start;
/// - two different films of the same size with the same first and last 64 KiB do not happen
///   in practice, and reading only those 128 KiB keeps it instant for a 50 GB file on a slow
///   disk, where hashing all of it would take minutes.
public enum FileIdentity {
    /// How much of each end is read.
    public static let edge = 64 * 1024

    /// The identity of the file at `path` (symbolic links followed), as hexadecimal SHA-256.
    public static func digest(ofFile path: String) throws(FileIdentityError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        let size = Int(info.st_size)
        var hash = SHA256()
        hash.update(data: Array("castdeck-file-identity-v1\n\(size)\n".utf8))
        if size <= 2 * edge {
            hash.update(data: try read(fd, at: 0, count: size, path: path))
        } else {
            hash.update(data: try read(fd, at: 0, count: edge, path: path))
            hash.update(data: try read(fd, at: size - edge, count: edge, path: path))
        }
        return hex(hash.finalize())
    }

    private static func read(_ fd: Int32, at offset: Int, count: Int, path: String) throws(FileIdentityError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, errno: errno)
            }
            if n == 0 { break }  // shrank while read: what is there is what it is
            done += n
        }
        return Array(bytes[..<done])
    }
}

func sha256Hex(_ bytes: [UInt8]) -> String { hex(SHA256.hash(data: bytes)) }

private func hex(_ digest: SHA256.Digest) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(64)
    for b in digest {
        out.append(digits[Int(b >> 4)])
        out.append(digits[Int(b & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
}
