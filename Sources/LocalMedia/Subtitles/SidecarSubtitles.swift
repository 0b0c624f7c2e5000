// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

/// A subtitle file to send as a text track, with what its name says about it.
public struct SubtitleSource: Sendable, Hashable {
    public var path: String
    public var format: SubtitleFormat
    /// BCP 47 tag (`en`, `fr`, `pt-BR`), when the file name names a language.
    public var language: String?
    /// What the track menu shows: "English", "Français (forced)", "Deutsch (SDH)".
    public var name: String
    public var isForced: Bool
    public var isHearingImpaired: Bool

    public init(path: String, format: SubtitleFormat, language: String?, name: String, isForced: Bool = false, isHearingImpaired: Bool = false) {
        self.path = path
        self.format = format
        self.language = language
        self.name = name
        self.isForced = isForced
        self.isHearingImpaired = isHearingImpaired
    }
}

/// Finds the subtitle files that belong to a media file, the way people name them:
/// `movie.srt`, `movie.en.srt`, `movie.eng.srt`, `movie.fr.forced.srt`, `movie.de.sdh.ass`,
/// `.vtt`/`.ass`/`.ssa` likewise, beside the file or in a `Subs/` or `Subtitles/` folder
/// (any case) next to it, where `en.srt` or a `Subs/movie/` folder also count.
public enum SidecarSubtitles {
    static let folderNames: Set<String> = ["subs", "subtitles", "sub", "subtitle"]

    public static func find(beside mediaPath: String) -> [SubtitleSource] {
        let url = URL(fileURLWithPath: mediaPath)
        let dir = url.deletingLastPathComponent().path
        let base = url.deletingPathExtension().lastPathComponent
        let fm = FileManager.default
        var found: [SubtitleSource] = []
        func scan(_ folder: String, anyLanguageFile: Bool) {
            guard let names = try? fm.contentsOfDirectory(atPath: folder) else { return }
            for name in names.sorted() {
                let path = (folder as NSString).appendingPathComponent(name)
                if let s = describe(fileName: name, path: path, mediaBase: base, anyLanguageFile: anyLanguageFile) { found.append(s) }
            }
        }
        scan(dir, anyLanguageFile: false)
        if let entries = try? fm.contentsOfDirectory(atPath: dir) {
            for entry in entries.sorted() where folderNames.contains(entry.lowercased()) {
                let sub = (dir as NSString).appendingPathComponent(entry)
                scan(sub, anyLanguageFile: true)
                let perMedia = (sub as NSString).appendingPathComponent(base)
                var isDir: ObjCBool = false
                if fm.fileExists(atPath: perMedia, isDirectory: &isDir), isDir.boolValue { scan(perMedia, anyLanguageFile: true) }
            }
        }
        var seen = Set<String>()
        return found.filter { seen.insert($0.path).inserted }
    }

    /// Describes `fileName` when it is a subtitle file of the media named `mediaBase`
    /// (or, with `anyLanguageFile`, any subtitle file named after a language).
    public static func describe(fileName: String, path: String, mediaBase: String?, anyLanguageFile: Bool = false) -> SubtitleSource? {
        let ns = fileName as NSString
        guard let format = SubtitleFormat(extension: ns.pathExtension) else { return nil }
        let stem = ns.deletingPathExtension
        var tokens: [String]
        if let mediaBase, stem == mediaBase {
            tokens = []
        } else if let mediaBase, stem.hasPrefix(mediaBase + ".") {
            tokens = stem.dropFirst(mediaBase.count + 1).split(separator: ".").map(String.init)
        } else if mediaBase == nil || anyLanguageFile {
            // `en.srt`, `2_English.srt`, `movie-name.fr.srt` in a Subs folder.
            tokens = stem.split(whereSeparator: { $0 == "." || $0 == "_" }).map(String.init)
            if mediaBase != nil, !tokens.contains(where: { Languages.lookup($0) != nil || englishName($0) != nil }) { return nil }
        } else {
            return nil
        }
        var language: (tag: String, name: String)?
        var forced = false, sdh = false
        var other: [String] = []
        for t in tokens {
            let l = t.lowercased()
            if language == nil, let found = Languages.lookup(l) ?? englishName(l) { language = found; continue }
            switch l {
            case "forced", "foreign": forced = true
            case "sdh", "hi", "cc": sdh = true
            case "default", "full": break
            default: if Int(l) == nil { other.append(t) }
            }
        }
        var name = language?.name ?? (other.isEmpty ? "Subtitles" : other.joined(separator: " "))
        if language != nil, !other.isEmpty { name += " – " + other.joined(separator: " ") }
        if forced { name += " (forced)" }
        if sdh { name += " (SDH)" }
        return SubtitleSource(path: path, format: format, language: language?.tag, name: name, isForced: forced, isHearingImpaired: sdh)
    }

    /// Language names in English as release groups write them (`English.srt`, `2_French.srt`).
    static func englishName(_ word: String) -> (tag: String, name: String)? {
        let names = [
            "english": "en", "french": "fr", "german": "de", "spanish": "es", "italian": "it", "portuguese": "pt", "dutch": "nl",
            "swedish": "sv", "danish": "da", "norwegian": "no", "finnish": "fi", "polish": "pl", "russian": "ru", "czech": "cs",
            "greek": "el", "turkish": "tr", "hungarian": "hu", "romanian": "ro", "japanese": "ja", "korean": "ko", "chinese": "zh",
            "arabic": "ar", "hebrew": "he", "ukrainian": "uk", "vietnamese": "vi", "thai": "th", "indonesian": "id",
        ]
        return names[word.lowercased()].flatMap { Languages.lookup($0) }
    }
}
