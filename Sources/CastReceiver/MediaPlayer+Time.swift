// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol

extension MediaPlayer {
    // MARK: - Time

    /// Plays the timeline forward to `now`: breaks start and end, media finishes.
    /// Returns true when something a sender should hear about happened.
    mutating func advance(to now: Double) -> Bool {
        var changed = false
        var guardCount = 0
        while playerState == .playing, guardCount < 10_000 {
            guardCount += 1
            if let bp = breakPlayback {
                let remaining = max(0, currentClipDuration(bp) - bp.clipTime)
                let end = anchorAt + remaining / (bp.embeddedAt == nil ? 1 : playbackRate)
                guard end <= now else { break }
                anchorAt = end
                let full = currentClipDuration(bp)
                breakPlayback?.clipTime = full
                finishClip()
                changed = true
                continue
            }
            var nextEvent: (time: Double, breakIndex: Int?)?
            if let next = nextMidRoll(after: contentTime) {
                let (index, position) = next
                nextEvent = (anchorAt + (position - contentTime) / playbackRate, index)
            }
            if let d = contentEnd {
                let end = anchorAt + max(0, d - contentTime) / playbackRate
                if nextEvent == nil || end < nextEvent!.time { nextEvent = (end, nil) }
            }
            guard let event = nextEvent, event.time <= now else { break }
            contentTime = contentTime + (event.time - anchorAt) * playbackRate
            anchorAt = event.time
            if let index = event.breakIndex {
                contentTime = media?.breaks?[index].position ?? contentTime
                startBreak(index, resumeAt: contentTime)
            } else {
                contentTime = contentEnd ?? contentTime
                reachEnd()
            }
            changed = true
        }
        return changed
    }

    func currentClipDuration(_ bp: BreakPlayback) -> Double {
        guard let brk = media?.breaks?[bp.breakIndex], bp.clipIndex < brk.breakClipIds.count else { return 0 }
        let id = brk.breakClipIds[bp.clipIndex]
        return max(0, media?.breakClips?.first { $0.id == id }?.duration ?? 0)
    }

    /// The first unwatched mid-roll strictly after `position` (within the duration).
    func nextMidRoll(after position: Double) -> (Int, Double)? {
        guard let breaks = media?.breaks else { return nil }
        var best: (Int, Double)?
        for (i, b) in breaks.enumerated() where !(b.isWatched ?? false) && b.position > position {
            if let d = media?.duration, d >= 0, b.position > d { continue }
            if best == nil || b.position < best!.1 { best = (i, b.position) }
        }
        return best
    }

    /// The last unwatched, non-post-roll break in `(from, to]` (or `[0, to]` when `from` is nil).
    func lastBreak(from: Double?, to: Double) -> Int? {
        guard let breaks = media?.breaks else { return nil }
        var best: Int?
        for (i, b) in breaks.enumerated() where !(b.isWatched ?? false) && b.position >= 0 && b.position <= to {
            if let from, b.position <= from { continue }
            if best == nil || b.position >= breaks[best!].position { best = i }
        }
        return best
    }

    mutating func startBreak(_ index: Int, resumeAt: Double?) {
        guard let brk = media?.breaks?[index] else { return }
        if brk.breakClipIds.isEmpty {
            media?.breaks?[index].isWatched = true
            if resumeAt == nil { finish() }
            return
        }
        var playback = BreakPlayback(breakIndex: index, clipIndex: 0, clipTime: 0, breakTimeBeforeClip: 0, resumeAt: resumeAt)
        if brk.isEmbedded == true, !brk.isPostRoll {
            // The content goes on after the ad in its own stream, or at a later seek target.
            let end = brk.position + embeddedLength(brk)
            playback.embeddedAt = brk.position
            playback.resumeAt = max(resumeAt ?? end, end)
        }
        breakPlayback = playback
    }

    /// How much content time an embedded break takes: its clips' durations (else its own).
    func embeddedLength(_ brk: AdBreak) -> Double {
        let clips = brk.breakClipIds.compactMap { id in media?.breakClips?.first { $0.id == id }?.duration }
        let total = clips.reduce(0) { $0 + max(0, $1.isFinite ? $1 : 0) }
        return total > 0 ? total : max(0, brk.duration ?? 0)
    }

    /// The current clip is over (played or skipped): next clip, or the break is over.
    mutating func finishClip() {
        guard var bp = breakPlayback, let brk = media?.breaks?[bp.breakIndex] else { return }
        // An embedded clip skipped part-way still takes its whole length of the content's stream.
        bp.breakTimeBeforeClip += bp.embeddedAt == nil ? bp.clipTime : currentClipDuration(bp)
        bp.clipIndex += 1
        bp.clipTime = 0
        if bp.clipIndex < brk.breakClipIds.count {
            breakPlayback = bp
            return
        }
        media?.breaks?[bp.breakIndex].isWatched = true
        breakPlayback = nil
        if let resume = bp.resumeAt {
            contentTime = resume
            // A seek target may lie at or past the end.
            if let d = media?.duration, d >= 0, resume >= d { reachEnd() }
        } else {
            finish()
        }
    }

    /// The content reached its end: an unwatched post-roll plays first.
    mutating func reachEnd() {
        if let i = media?.breaks?.firstIndex(where: { $0.isPostRoll && !($0.isWatched ?? false) }) {
            startBreak(i, resumeAt: nil)
        } else {
            finish()
        }
    }

    /// The media item is over: next queue item, or IDLE/FINISHED.
    mutating func finish() {
        if let index = currentIndex {
            var next = followingIndex(after: index)
            // REPEAT_ALL_AND_SHUFFLE: each time the queue comes round again it is reshuffled.
            if repeatMode == .allAndShuffle, next == 0, index == items.count - 1, items.count > 1 {
                var order = items
                order.shuffle()
                items = order
                noteQueueChange(.update, items.compactMap(\.itemId))
                next = 0
            }
            if let next {
                playItem(at: next, startTime: nil, now: anchorAt)
                return
            }
        }
        playerState = .idle
        idleReason = .finished
        breakPlayback = nil
    }

    var currentIndex: Int? { items.firstIndex { $0.itemId == currentItemId } }

    /// Folds elapsed time into the anchors so a state or rate change starts from `now`.
    mutating func rebase(_ now: Double) {
        if playerState == .playing {
            if breakPlayback != nil {
                let t = clipTime(at: now)
                breakPlayback?.clipTime = t
            } else {
                contentTime = position(at: now)
            }
        }
        anchorAt = now
    }
}
