// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import CastProtocol
import LocalMedia

/// The chapters of the media as the model last read them: from the media's chapter track (a
/// text track of subtype CHAPTERS, a WebVTT file read with LocalMedia's `WebVTTChapters`).
/// One value, replaced whole when the track changes or its file has been read.
public struct ChapterList: Equatable, Sendable {
    /// The chapter track's URL these chapters are (or are being) read from; nil: no track.
    public var source: String?
    public var chapters: [MediaChapter] = []
    /// Why the track gave no chapters (its file is not WebVTT, the server refused it…).
    public var problem: String?

    public init(source: String? = nil, chapters: [MediaChapter] = [], problem: String? = nil) {
        self.source = source
        self.chapters = chapters
        self.problem = problem
    }
}

// Tracks by kind and chapters (issue 31). Text tracks come in kinds: subtitles, captions (CC)
// and descriptions are offered in the tracks popover; a CHAPTERS track is not something to
// turn on but the media's chapter list; METADATA tracks are for the app on the device and are
// never offered. An audiobook chapter (metadataType AUDIOBOOK_CHAPTER) names its chapter in
// its metadata instead. Next and previous chapter are seeks to a chapter's start.
extension AppModel {
    /// The media's chapter track: the first text track of subtype CHAPTERS with a URL.
    public var chapterTrack: MediaTrack? {
        media?.tracks?.first { $0.type == .text && $0.subtype == .chapters && $0.trackContentId != nil }
    }

    /// The chapters of what plays now (empty while its chapter file is being read, or when
    /// there is none).
    public var chapters: [MediaChapter] {
        guard let url = chapterTrack?.trackContentId, chapterList.source == url else { return [] }
        return chapterList.chapters
    }

    /// Reads the chapter track when the media names a new one (called with every status). A
    /// file that gives no chapters is said once, in a notice with the reason as its detail.
    func followChapters() {
        let url = chapterTrack?.trackContentId
        guard url != chapterList.source else { return }
        chapterFetch?.cancel()
        chapterList = ChapterList(source: url)
        guard let url else {
            chapterFetch = nil
            return
        }
        chapterFetch = Task { [weak self] in
            let result: Result<[MediaChapter], WebVTTChapters.Unusable>
            do throws(WebVTTChapters.Unusable) {
                result = .success(try await WebVTTChapters.fetch(url))
            } catch {
                result = .failure(error)
            }
            guard let self, !Task.isCancelled, self.chapterList.source == url else { return }
            switch result {
            case .success(let chapters):
                self.chapterList = ChapterList(source: url, chapters: chapters)
            case .failure(let why):
                self.chapterList = ChapterList(source: url, problem: why.reason)
                self.post(tr("The chapters of this media cannot be shown."), detail: "\(Self.shortURL(url)): \(why.reason)")
            }
        }
    }

    /// A URL for a notice's detail: a `data:` URL is not printed whole.
    static func shortURL(_ url: String) -> String {
        url.lowercased().hasPrefix("data:") ? String(url.prefix(40)) + "…" : url
    }

    /// The index of the chapter playing at `position` (the last one started by then).
    public func chapterIndex(at position: Double) -> Int? {
        chapters.lastIndex { $0.start <= position + Self.chapterSlack }
    }

    /// A seek lands a little before or after the time asked for: within this, a position
    /// counts as the chapter's start.
    static let chapterSlack = 0.5
    /// Previous goes to the start of the chapter playing when more than this is played of it,
    /// else to the chapter before, as media players do.
    static let restartChapterAfter = 3.0

    /// Where Next Chapter seeks from `position`: the next chapter's start, nil in the last one.
    public func nextChapterStart(from position: Double) -> Double? {
        chapters.first { $0.start > position + Self.chapterSlack }?.start
    }

    /// Where Previous Chapter seeks from `position`: this chapter's start when more than 3 s
    /// of it has played, else the previous chapter's start (the first chapter's, in the first).
    public func previousChapterStart(from position: Double) -> Double? {
        guard let i = chapterIndex(at: position) else { return chapters.first?.start }
        if position - chapters[i].start > Self.restartChapterAfter || i == 0 { return chapters[i].start }
        return chapters[i - 1].start
    }

    /// "Chapter 3 · The Storm": a chapter by its number, with its title when it has one.
    public static func chapterName(number: Int, title: String?) -> String {
        let title = title.map { shortened($0) } ?? ""
        // Isolated: a title in another script does not reorder the words around it.
        return Localization.joinParts([tr("Chapter {0}", number), title.isEmpty ? "" : "\u{2068}\(title)\u{2069}"])
    }

    /// The line under the title: the chapter playing at `now` from the chapter track, else an
    /// audiobook chapter's number and title from its metadata; nil when there is neither.
    public func chapterLine(at now: ContinuousClock.Instant) -> String? {
        if let i = chapterIndex(at: position(at: now)) {
            return Self.chapterName(number: i + 1, title: chapters[i].title)
        }
        guard let m = media?.metadata, m.metadataType == .audiobookChapter else { return nil }
        // The chapter's title shown as the media's title is not said twice.
        let title = m.chapterTitle == m.displayTitle ? nil : m.chapterTitle
        if let n = m.chapterNumber { return Self.chapterName(number: n, title: title) }
        return title.map { shortened($0) }
    }

    var hasChapters: Bool { !chapters.isEmpty }

    /// Seeks to the start of the chapter at `index` of `chapters`.
    func seekToChapter(_ index: Int) async {
        guard chapters.indices.contains(index) else { return }
        await seek(to: chapters[index].start)
    }

    func seekToNextChapter() async {
        guard let start = nextChapterStart(from: position) else { return }
        await seek(to: start)
    }

    func seekToPreviousChapter() async {
        guard let start = previousChapterStart(from: position) else { return }
        await seek(to: start)
    }
}
