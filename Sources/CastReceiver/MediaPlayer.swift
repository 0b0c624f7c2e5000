// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol

/// The Default Media Receiver's player, simulated: no media is fetched, positions are
/// computed from a clock. Pure state; the caller passes `now` (seconds on the receiver's
/// clock) to every call and sends the statuses.
///
/// Timeline rules (CAF semantics as described in cast-protocol.md §3):
/// - the content position advances at `playbackRate` while PLAYING;
/// - an unwatched break at position 0 (pre-roll) plays before the content, one at a
///   mid position plays when the content reaches it, one at −1 (post-roll) plays when the
///   content ends; clips play in order for their `duration`, at normal speed;
/// - a break that played to its end (or whose last clip was skipped) becomes `isWatched`;
/// - a forward seek (or a LOAD starting later) over unwatched breaks plays the last of
///   them first, then resumes at the seek target;
/// - at the end the player goes IDLE/FINISHED, or moves on in the queue.
struct MediaPlayer {
    /// What a request produced.
    enum Reply: Equatable {
        /// The state changed (or was asked for): send the status.
        case status
        /// An error reply of this `type` with an optional reason.
        case error(type: String, reason: ErrorReason?)
    }

    /// A break being played.
    struct BreakPlayback: Equatable {
        var breakIndex: Int
        var clipIndex: Int
        /// Clip time at `anchorAt`.
        var clipTime: Double
        /// Time spent in earlier clips of this break.
        var breakTimeBeforeClip: Double
        /// Where the content resumes when the break is over; nil = the media ends (post-roll).
        var resumeAt: Double?
    }

    /// The commands this player really implements.
    static let supportedCommands: MediaCommands = [
        .pause, .seek, .streamVolume, .streamMute, .queueNext, .queuePrev, .skipAd, .queueRepeatAll,
        .queueRepeatOne, .editTracks, .playbackRate,
    ]
    static let rateRange: ClosedRange<Double> = 0.5...2.0

    private(set) var mediaSessionId = 0
    /// False until the first LOAD: GET_STATUS answers `status: []`.
    private(set) var hasSession = false
    var playerState: PlayerState = .idle
    var idleReason: IdleReason?
    private(set) var media: MediaInformation?
    private var contentTime: Double = 0
    private var anchorAt: Double = 0
    private(set) var playbackRate: Double = 1
    private(set) var volume = Volume(level: 1, muted: false)
    private(set) var activeTrackIds: [Int] = []
    private(set) var textTrackStyle: TextTrackStyle?
    var breakPlayback: BreakPlayback?
    private(set) var items: [QueueItem] = []
    private(set) var currentItemId: Int?
    private(set) var repeatMode: RepeatMode = .off
    private var nextItemId = 1

    var isActive: Bool { hasSession && playerState != .idle }

    // MARK: - Status

    /// The position in the content at `now`.
    func position(at now: Double) -> Double {
        guard playerState == .playing, breakPlayback == nil else { return contentTime }
        let t = contentTime + (now - anchorAt) * playbackRate
        if let d = media?.duration, d >= 0 { return min(t, d) }
        return t
    }

    private func clipTime(at now: Double) -> Double {
        guard let bp = breakPlayback else { return 0 }
        return playerState == .playing ? bp.clipTime + (now - anchorAt) : bp.clipTime
    }

    func breakStatus(at now: Double) -> BreakStatus? {
        guard let bp = breakPlayback, let media, let brk = media.breaks?[bp.breakIndex] else { return nil }
        let clipId = brk.breakClipIds[bp.clipIndex]
        let clip = media.breakClips?.first { $0.id == clipId }
        let t = clipTime(at: now)
        return BreakStatus(
            breakId: brk.id, breakClipId: clipId, currentBreakTime: bp.breakTimeBeforeClip + t,
            currentBreakClipTime: t, whenSkippable: clip?.whenSkippable)
    }

