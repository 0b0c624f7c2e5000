// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

/// Whether a file is a film, a song or a picture: decides `metadataType` and what the
/// device shows.
public enum MediaKind: String, Sendable, Hashable {
    case video, audio, image, subtitles, other
}

/// A container recognised from the first bytes of a file ("magic numbers"), with the
/// MIME type sent as `Content-Type` and `contentType`, and whether the Default Media
/// Receiver plays it as it is (Google's supported-media page).
public struct MediaFormat: Sendable, Hashable {
    /// A short human name: "MP4", "Matroska", "JPEG".
    public var name: String
    public var mimeType: String
    public var kind: MediaKind
    /// The container is one the device reads (codecs inside are checked by the probe).
    public var castable: Bool

    public init(name: String, mimeType: String, kind: MediaKind, castable: Bool) {
        self.name = name
        self.mimeType = mimeType
        self.kind = kind
        self.castable = castable
    }

    static let mp4 = MediaFormat(name: "MP4", mimeType: "video/mp4", kind: .video, castable: true)
    static let m4a = MediaFormat(name: "MPEG-4 audio", mimeType: "audio/mp4", kind: .audio, castable: true)
    static let quicktime = MediaFormat(name: "QuickTime", mimeType: "video/quicktime", kind: .video, castable: true)
    static let webm = MediaFormat(name: "WebM", mimeType: "video/webm", kind: .video, castable: true)
    static let matroska = MediaFormat(name: "a Matroska file", mimeType: "video/x-matroska", kind: .video, castable: false)
    static let mp3 = MediaFormat(name: "MP3", mimeType: "audio/mpeg", kind: .audio, castable: true)
    static let aac = MediaFormat(name: "AAC", mimeType: "audio/aac", kind: .audio, castable: true)
    static let flac = MediaFormat(name: "FLAC", mimeType: "audio/flac", kind: .audio, castable: true)
    static let ogg = MediaFormat(name: "Ogg", mimeType: "audio/ogg", kind: .audio, castable: true)
    static let oggVideo = MediaFormat(name: "an Ogg video (Theora)", mimeType: "video/ogg", kind: .video, castable: false)
    static let wav = MediaFormat(name: "WAV", mimeType: "audio/wav", kind: .audio, castable: true)
    static let avi = MediaFormat(name: "an AVI file", mimeType: "video/x-msvideo", kind: .video, castable: false)
    static let mpegTS = MediaFormat(name: "an MPEG transport stream", mimeType: "video/mp2t", kind: .video, castable: false)
    static let mpegPS = MediaFormat(name: "an MPEG program stream", mimeType: "video/mpeg", kind: .video, castable: false)
    static let asf = MediaFormat(name: "a Windows Media file", mimeType: "video/x-ms-asf", kind: .video, castable: false)
    static let jpeg = MediaFormat(name: "JPEG", mimeType: "image/jpeg", kind: .image, castable: true)
    static let png = MediaFormat(name: "PNG", mimeType: "image/png", kind: .image, castable: true)
    static let gif = MediaFormat(name: "GIF", mimeType: "image/gif", kind: .image, castable: true)
    static let webp = MediaFormat(name: "WebP", mimeType: "image/webp", kind: .image, castable: true)
    static let bmp = MediaFormat(name: "BMP", mimeType: "image/bmp", kind: .image, castable: true)
    static let webvtt = MediaFormat(name: "WebVTT", mimeType: "text/vtt", kind: .subtitles, castable: true)
    static let unknown = MediaFormat(name: "not a media file CastDeck recognises", mimeType: "application/octet-stream", kind: .other, castable: false)

    /// Recognises the container from the first bytes (64 are enough for every magic
    /// number used here); falls back to the file name's extension for formats with a weak
    /// signature (raw AAC without ADTS, MP3 without ID3 and sync) and to `unknown`.
    public static func sniff(_ head: [UInt8], fileName: String = "") -> MediaFormat {
        func at(_ offset: Int, _ ascii: String) -> Bool {
            let b = Array(ascii.utf8)
            guard head.count >= offset + b.count else { return false }
            return Array(head[offset..<offset + b.count]) == b
        }
        func contains(_ ascii: String) -> Bool {
            let b = Array(ascii.utf8)
            guard head.count >= b.count else { return false }
            return (0...(head.count - b.count)).contains { Array(head[$0..<$0 + b.count]) == b }
        }
        if at(4, "ftyp") {
            let brand = head.count >= 12 ? String(decoding: head[8..<12], as: UTF8.self) : ""
            switch brand {
            case "M4A ", "M4B ", "M4P ", "F4A ": return .m4a
            case "qt  ": return .quicktime
            default: return .mp4
            }
        }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return contains("webm") ? .webm : .matroska }
        if at(0, "fLaC") { return .flac }
        if at(0, "OggS") { return contains("theora") ? .oggVideo : .ogg }
        if at(0, "RIFF"), at(8, "WAVE") { return .wav }
        if at(0, "RIFF"), at(8, "WEBP") { return .webp }
        if at(0, "RIFF"), at(8, "AVI ") { return .avi }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if at(0, "GIF87a") || at(0, "GIF89a") { return .gif }
        if at(0, "BM"), head.count >= 26 { return .bmp }
        if at(0, "WEBVTT") || (head.starts(with: [0xEF, 0xBB, 0xBF]) && at(3, "WEBVTT")) { return .webvtt }
        if head.starts(with: [0x30, 0x26, 0xB2, 0x75]) { return .asf }
        if head.starts(with: [0x00, 0x00, 0x01, 0xBA]) { return .mpegPS }
        if head.first == 0x47, head.count > 188, head[188] == 0x47 { return .mpegTS }
        if at(0, "ID3") { return .mp3 }
        if head.count >= 2, head[0] == 0xFF, head[1] & 0xF0 == 0xF0 {
            // ADTS (AAC) sets layer bits 00; MPEG audio layer III sets 01.
            return head[1] & 0x06 == 0 ? .aac : .mp3
        }
        if head.count >= 2, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 { return .mp3 }
        switch (fileName as NSString).pathExtension.lowercased() {
        case "mp3": return .mp3
        case "aac": return .aac
        default: return .unknown
        }
    }

    /// Reads the first 512 bytes of `path` and sniffs them.
    public static func sniff(path: String) throws(LocalMediaError) -> MediaFormat {
        guard let h = FileHandle(forReadingAtPath: path) else {
            throw .unreadable(path: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        defer { try? h.close() }
        let data = (try? h.read(upToCount: 512)) ?? Data()
        return sniff(Array(data), fileName: path)
    }
}

extension MediaFormat {
    /// The content type to LOAD a link with, from its path's extension (servers' own types
    /// are often wrong or missing); MP4 when the extension says nothing.
    public static func contentType(forLink link: String) -> String {
        let ext = (URL(string: link)?.pathExtension ?? "").lowercased()
        switch ext {
        case "mp4", "m4v": return "video/mp4"
        case "webm": return "video/webm"
        case "mkv": return "video/x-matroska"
        case "m3u8": return "application/x-mpegURL"
        case "mpd": return "application/dash+xml"
        case "mp3": return "audio/mpeg"
        case "m4a", "aac": return "audio/mp4"
        case "ogg", "oga", "opus": return "audio/ogg"
        case "flac": return "audio/flac"
        case "wav": return "audio/wav"
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "webp": return "image/webp"
        case "gif": return "image/gif"
        default: return "video/mp4"
        }
    }
}
