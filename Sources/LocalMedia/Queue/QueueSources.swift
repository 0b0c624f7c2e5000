// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation

/// One thing to put in a queue: a file on this computer or a URL, with the title a
/// playlist gave it (nil: the file's own tags or name decide).
public struct QueueEntry: Hashable, Sendable {
    public enum Location: Hashable, Sendable {
        case file(String)
        case url(String)
    }
    public var location: Location
    public var title: String?
    public init(_ location: Location, title: String? = nil) {
        self.location = location
        self.title = title
    }
}

/// What `castctl cast A B C`, `cast DIR` and `cast LIST.m3u` (and a drop of several files
/// or a folder on the window) turn into a queue: arguments expanded to entries, folders
/// listed in natural order, playlists (M3U/M3U8, PLS, XSPF) read with their titles and
/// relative paths resolved against the playlist's folder.
///
/// Hostile input is refused with a sentence, never followed blindly: playlists larger
/// than `maxPlaylistBytes`, more than `maxEntries` entries, XML with a DOCTYPE (entity
/// bombs), schemes other than http/https/file, playlists inside playlists, and folder
/// trees deeper than `maxDepth` or looping through links.
public enum QueueSources {
    public static let maxPlaylistBytes = 8 << 20
    public static let maxEntries = 10_000
    public static let maxDepth = 16

    /// File extensions a folder listing picks up (what the device may play, plus the
    /// common containers it cannot, so that the user hears why they were left out).
    public static let mediaExtensions: Set<String> = [
        "mp4", "m4v", "mov", "webm", "mkv", "avi", "ts", "mp3", "m4a", "m4b", "aac", "flac", "ogg", "oga", "opus", "wav",
        "jpg", "jpeg", "png", "gif", "webp", "bmp",
    ]
    public static let playlistExtensions: Set<String> = ["m3u", "m3u8", "pls", "xspf"]

    public struct Expansion: Sendable, Equatable {
        public var entries: [QueueEntry] = []
        /// Sentences about what was left out.
        public var warnings: [String] = []
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case notFound(String)
        case unreadable(path: String, reason: String)
        case notAPlaylist(path: String, reason: String)
        case tooLarge(path: String, limit: String)
        case empty(String)
        case unsupportedURL(String)

        public var description: String {
            switch self {
            case .notFound(let p): "\(p) does not exist."
            case .unreadable(let p, let r): "Cannot read \(p): \(r)."
            case .notAPlaylist(let p, let r): "\(p) is not a playlist CastDeck can read: \(r)."
            case .tooLarge(let p, let limit): "\(p) is too large for a playlist (more than \(limit))."
            case .empty(let p): "\(p) has no media to cast."
            case .unsupportedURL(let u): "“\(u)” is not an http or https URL; a queue takes those and files on this computer."
            }
        }
    }

    /// True when `text` names something that needs expanding (a folder or a playlist)
    /// rather than a single file or URL.
    public static func needsExpansion(_ text: String) -> Bool {
        guard MediaShare.isLocal(text) else { return false }
        let path = MediaShare.localPath(text)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue { return true }
        return isPlaylist(path)
    }

