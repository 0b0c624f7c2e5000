// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import Foundation
import Logging

/// Where a file, a link or a queue stopped, so that casting it again can go on from there
/// (issue 36). The window and castctl share one file, `$XDG_STATE_HOME/castdeck/playback-positions.json`
/// (`~/.local/state/castdeck/…`): state of this computer's user, written with mode 0600 and
/// never synced anywhere. Its keys are digests (`PlaybackKey`), so it names nothing watched.
///
///     let memory = PlaybackMemory.standard()!
///     let key = try PlaybackKey.file("/films/Heat.mkv")
///     if let point = memory.position(for: key) { load(startTime: point.position) }
///     try memory.remember(key, at: 2530, duration: 10_200)   // 42:10 of 2:50:00
///     try memory.forget(key)
///
/// The rules, in one place for both front ends:
/// - a position under 10 s is not worth going back to: remembering it forgets the old one
///   (casting again and stopping at once means starting over);
/// - a position in the last 5 % of the duration (and at least its last 10 s) is the end: the
///   film was watched, its credits perhaps skipped, so casting it again starts over. 5 %
///   rather than a fixed two minutes: a two-hour film's credits run about six minutes, and a
///   fixed two minutes would keep nothing of a clip shorter than that;
/// - in a queue, the end of an item is the start of the next (the end of the last forgets);
/// - an entry not updated for 90 days is dropped; at most 1,000 entries are kept, the
///   most recently updated.
///
/// A missing, unreadable or corrupt file reads as empty (with a debug log line); a corrupt one
/// is kept beside the new one as `playback-positions.json.corrupt` when it is first written
/// over. Writes are atomic (a new file renamed over the old) and serialised between processes
/// with a lock file, so the window and castctl never lose each other's entries.
public struct PlaybackMemory: Sendable {
    /// The state file.
    public let path: String
    /// The wall clock that dates entries (tests move it).
    let now: @Sendable () -> Date
    /// How many entries are kept (the most recently updated).
    public let capacity: Int

    public static let keptFor: TimeInterval = 90 * 24 * 3600
    public static let shortest: Double = 10
    public static let endShare = 0.05

    static let logger = Logger(label: "castdeck.resume")

    public init(path: String, capacity: Int = 1000, now: @escaping @Sendable () -> Date = { Date() }) {
        self.path = path
        self.capacity = max(1, capacity)
        self.now = now
    }

    /// The shared file for this user, or nil when neither XDG_STATE_HOME nor HOME says where.
    public static func standard(environment: [String: String]? = nil) -> PlaybackMemory? {
        XDGDirectory.state.path(environment: environment).map { PlaybackMemory(path: $0 + "/playback-positions.json") }
    }

    /// Whether `position` is so near the end of `duration` that the media counts as watched.
    public static func isAtEnd(_ position: Double, duration: Double?) -> Bool {
        guard let duration, duration.isFinite, duration > 0 else { return false }
        return position >= duration - max(duration * endShare, shortest)
    }

    /// Where `key` stopped, nil when nothing (or nothing younger than 90 days) is remembered.
    public func position(for key: PlaybackKey) -> ResumePoint? {
        load().entries[key.storageKey].flatMap { isFresh($0) ? $0 : nil }
    }

    /// Remembers that `key` stopped at `position` (seconds; in a queue, of item `item`, 0-based,
    /// of `itemCount`), by the rules above: a position too near the start or the end forgets.
    /// Returns what is remembered now (nil: nothing). A position that is no number changes
    /// nothing.
    @discardableResult
    public func remember(
        _ key: PlaybackKey, at position: Double, duration: Double? = nil,
        item: Int? = nil, of itemCount: Int? = nil
    ) throws(PlaybackMemoryError) -> ResumePoint? {
        guard position.isFinite, position >= 0, item.map({ $0 >= 0 }) ?? true else { return self.position(for: key) }
        let d = duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        // To the second, as the file keeps it.
        let now = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded())
        var point: ResumePoint?
        if let item {
            if Self.isAtEnd(position, duration: d) {
                if let count = itemCount, item + 1 < count { point = ResumePoint(position: 0, item: item + 1, savedAt: now) }
            } else if position >= Self.shortest || item > 0 {
                point = ResumePoint(position: position >= Self.shortest ? position : 0, duration: d, item: item, savedAt: now)
            }
        } else if position >= Self.shortest && !Self.isAtEnd(position, duration: d) {
            point = ResumePoint(position: min(position, d ?? position), duration: d, savedAt: now)
        }
        try update { entries in entries[key.storageKey] = point }
        return point
    }

    /// Forgets where `key` stopped.
    public func forget(_ key: PlaybackKey) throws(PlaybackMemoryError) {
        try update { $0[key.storageKey] = nil }
    }

    /// Forgets every position (remembering was turned off).
    public func forgetAll() throws(PlaybackMemoryError) {
        try update { $0 = [:] }
    }

    /// Every remembered position younger than 90 days, by key (tests, and the file's readers).
    public func all() -> [PlaybackKey: ResumePoint] {
        var out: [PlaybackKey: ResumePoint] = [:]
        for (k, v) in load().entries where isFresh(v) {
            if let key = PlaybackKey(storageKey: k) { out[key] = v }
        }
        return out
    }

    func isFresh(_ point: ResumePoint) -> Bool {
        now().timeIntervalSince(point.savedAt) <= Self.keptFor
    }

    /// Reads, changes and writes the file under the lock; expired and surplus entries go.
    private func update(_ change: (inout [String: ResumePoint]) -> Void) throws(PlaybackMemoryError) {
        try withLock { () throws(PlaybackMemoryError) in
            let file = load()
            var entries = file.entries.filter { isFresh($0.value) }
            let before = entries
            change(&entries)
            if entries.count > capacity {
                let kept = entries.sorted { $0.value.savedAt > $1.value.savedAt }.prefix(capacity)
                entries = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
            if entries == before && entries.count == file.entries.count && !file.isCorrupt { return }
            try write(entries, keepingCorrupt: file.isCorrupt)
        }
    }
}

/// Where something stopped.
public struct ResumePoint: Equatable, Sendable {
    /// Seconds into the media (in a queue: into item `item`).
    public var position: Double
    /// The media's duration when it was remembered, if known.
    public var duration: Double?
    /// In a queue: the item, 0-based.
    public var item: Int?
    /// When it was remembered.
    public var savedAt: Date

    public init(position: Double, duration: Double? = nil, item: Int? = nil, savedAt: Date = Date()) {
        self.position = position
        self.duration = duration
        self.item = item
        self.savedAt = savedAt
    }
}

/// The state file could not be written; what it held is unchanged.
public struct PlaybackMemoryError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "Where playback stopped cannot be saved in \(path): \(reason)." }
}
