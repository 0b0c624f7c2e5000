// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore

/// What is known about a text or audio track, from which its name is made: the single rule
/// for every place a track is named (the tracks sent with a local file, the HLS playlist's
/// audio renditions, castctl's output, and through `TrackWords` the window's menus).
///
/// The name is the language's name, and the track's own title after it when the title says
/// more than the language (`English – Commentary`); a title that already names the language
/// (`English (stereo)`) stands alone, one that is only the language's name or code (`English`,
/// `eng`) gives way to the language's name as the words say it. Forced and hearing-impaired
/// tracks say so. A file that names no language is "Unknown language (film.srt)"; a stream that
/// says nothing is numbered ("Subtitle 2"), a device's track by its id ("Track 7").
public struct TrackFacts: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case text, audio }

    /// Where the track comes from, which decides the name of last resort.
    public enum Origin: Sendable, Hashable {
        /// A subtitle file (beside the media or given by hand), by its file name.
        case file(name: String)
        /// The `number`-th stream of its kind in a media file (1-based).
        case stream(number: Int)
        /// A track of a device's media status, by its track id.
        case track(id: Int)
    }

    public var kind: Kind
    /// An ISO 639 code or BCP 47 tag as found; `und` or empty means none.
    public var language: String?
    /// The stream's title, a sidecar's other name parts, or a device track's name.
    public var title: String?
    public var isForced: Bool
    public var isHearingImpaired: Bool
    public var origin: Origin

    public init(kind: Kind, language: String?, title: String?, isForced: Bool = false, isHearingImpaired: Bool = false, origin: Origin) {
        self.kind = kind
        self.language = language
        self.title = title
        self.isForced = isForced
        self.isHearingImpaired = isHearingImpaired
        self.origin = origin
    }

    /// The track's name in `words` (English by default).
    public func name(_ words: TrackWords = .english) -> String {
        let code = language.map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty || $0.lowercased() == "und" ? nil : $0 }
        let found = code.flatMap(Languages.find)
        // A code not in the table is shown as it is: still more than nothing.
        let languageName = found.map { words.language($0.language) + ($0.region.map { " (\($0))" } ?? "") } ?? code
        let ownTitle = title.map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        var name: String
        switch (languageName, ownTitle) {
        case (let l?, let t?):
            let lower = t.lowercased()
            let known = found?.language
            if lower == l.lowercased() || lower == code?.lowercased() || known?.isNamed(by: t) == true {
                name = l
            } else if lower.contains(l.lowercased())
                || known.map({ lower.contains($0.englishName.lowercased()) || lower.contains($0.ownName.lowercased()) }) == true
            {
                name = t
            } else {
                name = words.withTitle(l, t)
            }
        case (let l?, nil):
            name = l
        case (nil, let t):
            switch origin {
            // A subtitle file that names no language: its file name tells the files apart.
            case .file(let fileName): return words.unknownLanguage(fileName)
            case .stream(let n): name = t ?? words.numbered(kind, n)
            case .track(let id): name = t ?? words.track(id)
            }
        }
        if isForced, !name.lowercased().contains("forced") { name = words.forced(name) }
        if isHearingImpaired, !name.contains("SDH") { name = words.hearingImpaired(name) }
        return name
    }
}

/// The words a track name is made of. `english` serves castctl and the HLS playlists; the window
/// gives its translated words (AppModel), so one rule names tracks in every language.
public struct TrackWords: Sendable {
    /// A language's name ("German", or in the user's language).
    public var language: @Sendable (Languages.Language) -> String
    /// A subtitle file whose name says no language, by its file name.
    public var unknownLanguage: @Sendable (_ fileName: String) -> String
    /// A stream that says nothing about itself, by its number among its kind.
    public var numbered: @Sendable (TrackFacts.Kind, Int) -> String
    /// A device's track that says nothing about itself, by its id.
    public var track: @Sendable (Int) -> String
    /// The language's name with the track's own title.
    public var withTitle: @Sendable (_ language: String, _ title: String) -> String
    /// Subtitles that show only what is not in the audio's language.
    public var forced: @Sendable (String) -> String
    /// Subtitles for the deaf and hard of hearing.
    public var hearingImpaired: @Sendable (String) -> String

    public init(
        language: @escaping @Sendable (Languages.Language) -> String, unknownLanguage: @escaping @Sendable (String) -> String,
        numbered: @escaping @Sendable (TrackFacts.Kind, Int) -> String, track: @escaping @Sendable (Int) -> String,
        withTitle: @escaping @Sendable (String, String) -> String, forced: @escaping @Sendable (String) -> String,
        hearingImpaired: @escaping @Sendable (String) -> String
    ) {
        self.language = language
        self.unknownLanguage = unknownLanguage
        self.numbered = numbered
        self.track = track
        self.withTitle = withTitle
        self.forced = forced
        self.hearingImpaired = hearingImpaired
    }

    public static let english = TrackWords(
        language: { $0.englishName },
        unknownLanguage: { "Unknown language (\($0))" },
        numbered: { kind, n in kind == .text ? "Subtitle \(n)" : "Audio track \(n)" },
        track: { "Track \($0)" },
        withTitle: { "\($0) – \($1)" },
        forced: { "\($0) (forced)" },
        hearingImpaired: { "\($0) (SDH)" })
}

extension MediaProbe.Stream {
    /// What this stream says about itself as a track: its language, title and forced flag, and
    /// `number`, its place among the streams of its kind.
    public func trackFacts(_ kind: TrackFacts.Kind, number: Int) -> TrackFacts {
        TrackFacts(kind: kind, language: language, title: title, isForced: isForced, origin: .stream(number: number))
    }

    /// The language to send for the stream's track: a BCP 47 tag where the code is known, the
    /// code as it is otherwise; nil for none or `und`.
    public var languageTag: String? {
        language.flatMap { $0.isEmpty || $0.lowercased() == "und" ? nil : (Languages.tag($0) ?? $0) }
    }
}
