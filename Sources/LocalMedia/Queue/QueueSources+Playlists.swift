// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Reading M3U/M3U8, PLS and XSPF playlists into queue entries; QueueSources' overview is in QueueSources.swift.

import Foundation

extension QueueSources {
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
