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

    // MARK: playlists

    /// Reads a playlist file (by its extension: .m3u/.m3u8, .pls, .xspf).
    public static func readPlaylist(_ path: String) throws(Failure) -> Expansion {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? Int, size > maxPlaylistBytes { throw .tooLarge(path: path, limit: "8 MiB") }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path, reason: "it cannot be opened") }
        guard data.count <= maxPlaylistBytes else { throw .tooLarge(path: path, limit: "8 MiB") }
        let folder = (path as NSString).deletingLastPathComponent
        let result: Expansion
        switch (path as NSString).pathExtension.lowercased() {
        case "pls": result = try parsePLS(Array(data), folder: folder, name: path)
        case "xspf": result = try parseXSPF(data, folder: folder, name: path)
        default: result = try parseM3U(Array(data), folder: folder, name: path)
        }
        guard !result.entries.isEmpty else {
            if result.warnings.isEmpty { throw .empty(path) }
            throw .notAPlaylist(path: path, reason: result.warnings.joined(separator: " "))
        }
        return result
    }

    /// Text of a playlist: UTF-8 (with or without BOM), UTF-16, else Windows-1252. Text
    /// with NUL bytes left after decoding is binary, not a playlist.
    static func text(_ bytes: [UInt8], name: String) throws(Failure) -> String {
        let text = TextDecoding.decode(bytes).text
        guard !text.unicodeScalars.contains(where: { $0.value == 0 }) else { throw .notAPlaylist(path: name, reason: "it is binary data") }
        return text
    }

    /// M3U / M3U8: one location per line; `#EXTINF:seconds,Title` names the next entry;
    /// other `#` lines are comments.
    public static func parseM3U(_ bytes: [UInt8], folder: String, name: String) throws(Failure) -> Expansion {
        var out = Expansion()
        var pendingTitle: String?
        for raw in try text(bytes, name: name).split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.uppercased().hasPrefix("#EXTINF:"), let comma = line.firstIndex(of: ",") {
                    let title = line[line.index(after: comma)...].trimmingCharacters(in: .whitespaces)
                    pendingTitle = title.isEmpty ? nil : title
                }
                continue
            }
            try add(line, title: pendingTitle, folder: folder, to: &out)
            pendingTitle = nil
        }
        return out
    }

    /// PLS: `FileN=`, `TitleN=` under `[playlist]`, in the order of N.
    public static func parsePLS(_ bytes: [UInt8], folder: String, name: String) throws(Failure) -> Expansion {
        let body = try text(bytes, name: name)
        guard body.range(of: "[playlist]", options: .caseInsensitive) != nil else {
            throw .notAPlaylist(path: name, reason: "a PLS file starts with [playlist]")
        }
        var files: [Int: String] = [:], titles: [Int: String] = [:]
        for raw in body.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].lowercased(), value = String(line[line.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
            if key.hasPrefix("file"), let n = Int(key.dropFirst(4)), n >= 0, n <= maxEntries { files[n] = value }
            if key.hasPrefix("title"), let n = Int(key.dropFirst(5)), n >= 0, n <= maxEntries { titles[n] = value }
        }
        var out = Expansion()
        for n in files.keys.sorted() {
            let title = titles[n].flatMap { $0.isEmpty ? nil : $0 }
            try add(files[n]!, title: title, folder: folder, to: &out)
        }
        return out
    }

    /// XSPF: `<track>` elements with `<location>` (a URI, relative ones against the
    /// playlist's folder) and `<title>`. A document with a DOCTYPE is refused outright.
    public static func parseXSPF(_ data: Data, folder: String, name: String) throws(Failure) -> Expansion {
        let head = try text(Array(data), name: name)
        if head.range(of: "<!DOCTYPE", options: .caseInsensitive) != nil || head.range(of: "<!ENTITY", options: .caseInsensitive) != nil {
            throw .notAPlaylist(path: name, reason: "XML with a DOCTYPE or entities is not read")
        }
        var reader = XSPFReader()
        do {
            try XMLEvents.read(head) { reader.take($0) }
        } catch {
            throw .notAPlaylist(path: name, reason: "the XML is not well-formed (\(error))")
        }
        guard reader.sawPlaylist else { throw .notAPlaylist(path: name, reason: "it has no <playlist> element") }
        var out = Expansion()
        for track in reader.tracks {
            guard let location = track.location else {
                out.warnings.append("A track without <location> was left out.")
                continue
            }
            // XSPF locations are URIs: a relative one is percent-encoded.
            let text = URL(string: location)?.scheme == nil ? (location.removingPercentEncoding ?? location) : location
            try add(text, title: track.title, folder: folder, to: &out)
        }
        return out
    }

    /// One playlist line or location → an entry (or a warning about why not).
    static func add(_ location: String, title: String?, folder: String, to out: inout Expansion) throws(Failure) {
        guard out.entries.count < maxEntries else { throw .tooLarge(path: folder, limit: "\(maxEntries) items") }
        let trimmed = location.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        if let scheme = URL(string: trimmed)?.scheme?.lowercased(), scheme.count > 1 {
            switch scheme {
            case "http", "https":
                out.entries.append(QueueEntry(.url(trimmed), title: title))
            case "file":
                guard let url = URL(string: trimmed), url.isFileURL else {
                    out.warnings.append("“\(trimmed)” is not a usable file URL; it was left out.")
                    return
                }
                addFile(url.path, title: title, to: &out)
            default:
                out.warnings.append("“\(trimmed)” uses \(scheme):, which CastDeck does not cast; it was left out.")
            }
            return
        }
        // A path: Windows separators are accepted, relative paths are against the playlist.
        let path = trimmed.replacingOccurrences(of: "\\", with: "/")
        let full = path.hasPrefix("/") ? path : (folder as NSString).appendingPathComponent(path)
        addFile((full as NSString).standardizingPath, title: title, to: &out)
    }

    static func addFile(_ path: String, title: String?, to out: inout Expansion) {
        let name = (path as NSString).lastPathComponent
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            out.warnings.append("\(path) does not exist; it was left out.")
            return
        }
        guard !isDir.boolValue else {
            out.warnings.append("\(path) is a folder inside a playlist; it was left out.")
            return
        }
        guard !isPlaylist(name) else {
            out.warnings.append("\(name) is a playlist inside a playlist; it was left out.")
            return
        }
        out.entries.append(QueueEntry(.file(path), title: title))
    }
}

