// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// One chapter of the media: where it starts and ends, in seconds of content time, and its
/// title (empty when the chapter file names none). LocalMedia reads and writes chapter files
/// (`WebVTTChapters`); the window and castctl show them.
public struct MediaChapter: Sendable, Hashable {
    public var start: Double
    public var end: Double
    public var title: String

    public init(start: Double, end: Double, title: String) {
        self.start = start
        self.end = end
        self.title = title
    }
}
