// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import Foundation
import LocalMedia

// Where playback stopped (issue 36), in the window. LocalMedia's PlaybackMemory holds it (one
// file, shared with castctl), ResumeTracker says when to write (the same rule as castctl's):
//
//   castFiles / castLink / castQueue(.playNow)
//        │ resumeStart(for: key): remembered? ──▶ resumePrompt (the window's dialog):
//        │                                        Resume at 42:10 / Start Over / Escape: cancel
//        ▼ load(…, startTime:) ──▶ followResume(key): this media session is ours to follow
//   statusChanged ──▶ resumeStatus(): every 15 s while it plays (resumeTick), at once on pause,
//   on stop / another LOAD (where it was), forgotten when it finishes
//   disconnect, the session lost, quit ──▶ saveResumePosition(): where it stands, once
//
// Only what the window itself cast is followed: a link or file another sender plays is theirs
// to remember (castctl stop and pause remember links), and the demo's sample always starts
// at the start. Play Again starts at the start, as it says. Writes go to a serial queue off the
// main thread (an fsync must not stall the window); quitting waits for them.
extension AppModel {
    /// The question before casting what stopped part-way.
    public struct ResumeQuestion: Equatable, Sendable {
        /// What is cast: a file's name, a link's title, a folder or playlist's name.
        public var title: String
        /// Where it stopped: seconds into the media (in a queue, into item `item`).
        public var position: Double
        /// In a queue, the item (0-based).
        public var item: Int?
    }

    public enum ResumeAnswer: Sendable {
        case resume, startOver, cancel
    }

    /// How a cast starts.
    enum ResumeStart {
        case fromStart
        case at(ResumePoint)
        case cancelled
    }

    /// Remembers positions in the file shared with castctl,
    /// `$XDG_STATE_HOME/castdeck/playback-positions.json` (the app; tests use their own).
    public func useStandardPlaybackMemory() {
        playbackMemory = PlaybackMemory.standard()
    }

    /// Turns remembering on or off (the Preferences switch, through the command table).
    /// Off forgets every place remembered: off means CastDeck keeps no such list.
    public func setRemembersPositions(_ on: Bool) {
        guard on != remembersPositions else { return }
        // The model first: writing the preference tells GSettings' "changed" handler at once,
        // which comes back here (`playbackPreferencesChanged`) and must find nothing to do.
        remembersPositions = on
        if playbackPreferences.remembersPositions != on { playbackPreferences.remembersPositions = on }
        if !on {
            resumeFollow = nil
            updateResumeTick(false)
            resumeWriter?.forgetAll()
        }
    }

    /// The preference changed outside the window (`gsettings set`).
    public func playbackPreferencesChanged() {
        setRemembersPositions(playbackPreferences.remembersPositions)
    }

    /// Where a cast of `key` should start: asks through `resumePrompt` when a place is
    /// remembered (without a prompt, as castctl does: where it stopped).
    func resumeStart(for key: PlaybackKey?, title: String) async -> ResumeStart {
        guard remembersPositions, let key, let memory = playbackMemory else { return .fromStart }
        guard let point = await Task.detached(operation: { memory.position(for: key) }).value else { return .fromStart }
        guard let prompt = resumePrompt else { return .at(point) }
        switch await prompt(ResumeQuestion(title: title, position: point.position, item: point.item)) {
        case .resume: return .at(point)
        case .startOver: return .fromStart
        case .cancel: return .cancelled
        }
    }

    /// The key of a file of this computer, read off the main thread (two 64 KiB reads).
    func fileKey(_ path: String) async -> PlaybackKey? {
        guard remembersPositions, playbackMemory != nil else { return nil }
        return await Task.detached { try? PlaybackKey.file(path) }.value
    }

    func queueKey(_ files: [String]) async -> PlaybackKey? {
        guard remembersPositions, playbackMemory != nil else { return nil }
        return await Task.detached { PlaybackKey.queue(sources: files) }.value
    }

    /// The key of a link the window casts: not the demo's sample (it always starts at the
    /// start), not a share of a media server (its token dies with the cast).
    func linkKey(_ url: String) -> PlaybackKey? {
        guard url != sampleMedia?.contentId, Self.isWebLink(url), MediaServerURL(url) == nil else { return nil }
        return .link(url)
    }

