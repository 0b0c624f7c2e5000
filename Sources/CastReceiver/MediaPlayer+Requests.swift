// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol

extension MediaPlayer {
    // MARK: - Requests

    /// Checks the session a command names. nil = it may go ahead.
    func check(_ requested: Int?) -> Reply? {
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
        items = request.items.map {
            var i = $0
            i.itemId = takeItemId()
            return i
        }
        repeatMode = request.repeatMode ?? .off
        startSession()
        playbackRate = 1
        playItem(at: start, startTime: request.currentTime, now: now)
        return (.status, interrupted)
    }

    mutating func takeItemId() -> Int {
        defer { nextItemId += 1 }
        return nextItemId
    }

    mutating func interrupt(now: Double) -> [MediaStatus] {
        guard isActive else { return [] }
        _ = advance(to: now)
        guard isActive else { return [] }
        rebase(now)
        playerState = .idle
        idleReason = .interrupted
        breakPlayback = nil
        return status(at: now)
    }

    mutating func startSession() {
        mediaSessionId += 1
        hasSession = true
        idleReason = nil
        volume = Volume(level: 1, muted: false)
    }

    /// Starts queue item `index` at `startTime` (or its own start time, or 0).
    mutating func playItem(at index: Int, startTime: Double?, now: Double) {
        let item = items[index]
        currentItemId = item.itemId
        media = item.media
        // Every fresh play of an item starts with its breaks unwatched, as the sender gave them.
        let start = max(0, startTime ?? item.startTime ?? 0)
        contentTime = media?.duration.map { $0 >= 0 ? min(start, $0) : start } ?? start
        anchorAt = now
        breakPlayback = nil
        // Like the Web Receiver with HLS audio renditions: one audio track plays from the start.
        activeTrackIds = item.activeTrackIds ?? (media?.tracks?.first { $0.type == .audio }).map { [$0.trackId] } ?? []
        textTrackStyle = media?.textTrackStyle
        startLive(requested: startTime ?? item.startTime, now: now)
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
        if !isLive, let d = media?.duration, d >= 0 { target = min(target, d) }
        if isLive { target = clampLive(target, at: now) }
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

    /// LIKE and DISLIKE exclude each other, as a thumbs up and down do; FOLLOW and UNFOLLOW
    /// likewise. `clear` takes the action back.
    mutating func userAction(_ r: UserActionRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        let opposite: [UserAction: UserAction] = [.like: .dislike, .dislike: .like, .follow: .unfollow, .unfollow: .follow]
        guard let other = opposite[r.userAction], announcedCommands.contains(r.userAction.supportedMediaCommand) else {
            return .error(type: "INVALID_REQUEST", reason: .invalidCommand)
        }
        var states = media?.userActionStates ?? []
        states.removeAll { $0.userAction == r.userAction || (r.clear != true && $0.userAction == other) }
        if r.clear != true { states.append(UserActionState(userAction: r.userAction)) }
        media?.userActionStates = states
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

    static func tracksExist(_ ids: [Int], in media: MediaInformation?) -> Bool {
        let known = Set(media?.tracks?.map(\.trackId) ?? [])
        return ids.allSatisfy(known.contains)
    }

    mutating func editTracksInfo(_ r: EditTracksInfoRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        let tracks = media?.tracks ?? []
        // Choosing by language or turning text on picks among what a viewer reads (subtitles,
        // captions, descriptions), never a chapter list or a METADATA track, as a device does.
        let readable = tracks.filter { $0.type == .text && $0.subtype != .chapters && $0.subtype != .metadata }
        let textIds = Set(readable.map(\.trackId))
        var active = activeTrackIds
        if let language = r.language {
            let wanted = language.lowercased()
            guard
                let track = readable.first(where: { $0.language?.lowercased() == wanted })
                    ?? readable.first(where: { $0.language?.lowercased().hasPrefix(wanted) ?? false })
            else { return .error(type: "INVALID_REQUEST", reason: .languageNotSupported) }
            active = active.filter { !textIds.contains($0) } + [track.trackId]
        } else if let ids = r.activeTrackIds {
            guard Self.tracksExist(ids, in: media) else { return .error(type: "INVALID_REQUEST", reason: .invalidParams) }
            // Audio renditions are alternatives: exactly one plays. Naming none keeps the current one.
            let audioIds = Set(tracks.filter { $0.type == .audio }.map(\.trackId))
            guard ids.filter(audioIds.contains).count <= 1 else { return .error(type: "INVALID_REQUEST", reason: .invalidParams) }
            active = ids
            if !ids.contains(where: audioIds.contains) { active += activeTrackIds.filter(audioIds.contains) }
        } else if let enable = r.enableTextTracks {
            if !enable {
                active = active.filter { !textIds.contains($0) }
            } else if !active.contains(where: textIds.contains), let first = readable.first {
                active.append(first.trackId)
            }
        }
        activeTrackIds = active
        if let style = r.textTrackStyle { textTrackStyle = style }
        return .status
    }

    /// EDIT_AUDIO_TRACKS: switches to the audio track of `language` (an HLS rendition).
    mutating func editAudioTracks(_ r: EditAudioTracksRequest, now: Double) -> Reply {
        _ = advance(to: now)
        if let e = check(r.mediaSessionId) { return e }
        let audio = (media?.tracks ?? []).filter { $0.type == .audio }
        guard let wanted = r.language?.lowercased(), !audio.isEmpty else { return .error(type: "INVALID_REQUEST", reason: .notSupported) }
        guard
            let track = audio.first(where: { $0.language?.lowercased() == wanted })
                ?? audio.first(where: { $0.language?.lowercased().hasPrefix(wanted) ?? false })
        else { return .error(type: "INVALID_REQUEST", reason: .languageNotSupported) }
        let audioIds = Set(audio.map(\.trackId))
        activeTrackIds = activeTrackIds.filter { !audioIds.contains($0) } + [track.trackId]
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
}
