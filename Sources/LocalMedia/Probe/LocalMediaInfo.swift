// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation

/// Everything known about one local file before it is cast: its container, the probe
/// (when ffprobe is there), and the metadata to send.
public struct LocalMediaInfo: Sendable {
    public var path: String
    public var format: MediaFormat
    public var probe: MediaProbe?
    public var kind: MediaKind
    public var metadata: MediaMetadata
    public var duration: Double?
    /// A picture beside the file (`cover.jpg`, `<name>.jpg` ...), when there is one.
    public var artworkPath: String?
    /// Problems that did not stop the cast (no ffprobe, say).
    public var warnings: [String]

    /// Codecs the Default Media Receiver decodes on every Cast device generation, per
    /// container family (Google's supported-media page). Anything else needs conversion.
    static let videoCodecs: [String: Set<String>] = [
        "MP4": ["h264"], "QuickTime": ["h264"], "WebM": ["vp8", "vp9"],
    ]
    static let audioCodecs: Set<String> = ["aac", "mp3", "vorbis", "opus", "flac", "pcm_s16le", "pcm_s24le", "pcm_u8"]

    /// Reads, sniffs and probes `path`. Throws when the file cannot be read or the device
    /// cannot play it as it is.
    /// - Parameter strict: refuse what the device cannot play as it is (no conversion);
    ///   when false, any container ffprobe reads is accepted and the planner decides.
    public static func inspect(path: String, ffprobe: String = "ffprobe", strict: Bool = true) async throws(LocalMediaError) -> LocalMediaInfo {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw .unreadable(path: path, reason: "no such file") }
        guard !isDir.boolValue else { throw .notAFile(path: path) }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .unreadable(path: path, reason: "permission denied") }
        let fileName = (path as NSString).lastPathComponent
        var format = try MediaFormat.sniff(path: path)
        if strict || format.kind == .image || format.kind == .subtitles {
            guard format.castable else { throw .notPlayable(file: fileName, what: format.name) }
        }
        var warnings: [String] = []
        var probe: MediaProbe?
        do {
            probe = try await MediaProbe.run(path: path, ffprobe: ffprobe)
        } catch {
            if format.kind != .image { warnings.append("\(error.description) Title and duration come from the file name only.") }
        }
        var kind = format.kind
        if !strict, !format.castable, probe == nil {
            // Only ffprobe could have said what is inside: missing, it must be installed; else it is not media.
            if ToolRunner.findInPath(ffprobe) == nil, !ffprobe.contains("/") { throw .converterMissing(file: fileName) }
            throw .notPlayable(file: fileName, what: format.kind == .other ? format.name : "\(format.name) that ffprobe cannot read")
        }
        if let probe, kind == .other {
            // A container not recognised by its first bytes that ffprobe reads all the same.
            if !probe.videoStreams.isEmpty {
                kind = .video
            } else if !probe.audioStreams.isEmpty {
                kind = .audio
            } else {
                throw .notPlayable(file: fileName, what: format.name)
            }
        }
        if let probe, kind == .video, !format.castable, probe.videoStreams.isEmpty, !probe.audioStreams.isEmpty { kind = .audio }
        if let probe, kind == .video, probe.videoStreams.isEmpty, !probe.audioStreams.isEmpty {
            // An MP4 or WebM with sound only is music.
            kind = .audio
            format.mimeType = format.mimeType.replacingOccurrences(of: "video/", with: "audio/")
        }
        if strict, let probe, kind != .image { try checkCodecs(probe, format: format, kind: kind, fileName: fileName) }
        let metadata = makeMetadata(path: path, kind: kind, probe: probe)
        let duration = kind == .image ? nil : probe?.format.duration
        let artwork = kind == .image ? nil : findArtwork(beside: path)
        return LocalMediaInfo(
            path: path, format: format, probe: probe, kind: kind, metadata: metadata, duration: duration, artworkPath: artwork, warnings: warnings)
    }

    static func checkCodecs(_ probe: MediaProbe, format: MediaFormat, kind: MediaKind, fileName: String) throws(LocalMediaError) {
        if kind == .video, let allowed = videoCodecs[format.name] {
            for v in probe.videoStreams {
                let codec = v.codecName ?? "unknown"
                guard allowed.contains(codec) else {
                    throw .notPlayable(file: fileName, what: "\(article(format.name)) \(format.name) file with \(codecName(codec)) video")
                }
                if codec == "h264", let bits = v.bitsPerRawSample, bits > 8 {
                    throw .notPlayable(file: fileName, what: "\(article(format.name)) \(format.name) file with \(bits)-bit H.264 video")
                }
            }
        }
        if let a = probe.audioStreams.first, let codec = a.codecName, !audioCodecs.contains(codec) {
            if kind == .video || kind == .audio {
                throw .notPlayable(file: fileName, what: "\(article(format.name)) \(format.name) file with \(codecName(codec)) audio")
            }
        }
    }

    /// "an MP4", "a WebM", "a QuickTime": by the sound of the name's first letter.
    private static func article(_ name: String) -> String { name.first.map { "AEIOUFHLMNRSX".contains($0) } == true ? "an" : "a" }

    private static func codecName(_ codec: String) -> String {
        [
            "hevc": "HEVC (H.265)", "h264": "H.264", "mpeg4": "MPEG-4 Part 2", "av1": "AV1", "ac3": "AC-3", "eac3": "E-AC-3", "dts": "DTS",
            "truehd": "Dolby TrueHD",
        ][codec]
            ?? codec
    }

    /// Title, artist, album, track number and year from the tags, else a title made from the file name.
    static func makeMetadata(path: String, kind: MediaKind, probe: MediaProbe?) -> MediaMetadata {
        let type: MetadataType =
            switch kind {
            case .video: .movie
            case .audio: .musicTrack
            case .image: .photo
            default: .generic
            }
        let fileTitle = { cleanTitle(fileName: (path as NSString).lastPathComponent, isAudio: kind == .audio) }
        var m = MediaMetadata(metadataType: type, title: probe?.tag("title") ?? fileTitle())
        let year = (probe?.tag("date") ?? probe?.tag("year")).flatMap { d in Int(d.prefix(4)) }
        switch kind {
        case .audio:
            m.artist = probe?.tag("artist") ?? probe?.tag("album_artist")
            m.albumName = probe?.tag("album")
            m.albumArtist = probe?.tag("album_artist")
            m.trackNumber = probe?.tag("track").flatMap { Int($0.split(separator: "/").first ?? "") }
            m.discNumber = probe?.tag("disc").flatMap { Int($0.split(separator: "/").first ?? "") }
            m.releaseDate = year.map { String($0) }
        case .video:
            m.releaseDate = year.map { String($0) }
            m.subtitle = probe?.tag("artist")
        case .image:
            m.width = probe?.videoStreams.first?.width
            m.height = probe?.videoStreams.first?.height
        default: break
        }
        return m
    }

    /// `The.Big.Film.2019.1080p.BluRay.x264-GRP.mp4` → `The Big Film 2019`; `01 - Song.mp3` →
    /// `Song` (see `withoutTrackNumber`). Only for titles made from a file name: a title from the
    /// file's tags is used as it is.
    public static func cleanTitle(fileName: String, isAudio: Bool = false) -> String {
        var stem = withoutTrackNumber((fileName as NSString).deletingPathExtension, isAudio: isAudio)
        // Remove [bracketed] tags.
        while let open = stem.firstIndex(of: "["), let close = stem[open...].firstIndex(of: "]") { stem.removeSubrange(open...close) }
        let spaced = String(stem.map { (c: Character) -> Character in c == "." || c == "_" ? " " : c })
        let words = spaced.split(separator: " ").map(String.init)
        let junk: Set<String> = [
            "480p", "576p", "720p", "1080p", "1080i", "2160p", "4k", "uhd", "x264", "x265", "h264", "h265", "hevc", "bluray", "blu-ray", "brrip",
            "bdrip", "webrip", "web-dl", "web", "hdtv", "dvdrip", "xvid", "aac", "ac3", "dts", "hdr", "10bit", "remux", "proper", "repack",
        ]
        var kept: [String] = []
        for w in words {
            if junk.contains(w.lowercased()) || junk.contains(w.lowercased().split(separator: "-").first.map(String.init) ?? "") { break }
            kept.append(w)
        }
        let title = kept.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return title.isEmpty ? (fileName as NSString).deletingPathExtension : title
    }

    /// The name without the track number a ripper or a numbered folder puts first: `01 film`,
    /// `01 - Song`, `01. Song`, `1-01 Song` (disc 1, track 1) → `film`, `Song`. A number followed
    /// by punctuation (` - `, `. `) always goes; one followed by only a space, `_` or `-` goes when
    /// it is zero-padded (`01 `), or in any form for audio, so films named `28 Days Later`,
    /// `12 Angry Men` or `2-Headed Shark` keep their number. A name that is nothing but a number
    /// is kept.
    static func withoutTrackNumber(_ stem: String, isAudio: Bool) -> String {
        let chars = Array(stem)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
            return i - start
        }
        let first = digits()
        guard (1...3).contains(first) else { return stem }
        var strong = false
        // Disc and track: `1-01`.
        if i + 1 < chars.count, chars[i] == "-", chars[i + 1].isASCII, chars[i + 1].isNumber, first <= 2 {
            let save = i
            i += 1
            if (2...3).contains(digits()) { strong = true } else { i = save }
        }
        let afterNumber = i
        while i < chars.count, chars[i] == " " || chars[i] == "_" { i += 1 }
        if i < chars.count, "-–—.)".contains(chars[i]) {
            // `12-Title` is as likely a film's name (`2-Headed Shark`) as a track: a dash counts
            // as punctuation only after a space.
            strong = strong || chars[i] == "." || chars[i] == ")" || i > afterNumber
            i += 1
            while i < chars.count, chars[i] == " " || chars[i] == "_" { i += 1 }
        } else if i == afterNumber {
            return stem  // `300`, `9to5`: the number runs into the name
        }
        guard i < chars.count else { return stem }
        guard strong || chars[0] == "0" || isAudio else { return stem }
        return String(chars[i...])
    }

    /// `<name>.jpg`, `poster.jpg`, `cover.jpg`, `folder.jpg` (also `.jpeg`/`.png`, any case) beside the file.
    public static func findArtwork(beside path: String) -> String? {
        let dir = (path as NSString).deletingLastPathComponent
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.isEmpty ? "." : dir) else { return nil }
        var byName: [String: String] = [:]
        for n in names { byName[n.lowercased()] = n }
        for stem in [base, "poster", "cover", "folder", "front", "albumart"] {
            for ext in ["jpg", "jpeg", "png", "webp"] {
                if let real = byName["\(stem).\(ext)"] {
                    let p = (dir as NSString).appendingPathComponent(real)
                    if p != path { return p }
                }
            }
        }
        return nil
    }
}