    /// The media session just loaded is ours: follow it for `key`. `contentId`: what the LOAD
    /// loaded (a LOAD that failed leaves another media session, not to be followed); nil for
    /// a queue.
    func followResume(_ key: PlaybackKey?, contentId: String?) {
        saveResumePosition()
        castByUs = snapshot?.status?.mediaSessionId  // ours, for Resume after it went away (+SessionEnd)
        guard let key, remembersPositions, let status = snapshot?.status else { return }
        if let contentId, status.effectiveMedia?.contentId != contentId { return }
        let id = status.mediaSessionId
        let isQueue = contentId == nil
        resumeFollow = ResumeFollow(tracker: ResumeTracker(key: key, interval: resumeInterval), mediaSessionId: id, isQueue: isQueue)
        resumeStatus()
    }

    /// A status (or the queue) changed: the tracker decides whether to write.
    func resumeStatus() {
        guard var follow = resumeFollow, let snapshot, let status = snapshot.status else { return }
        let now = ContinuousClock.now
        guard status.mediaSessionId == follow.mediaSessionId else {
            // Another LOAD replaced ours: where ours was, once.
            return saveResumePosition()
        }
        guard let state = ResumeTracker.state(of: status) else { return }
        var ended = false
        if case .ended = state { ended = true }
        // A queue's place is an item and a time in it: wait until the item is known.
        if follow.isQueue && queue.currentIndex == nil && !ended { return }
        let report = follow.tracker.status(
            state, position: snapshot.streamPosition(at: now), duration: status.effectiveMedia?.duration,
            item: follow.isQueue ? queue.currentIndex : nil, itemCount: follow.isQueue && queue.count > 0 ? queue.count : nil, at: now)
        if let report { resumeWriter?.apply(report, for: follow.tracker.key) }
        resumeFollow = follow.tracker.isDone ? nil : follow
        var playing = false
        if case .playing = state { playing = !follow.tracker.isDone }
        updateResumeTick(playing)
    }

    /// Where our media stands, written now, and no more following (disconnect, the session
    /// lost, quit, another LOAD). `wait`: until it is on disk (quitting).
    public func saveResumePosition(wait: Bool = false) {
        updateResumeTick(false)
        guard var follow = resumeFollow else {
            if wait { resumeWriter?.drain() }
            return
        }
        resumeFollow = nil
        if let report = follow.tracker.end(at: .now) { resumeWriter?.apply(report, for: follow.tracker.key) }
        if wait { resumeWriter?.drain() }
    }

    /// The timer that writes every `resumeInterval` while our media plays.
    private func updateResumeTick(_ playing: Bool) {
        if !playing {
            resumeTick?.cancel()
            resumeTick = nil
            return
        }
        guard resumeTick == nil else { return }
        let interval = resumeInterval
        resumeTick = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                guard let self, !Task.isCancelled, var follow = self.resumeFollow else { return }
                if let report = follow.tracker.tick(at: .now) { self.resumeWriter?.apply(report, for: follow.tracker.key) }
                self.resumeFollow = follow
            }
        }
    }
}

/// The media session the window follows for PlaybackMemory.
struct ResumeFollow {
    var tracker: ResumeTracker
    var mediaSessionId: Int
    var isQueue: Bool
}

/// PlaybackMemory's writes, in order, on a queue of their own (an fsync must not stall the
/// window's main loop); `drain` waits for them (quitting).
final class ResumeWriter: Sendable {
    let memory: PlaybackMemory
    private let queue = DispatchQueue(label: "castdeck.resume")

    init(_ memory: PlaybackMemory) { self.memory = memory }

    func apply(_ report: ResumeTracker.Report, for key: PlaybackKey) {
        let memory = memory
        queue.async { Self.log { () throws(PlaybackMemoryError) in try memory.apply(report, for: key) } }
    }

    func forgetAll() {
        let memory = memory
        queue.async { Self.log { () throws(PlaybackMemoryError) in try memory.forgetAll() } }
    }

    func drain() { queue.sync {} }

    /// A failed write is said once on standard error (remembering is a convenience: the
    /// window does not interrupt anyone for it); what the file held is unchanged.
    private static func log(_ body: () throws(PlaybackMemoryError) -> Void) {
        do throws(PlaybackMemoryError) {
            try body()
        } catch {
            guard !warned.swap(true) else { return }
            FileHandle.standardError.write(Data("castdeck: \(error.description)\n".utf8))
        }
    }

    private static let warned = WarnedOnce()
}

private final class WarnedOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    /// Sets the flag; returns what it was.
    func swap(_ new: Bool) -> Bool {
        lock.withLock {
            let old = value
            value = new
            return old
        }
    }
}
