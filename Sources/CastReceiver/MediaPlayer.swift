// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol

/// The Default Media Receiver's player, simulated: no media is fetched, positions are
/// computed from a clock. Pure state; the caller passes `now` (seconds on the receiver's
/// clock) to every call and sends the statuses.
///
/// Timeline rules (CAF semantics as described in docs/protocol.md §10–13):
/// - the content position advances at `playbackRate` while PLAYING;
/// - an unwatched break at position 0 (pre-roll) plays before the content, one at a
///   mid position plays when the content reaches it, one at −1 (post-roll) plays when the
///   content ends; clips play in order for their `duration`, at normal speed;
/// - a break that played to its end (or whose last clip was skipped) becomes `isWatched`;
/// - a forward seek (or a LOAD starting later) over unwatched breaks plays the last of
///   them first, then resumes at the seek target;
/// - an embedded break (`isEmbedded`) is part of the content's own stream: its clips take
///   the content time from its position on (the content's duration includes them), the
///   content position moves through them at `playbackRate`, and `breakStatus` is reported
///   while it is inside; skipping a clip jumps the content to the clip's end;
/// - at the end the player goes IDLE/FINISHED, or moves on in the queue;
/// - a LIVE stream has no end until it is done, and a seekable window that moves with the
///   clock (`LiveTimeline`, MediaPlayer+Live.swift).
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
        /// For an embedded break, the content position where its first clip starts: the
        /// content position is this plus the time played in the break.
        var embeddedAt: Double?
    }

    /// The commands this player really implements.
    static let supportedCommands: MediaCommands = [
        .pause, .seek, .streamVolume, .streamMute, .queueNext, .queuePrev, .queueShuffle, .skipAd, .queueRepeatAll,
        .queueRepeatOne, .editTracks, .playbackRate, .like, .dislike, .follow, .unfollow,
    ]
    /// Rating and following, which the Default Media Receiver does not offer (music apps do):
    /// announced only when the receiver is configured to (`castctl receiver --user-actions`).
    static let userActionCommands: MediaCommands = [.like, .dislike, .follow, .unfollow]
    static let rateRange: ClosedRange<Double> = 0.5...2.0
    /// What MEDIA_STATUS announces (the receiver's configuration may announce less).
    var announcedCommands = MediaPlayer.supportedCommands

    var mediaSessionId = 0
    /// False until the first LOAD: GET_STATUS answers `status: []`.
    var hasSession = false
    var playerState: PlayerState = .idle
    var idleReason: IdleReason?
    var media: MediaInformation?
    var contentTime: Double = 0
    var anchorAt: Double = 0
    var playbackRate: Double = 1
    var volume = Volume(level: 1, muted: false)
    var activeTrackIds: [Int] = []
    var textTrackStyle: TextTrackStyle?
    var breakPlayback: BreakPlayback?
    /// The live edge and replay window of a LIVE stream.
    var live = LiveTimeline()
    var items: [QueueItem] = []
    var currentItemId: Int?
    var repeatMode: RepeatMode = .off
    var nextItemId = 1
    /// Counts queue changes; every QUEUE_CHANGE carries the new value.
    var queueSequence = 0
    /// QUEUE_CHANGE notifications made by the last edit, for the caller to send to every sender.
    var pendingQueueChanges: [QueueChangeMessage] = []

    var isActive: Bool { hasSession && playerState != .idle }

    // MARK: - Status

    /// The position in the content at `now`.
    func position(at now: Double) -> Double {
        if let bp = breakPlayback, let start = bp.embeddedAt { return start + bp.breakTimeBeforeClip + clipTime(at: now) }
        guard playerState == .playing, breakPlayback == nil else { return isLive ? clampLive(contentTime, at: now) : contentTime }
        let t = contentTime + (now - anchorAt) * playbackRate
        if isLive { return clampLive(t, at: now) }
        if let d = media?.duration, d >= 0 { return min(t, d) }
        return t
    }

    func clipTime(at now: Double) -> Double {
        guard let bp = breakPlayback else { return 0 }
        // An embedded clip is part of the content's stream, so it plays at the content's rate.
        let rate = bp.embeddedAt == nil ? 1 : playbackRate
        return playerState == .playing ? bp.clipTime + (now - anchorAt) * rate : bp.clipTime
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
        s.supportedMediaCommands = announcedCommands
        s.volume = volume
        s.activeTrackIds = activeTrackIds
        if var m = media {
            m.textTrackStyle = textTrackStyle
            s.media = m
        }
        s.breakStatus = breakStatus(at: now)
        s.liveSeekableRange = liveSeekableRange(at: now)
        s.currentItemId = currentItemId
        // As a Web Receiver does: only the current item and the preloaded next one travel in
        // the status; senders ask for the rest with QUEUE_GET_ITEM_IDS / QUEUE_GET_ITEMS.
        let preloaded = preloadedItemId(at: now)
        s.preloadedItemId = preloaded
        s.items = items.filter { $0.itemId == currentItemId || ($0.itemId != nil && $0.itemId == preloaded) }
        s.repeatMode = repeatMode
        return [s]
    }
}
