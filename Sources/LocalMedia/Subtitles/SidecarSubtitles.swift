// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

/// A subtitle file to send as a text track, with what its name says about it.
public struct SubtitleSource: Sendable, Hashable {
    public var path: String
    public var format: SubtitleFormat
    /// BCP 47 tag (`en`, `fr`, `pt-BR`), when the file name names a language.
    public var language: String?
    /// What else the file name says ("Director" in `film.en.Director.srt`), or an embedded
    /// stream's title.
    public var title: String?
    public var isForced: Bool
    public var isHearingImpaired: Bool
    /// A file (the sidecars and files given by hand), or an embedded stream made into a file.
    public var origin: TrackFacts.Origin

    public init(
        path: String, format: SubtitleFormat, language: String?, title: String? = nil, isForced: Bool = false, isHearingImpaired: Bool = false,
        origin: TrackFacts.Origin? = nil
    ) {
        self.path = path
        self.format = format
        self.language = language
        self.title = title
        self.isForced = isForced
        self.isHearingImpaired = isHearingImpaired
        self.origin = origin ?? .file(name: (path as NSString).lastPathComponent)
    }

    /// Whether it is a subtitle file rather than a stream of the media file.
    public var isFile: Bool {
        if case .file = origin { return true }
        return false
    }

    public var facts: TrackFacts {
        TrackFacts(kind: .text, language: language, title: title, isForced: isForced, isHearingImpaired: isHearingImpaired, origin: origin)
    }

    /// The name in English (castctl): "English", "French (forced)", "Unknown language (film.srt)".
    public var name: String { facts.name() }
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
            if mediaBase != nil, !tokens.contains(where: { Languages.find($0) != nil || Languages.named(inEnglish: $0) != nil }) { return nil }
        } else {
            return nil
        }
        var language: String?
        var forced = false, sdh = false
        var other: [String] = []
        for t in tokens {
            let l = t.lowercased()
            if language == nil, let found = Languages.tag(l) ?? Languages.named(inEnglish: l)?.code {
                language = found
                continue
            }
            switch l {
            case "forced", "foreign": forced = true
            case "sdh", "hi", "cc": sdh = true
            case "default", "full": break
            default: if Int(l) == nil { other.append(t) }
            }
        }
        return SubtitleSource(
            path: path, format: format, language: language, title: other.isEmpty ? nil : other.joined(separator: " "), isForced: forced,
            isHearingImpaired: sdh)
    }
}

extension SidecarSubtitles {
    /// Which of a cast's subtitles to turn on when it starts (an index into `subtitles`), or
    /// nil for none. The rule, after GNOME Videos' for subtitle files beside a film:
    /// 1. a subtitle *file* in a language the user reads (`languages`, most preferred first,
    ///    as the locale lists them): the first of the most preferred language, a plain one
    ///    before a hearing-impaired one before a forced one;
    /// 2. otherwise the only subtitle file, when its name says no language (`film.srt` beside
    ///    `film.mkv` is there to be seen);
    /// 3. otherwise none. Subtitle streams inside the media file are never turned on here:
    ///    the file's author marks those, and the receiver or the user chooses.
    public static func preferred(_ subtitles: [SubtitleSource], languages: [String]) -> Int? {
        let files = subtitles.indices.filter { subtitles[$0].isFile }
        for wanted in languages.compactMap({ Languages.find($0)?.language.code }) {
            let matching = files.filter { subtitles[$0].language.flatMap { Languages.find($0)?.language.code } == wanted }
            let plain = matching.first { !subtitles[$0].isForced && !subtitles[$0].isHearingImpaired }
            let sdh = matching.first { !subtitles[$0].isForced }
            if let pick = plain ?? sdh ?? matching.first { return pick }
        }
        if files.count == 1, let only = files.first, subtitles[only].language == nil { return only }
        return nil
    }
}