/// Collects `<track>` locations and titles; everything else in the document is ignored.
private struct XSPFReader {
    struct Track {
        var location: String?
        var title: String?
    }
    var tracks: [Track] = []
    var sawPlaylist = false
    private var current: Track?
    private var text = ""

    /// The element's name without its namespace prefix.
    private static func local(_ name: String) -> Substring {
        name.split(separator: ":").last ?? Substring(name)
    }

    mutating func take(_ event: XMLEvents.Event) {
        switch event {
        case let .start(name, _):
            switch Self.local(name) {
            case "playlist": sawPlaylist = true
            case "track" where tracks.count <= QueueSources.maxEntries: current = Track()
            default: break
            }
            text = ""
        case let .text(more):
            if text.utf8.count < 65_536 { text += more }
        case let .end(name):
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch Self.local(name) {
            case "location" where current != nil && current?.location == nil: current?.location = value
            case "title" where current != nil: current?.title = value.isEmpty ? nil : value
            case "track":
                if let t = current { tracks.append(t) }
                current = nil
            default: break
            }
            text = ""
        }
    }
}

/// Queue entries turned into queue items: files shared by the media server (their tags give
/// the metadata; a playlist title wins), URLs described from their name. What cannot be cast
/// is left out with a sentence in `failures`; `casts` are the shares to end with the queue.
public struct QueueBatch: Sendable {
    public var items: [QueueItem] = []
    public var casts: [LocalCast] = []
    public var warnings: [String] = []
    public var failures: [String] = []
}

extension MediaShare {
    public func queueItems(for entries: [QueueEntry], device: String, localAddress: String) async -> QueueBatch {
        var out = QueueBatch()
        for entry in entries {
            switch entry.location {
            case .url(let url):
                let type = QueueSources.contentType(ofURL: url)
                let last = URL(string: url)?.lastPathComponent ?? ""
                let name = last.isEmpty || last == "/" ? url : (last.removingPercentEncoding ?? last)
                let kind: MetadataType = type.hasPrefix("audio/") ? .musicTrack : .generic
                let media = MediaInformation(
                    contentId: url, contentUrl: url, streamType: .buffered, contentType: type,
                    metadata: MediaMetadata(metadataType: kind, title: entry.title ?? name))
                out.items.append(QueueItem(media: media, autoplay: true))
            case .file(let path):
                do {
                    let cast = try await prepare(file: path, device: device, localAddress: localAddress)
                    var media = cast.media
                    if let title = entry.title { media.metadata?.title = title }
                    out.warnings += cast.warnings
                    out.casts.append(cast)
                    out.items.append(QueueItem(media: media, autoplay: true))
                } catch {
                    out.failures.append(error.description)
                }
            }
        }
        return out
    }
}