    public static func isPlaylist(_ path: String) -> Bool {
        playlistExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Expands command-line arguments (files, URLs, folders, playlists) in order.
    public static func expand(_ arguments: [String], recursive: Bool = false) throws(Failure) -> Expansion {
        var out = Expansion()
        for argument in arguments {
            if !MediaShare.isLocal(argument) {
                guard let scheme = URL(string: argument)?.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
                    throw .unsupportedURL(argument)
                }
                out.entries.append(QueueEntry(.url(argument)))
                continue
            }
            let path = MediaShare.localPath(argument)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw .notFound(argument) }
            if isDir.boolValue {
                let files = try listFolder(path, recursive: recursive)
                if files.isEmpty { out.warnings.append("\(argument) has no media files\(recursive ? "" : " (add --recursive for its subfolders)").") }
                out.entries += files.map { QueueEntry(.file($0)) }
            } else if isPlaylist(path) {
                let list = try readPlaylist(path)
                out.entries += list.entries
                out.warnings += list.warnings
            } else {
                out.entries.append(QueueEntry(.file(path)))
            }
            guard out.entries.count <= maxEntries else { throw .tooLarge(path: argument, limit: "\(maxEntries) items") }
        }
        return out
    }

    /// The MIME type a URL's extension suggests (what a playlist's remote entries are sent with).
    public static func contentType(ofURL url: String) -> String {
        switch (URL(string: url)?.pathExtension ?? "").lowercased() {
        case "mp3": "audio/mpeg"
        case "m4a", "m4b", "aac": "audio/mp4"
        case "flac": "audio/flac"
        case "ogg", "oga", "opus": "audio/ogg"
        case "wav": "audio/wav"
        case "webm": "video/webm"
        case "m3u8": "application/x-mpegURL"
        case "mpd": "application/dash+xml"
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        default: "video/mp4"
        }
    }

    // MARK: folders

    /// The media files of a folder in natural order ("2 - x" before "10 - y"); with
    /// `recursive`, those of its subfolders after its own files, each folder in natural
    /// order. Hidden files are skipped; a link back up the tree is not followed twice.
    public static func listFolder(_ path: String, recursive: Bool) throws(Failure) -> [String] {
        var visited: Set<String> = []
        var out: [String] = []
        try list(path, recursive: recursive, depth: 0, visited: &visited, into: &out)
        return out
    }

    private static func list(_ path: String, recursive: Bool, depth: Int, visited: inout Set<String>, into out: inout [String]) throws(Failure) {
        let real = (path as NSString).resolvingSymlinksInPath
        guard depth <= maxDepth, visited.insert(real).inserted else { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        var folders: [String] = []
        for name in names.sorted(by: naturalLess) where !name.hasPrefix(".") {
            let full = (path as NSString).appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDir) else { continue }
            if isDir.boolValue {
                folders.append(full)
            } else if mediaExtensions.contains((name as NSString).pathExtension.lowercased()) {
                out.append(full)
                if out.count > maxEntries { throw .tooLarge(path: path, limit: "\(maxEntries) files") }
            }
        }
        if recursive {
            for f in folders { try list(f, recursive: true, depth: depth + 1, visited: &visited, into: &out) }
        }
    }

    // MARK: natural order

    /// Natural order: runs of digits compare as numbers ("2" < "10", "007" == "7" then
    /// shorter first), the rest case-insensitively; ties fall back to the plain text.
    public static func naturalLess(_ a: String, _ b: String) -> Bool {
        let x = chunks(a), y = chunks(b)
        for (p, q) in zip(x, y) {
            switch (p, q) {
            case (.number(let m), .number(let n)):
                let mm = m.drop { $0 == "0" }, nn = n.drop { $0 == "0" }
                if mm.count != nn.count { return mm.count < nn.count }
                if mm != nn { return mm < nn }
                if m.count != n.count { return m.count < n.count }
            case (.text(let s), .text(let t)):
                let ls = s.lowercased(), lt = t.lowercased()
                if ls != lt { return ls < lt }
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
        if x.count != y.count { return x.count < y.count }
        return a < b
    }

    private enum Chunk { case number(Substring), text(Substring) }

    private static func chunks(_ s: String) -> [Chunk] {
        var out: [Chunk] = []
        var start = s.startIndex
        while start < s.endIndex {
            let digit = s[start].isASCII && s[start].isNumber
            var end = start
            while end < s.endIndex, (s[end].isASCII && s[end].isNumber) == digit { end = s.index(after: end) }
            out.append(digit ? .number(s[start..<end]) : .text(s[start..<end]))
            start = end
        }
        return out
    }
}