    /// The MEDIA_STATUS entries at `now` (empty before the first LOAD).
    func status(at now: Double) -> [MediaStatus] {
        guard hasSession else { return [] }
        var s = MediaStatus(mediaSessionId: mediaSessionId, playerState: playerState)
        s.idleReason = playerState == .idle ? idleReason : nil
        s.currentTime = position(at: now)
        s.playbackRate = playbackRate
        s.supportedMediaCommands = Self.supportedCommands
        s.volume = volume
        s.activeTrackIds = activeTrackIds
        if var m = media {
            m.textTrackStyle = textTrackStyle
            s.media = m
        }
        s.breakStatus = breakStatus(at: now)
        s.currentItemId = currentItemId
        s.items = items
        s.repeatMode = repeatMode
        return [s]
    }

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
                let end = anchorAt + remaining
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
            if let d = media?.duration, d >= 0 {
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
                contentTime = media?.duration ?? contentTime
                reachEnd()
            }
            changed = true
        }
        return changed
    }

    private func currentClipDuration(_ bp: BreakPlayback) -> Double {
        guard let brk = media?.breaks?[bp.breakIndex], bp.clipIndex < brk.breakClipIds.count else { return 0 }
        let id = brk.breakClipIds[bp.clipIndex]
        return max(0, media?.breakClips?.first { $0.id == id }?.duration ?? 0)
    }

    /// The first unwatched mid-roll strictly after `position` (within the duration).
    private func nextMidRoll(after position: Double) -> (Int, Double)? {
        guard let breaks = media?.breaks else { return nil }
        var best: (Int, Double)?
        for (i, b) in breaks.enumerated() where !(b.isWatched ?? false) && b.position > position {
            if let d = media?.duration, d >= 0, b.position > d { continue }
            if best == nil || b.position < best!.1 { best = (i, b.position) }
        }
        return best
    }

    /// The last unwatched, non-post-roll break in `(from, to]` (or `[0, to]` when `from` is nil).
    private func lastBreak(from: Double?, to: Double) -> Int? {
        guard let breaks = media?.breaks else { return nil }
        var best: Int?
        for (i, b) in breaks.enumerated() where !(b.isWatched ?? false) && b.position >= 0 && b.position <= to {
            if let from, b.position <= from { continue }
            if best == nil || b.position >= breaks[best!].position { best = i }
        }
        return best
    }

    private mutating func startBreak(_ index: Int, resumeAt: Double?) {
        guard let brk = media?.breaks?[index] else { return }
        if brk.breakClipIds.isEmpty {
            media?.breaks?[index].isWatched = true
            if resumeAt == nil { finish() }
            return
        }
        breakPlayback = BreakPlayback(breakIndex: index, clipIndex: 0, clipTime: 0, breakTimeBeforeClip: 0, resumeAt: resumeAt)
    }

    /// The current clip is over (played or skipped): next clip, or the break is over.
    private mutating func finishClip() {
        guard var bp = breakPlayback, let brk = media?.breaks?[bp.breakIndex] else { return }
        bp.breakTimeBeforeClip += bp.clipTime
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
    private mutating func reachEnd() {
        if let i = media?.breaks?.firstIndex(where: { $0.isPostRoll && !($0.isWatched ?? false) }) {
            startBreak(i, resumeAt: nil)
        } else {
            finish()
        }
    }

    /// The media item is over: next queue item, or IDLE/FINISHED.
    private mutating func finish() {
        if let index = currentIndex {
            var next: Int?
            switch repeatMode {
            case .single: next = index
            case .all, .allAndShuffle: next = (index + 1) % items.count
            default: next = index + 1 < items.count ? index + 1 : nil
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

    private var currentIndex: Int? { items.firstIndex { $0.itemId == currentItemId } }

    /// Folds elapsed time into the anchors so a state or rate change starts from `now`.
    private mutating func rebase(_ now: Double) {
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

    // MARK: - Requests

    /// Checks the session a command names. nil = it may go ahead.
    private func check(_ requested: Int?) -> Reply? {
        guard hasSession else { return .error(type: "INVALID_PLAYER_STATE", reason: nil) }
        if let requested, requested != mediaSessionId {
            return .error(type: "INVALID_REQUEST", reason: .invalidMediaSessionID)
        }
        guard playerState != .idle else { return .error(type: "INVALID_PLAYER_STATE", reason: nil) }
        return nil
    }

    /// LOAD: replaces whatever plays. Returns the reply and whether an older session was
    /// interrupted (its IDLE/INTERRUPTED status is then in `interruptedStatus`).
    mutating func load(_ request: LoadRequest, now: Double) -> (Reply, interrupted: [MediaStatus]) {
        if let rate = request.playbackRate, !Self.rateRange.contains(rate) {
            return (.error(type: "INVALID_REQUEST", reason: .invalidParams), [])
        }
        if let ids = request.activeTrackIds, !Self.tracksExist(ids, in: request.media) {
            return (.error(type: "INVALID_REQUEST", reason: .invalidParams), [])
        }
        let interrupted = interrupt(now: now)
        let item = QueueItem(
            itemId: takeItemId(), media: request.media, autoplay: request.autoplay ?? true, startTime: request.currentTime,
            activeTrackIds: request.activeTrackIds)
        items = [item]
        repeatMode = request.queueData?.repeatMode ?? .off
        startSession()
        playbackRate = request.playbackRate ?? 1
        playItem(at: 0, startTime: request.currentTime, now: now)
        return (.status, interrupted)
    }

    mutating func queueLoad(_ request: QueueLoadRequest, now: Double) -> (Reply, interrupted: [MediaStatus]) {
        guard !request.items.isEmpty, request.items.allSatisfy({ $0.itemId == nil && $0.media != nil }) else {
            return (.error(type: "INVALID_REQUEST", reason: .invalidParams), [])
        }
        let start = request.startIndex ?? 0
        guard request.items.indices.contains(start) else { return (.error(type: "INVALID_REQUEST", reason: .invalidParams), []) }
        let interrupted = interrupt(now: now)
        items = request.items.map { var i = $0; i.itemId = takeItemId(); return i }
        repeatMode = request.repeatMode ?? .off
        startSession()
        playbackRate = 1
        playItem(at: start, startTime: request.currentTime, now: now)
        return (.status, interrupted)
    }

    private mutating func takeItemId() -> Int {
        defer { nextItemId += 1 }
        return nextItemId
    }

    private mutating func interrupt(now: Double) -> [MediaStatus] {
        guard isActive else { return [] }
        _ = advance(to: now)
        guard isActive else { return [] }
        rebase(now)
        playerState = .idle
        idleReason = .interrupted
        breakPlayback = nil
        return status(at: now)
    }

    private mutating func startSession() {
        mediaSessionId += 1
        hasSession = true
        idleReason = nil
        volume = Volume(level: 1, muted: false)
    }

    /// Starts queue item `index` at `startTime` (or its own start time, or 0).
    private mutating func playItem(at index: Int, startTime: Double?, now: Double) {
        let item = items[index]
        currentItemId = item.itemId
        media = item.media
        // Every fresh play of an item starts with its breaks unwatched, as the sender gave them.
        let start = max(0, startTime ?? item.startTime ?? 0)
        contentTime = media?.duration.map { $0 >= 0 ? min(start, $0) : start } ?? start
        anchorAt = now
        breakPlayback = nil
        activeTrackIds = item.activeTrackIds ?? []
        textTrackStyle = media?.textTrackStyle
        playerState = (item.autoplay ?? true) ? .playing : .paused
        idleReason = nil
        if let i = lastBreak(from: nil, to: contentTime) {
            startBreak(i, resumeAt: contentTime)
        }
    }

    mutating func play(_ r: MediaSessionRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        rebase(now)
        playerState = .playing
        return .status
    }

    mutating func pause(_ r: MediaSessionRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        rebase(now)
        playerState = .paused
        return .status
    }

    mutating func stop(_ r: MediaSessionRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        rebase(now)
        playerState = .idle
        idleReason = .cancelled
        breakPlayback = nil
        return .status
    }

    mutating func seek(_ r: SeekRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        // Ads cannot be seeked through; the sender must wait or skip.
        guard breakPlayback == nil else { return .error(type: "INVALID_PLAYER_STATE", reason: nil) }
        rebase(now)
        let from = contentTime
        var target = r.relativeTime.map { from + $0 } ?? r.currentTime ?? from
        guard target.isFinite else { return .error(type: "INVALID_REQUEST", reason: .invalidParams) }
        target = max(0, target)
        if let d = media?.duration, d >= 0 { target = min(target, d) }
        switch r.resumeState {
        case .playbackStart?: playerState = .playing
        case .playbackPause?: playerState = .paused
        default: break
        }
        if target > from, let i = lastBreak(from: from, to: target) {
            contentTime = media?.breaks?[i].position ?? from
            startBreak(i, resumeAt: target)
        } else {
            contentTime = target
        }
        return .status
    }

    mutating func setPlaybackRate(_ r: SetPlaybackRateRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        let rate = r.playbackRate ?? r.relativePlaybackRate.map { $0 * playbackRate }
        guard let rate, Self.rateRange.contains(rate) else { return .error(type: "INVALID_REQUEST", reason: .invalidParams) }
        rebase(now)
        playbackRate = rate
        return .status
    }

    mutating func setVolume(_ r: SetVolumeRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        if let level = r.volume.level {
            guard level.isFinite, (0...1).contains(level) else { return .error(type: "INVALID_REQUEST", reason: .invalidParams) }
            volume.level = level
        }
        if let muted = r.volume.muted { volume.muted = muted }
        return .status
    }

    private static func tracksExist(_ ids: [Int], in media: MediaInformation?) -> Bool {
        let known = Set(media?.tracks?.map(\.trackId) ?? [])
        return ids.allSatisfy(known.contains)
    }

    mutating func editTracksInfo(_ r: EditTracksInfoRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        let tracks = media?.tracks ?? []
        let textIds = Set(tracks.filter { $0.type == .text }.map(\.trackId))
        var active = activeTrackIds
        if let language = r.language {
            let wanted = language.lowercased()
            guard
                let track = tracks.first(where: { $0.type == .text && ($0.language?.lowercased() == wanted) })
                    ?? tracks.first(where: { $0.type == .text && ($0.language?.lowercased().hasPrefix(wanted) ?? false) })
            else { return .error(type: "INVALID_REQUEST", reason: .languageNotSupported) }
            active = active.filter { !textIds.contains($0) } + [track.trackId]
        } else if let ids = r.activeTrackIds {
            guard Self.tracksExist(ids, in: media) else { return .error(type: "INVALID_REQUEST", reason: .invalidParams) }
            active = ids
        } else if let enable = r.enableTextTracks {
            if !enable {
                active = active.filter { !textIds.contains($0) }
            } else if !active.contains(where: textIds.contains), let first = tracks.first(where: { $0.type == .text }) {
                active.append(first.trackId)
            }
        }
        activeTrackIds = active
        if let style = r.textTrackStyle { textTrackStyle = style }
        return .status
    }

    mutating func skipAd(_ r: MediaSessionRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        guard let status = breakStatus(at: now) else { return .error(type: "INVALID_PLAYER_STATE", reason: nil) }
        guard let skippable = status.whenSkippable, skippable >= 0, (status.currentBreakClipTime ?? 0) >= skippable else {
            return .error(type: "INVALID_REQUEST", reason: .notSupported)
        }
        rebase(now)
        finishClip()
        return .status
    }

    // MARK: Queue

    mutating func queueInsert(_ r: QueueInsertRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        guard !r.items.isEmpty, r.items.allSatisfy({ $0.itemId == nil && $0.media != nil }) else {
            return .error(type: "INVALID_REQUEST", reason: .invalidParams)
        }
        let new = r.items.map { var i = $0; i.itemId = takeItemId(); return i }
        let at = r.insertBefore.flatMap { id in items.firstIndex { $0.itemId == id } } ?? items.count
        items.insert(contentsOf: new, at: at)
        if let index = r.currentItemIndex, new.indices.contains(index) {
            playItem(at: at + index, startTime: r.currentTime, now: now)
        } else if let id = r.currentItemId, let index = items.firstIndex(where: { $0.itemId == id }) {
            playItem(at: index, startTime: r.currentTime, now: now)
        }
        return .status
    }

    mutating func queueRemove(_ r: QueueItemsRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        let remove = Set(r.itemIds)
        guard !remove.isEmpty else { return .error(type: "INVALID_REQUEST", reason: .invalidParams) }
        let oldIndex = currentIndex ?? 0
        let removesCurrent = currentItemId.map(remove.contains) ?? false
        items.removeAll { remove.contains($0.itemId ?? -1) }
        if items.isEmpty {
            rebase(now)
            playerState = .idle
            idleReason = .finished
            breakPlayback = nil
            currentItemId = nil
        } else if let id = r.currentItemId, let index = items.firstIndex(where: { $0.itemId == id }) {
            playItem(at: index, startTime: r.currentTime, now: now)
        } else if removesCurrent {
            playItem(at: min(oldIndex, items.count - 1), startTime: nil, now: now)
        }
        return .status
    }

    mutating func queueReorder(_ r: QueueItemsRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        let ids = r.itemIds
        guard !ids.isEmpty, ids.allSatisfy({ id in items.contains { $0.itemId == id } }) else {
            return .error(type: "INVALID_REQUEST", reason: .invalidParams)
        }
        let moving = ids.compactMap { id in items.first { $0.itemId == id } }
        items.removeAll { ids.contains($0.itemId ?? -1) }
        let at = r.insertBefore.flatMap { id in items.firstIndex { $0.itemId == id } } ?? items.count
        items.insert(contentsOf: moving, at: at)
        return .status
    }

    mutating func queueUpdate(_ r: QueueUpdateRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        if let mode = r.repeatMode { repeatMode = mode }
        for update in r.items ?? [] {
            if let index = items.firstIndex(where: { $0.itemId == update.itemId && update.itemId != nil }) {
                var merged = update
                if merged.media == nil { merged.media = items[index].media }
                items[index] = merged
            }
        }
        if let jump = r.jump, jump != 0 {
            return self.jump(by: jump, now: now)
        }
        if let id = r.currentItemId {
            guard let index = items.firstIndex(where: { $0.itemId == id }) else {
                return .error(type: "INVALID_REQUEST", reason: .invalidParams)
            }
            playItem(at: index, startTime: r.currentTime, now: now)
        }
        return .status
    }

    mutating func jump(_ r: MediaSessionRequest, by offset: Int, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        return jump(by: offset, now: now)
    }

    private mutating func jump(by offset: Int, now: Double) -> Reply {
        guard let index = currentIndex, !items.isEmpty else { return .error(type: "INVALID_PLAYER_STATE", reason: nil) }
        var target = index + offset
        if !items.indices.contains(target) {
            switch repeatMode {
            case .all, .allAndShuffle:
                target = ((target % items.count) + items.count) % items.count
            default:
                return .error(type: "INVALID_REQUEST", reason: .endOfQueue)
            }
        }
        playItem(at: target, startTime: nil, now: now)
        return .status
    }
}
