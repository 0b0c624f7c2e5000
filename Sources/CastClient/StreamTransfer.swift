// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol

/// Moving what plays from one device to another ("stream transfer"), the one implementation
/// castctl (`castctl move`) and the window (Move to…) call.
///
/// 1. `PlaybackSnapshot.read(from:)` reads the source's media: every queue item (the
///    QUEUE_GET_ITEM_IDS list and QUEUE_GET_ITEMS, or the one loaded media), the current
///    item, the active tracks, the text-track style, the rate, the repeat mode and whether
///    it is paused. Any app that speaks the media namespace can be the source.
/// 2. `StreamTransfer.move` starts (or joins) the Default Media Receiver on the target,
///    lets the caller rewrite content URLs for the target (files served from this computer
///    are shared per device address), loads the same there at the source's position read at
///    that moment (advanced at its rate since its last status), puts back the rate, style
///    and tracks where the load did not carry them, and waits for the target to report
///    PLAYING (or PAUSED when the source was paused).
/// 3. Only then is the source's media stopped (STOP on the media namespace: its media
///    session ends and reports IDLE). The receiver app on the source is left running, as a
///    sender that stops its own media would leave it: a move ends the media, not another
///    app's session. Until the target plays, the source is not touched, so a target that
///    fails leaves the source playing and the error says why.
public struct PlaybackSnapshot: Sendable, Equatable {
    /// The items in play order; one item when the source has no queue.
    public var items: [QueueItem]
    /// Which of `items` plays now.
    public var currentIndex: Int
    /// Whether the source had a queue (loaded with QUEUE_LOAD) rather than one LOAD.
    public var isQueue: Bool
    /// The source's status when it was read, and when it came (for the position rule).
    public var source: MediaStatusSnapshot
    public var activeTrackIDs: [Int]?
    public var textTrackStyle: TextTrackStyle?
    public var playbackRate: Double
    public var repeatMode: RepeatMode
    public var paused: Bool

    /// The media playing now (with the style the source shows now).
    public var currentMedia: MediaInformation? { items.indices.contains(currentIndex) ? items[currentIndex].media : nil }
    public var isLive: Bool { currentMedia?.streamType == .live }

    /// Every content URL the move would hand to the target.
    public var contentIDs: [String] { items.compactMap { $0.media.map { $0.contentUrl ?? $0.contentId } } }

    /// Reads what plays on `media` (a joined session). Throws `.nothingPlaying` when its
    /// media session is IDLE or absent.
    public static func read(from media: RemoteMediaClient) async throws(StreamTransferError) -> PlaybackSnapshot {
        let snapshot = await media.snapshot
        guard let status = snapshot.status, status.playerState != .idle, let current = status.effectiveMedia else {
            throw .nothingPlaying
        }
        var items: [QueueItem] = []
        var index = 0
        if status.currentItemId != nil {
            do {
                let queue = try await media.refreshQueue()
                items = try await media.queueItems(at: 0..<queue.count)
                index = queue.currentIndex.flatMap { i in items.firstIndex { $0.itemId == queue.itemIDs[i] } } ?? 0
            } catch {
                // A receiver without queue commands: what plays is the whole of it.
                items = []
            }
        }
        let isQueue = items.count > 1
        if items.isEmpty { items = [QueueItem(media: current)] }
        // The current item carries what the source shows now: its media as the latest status
        // has it (a style changed with EDIT_TRACKS_INFO is there) and its active tracks.
        items[index].media = current
        items[index].activeTrackIds = status.activeTrackIds
        for i in items.indices {
            items[i].itemId = nil
            items[i].startTime = nil
        }
        return PlaybackSnapshot(
            items: items, currentIndex: index, isQueue: isQueue, source: snapshot, activeTrackIDs: status.activeTrackIds,
            textTrackStyle: current.textTrackStyle, playbackRate: status.playbackRate ?? 1,
            repeatMode: status.repeatMode ?? status.queueData?.repeatMode ?? .off,
            paused: status.playerState == .paused)
    }
}

/// Why a move did not happen, one sentence each. The source keeps playing in every case
/// but `.sourceLost`.
public enum StreamTransferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The source plays nothing (its media session is IDLE or there is none).
    case nothingPlaying
    /// Source and target are the same device.
    case sameDevice(String)
    /// Reading the source failed.
    case source(device: String, CastClientError)
    /// Starting, loading or playing on the target failed.
    case target(device: String, CastClientError)
    /// The target loaded the media but ended it (IDLE) instead of playing.
    case targetDidNotPlay(device: String, reason: String)
    /// The target did not report PLAYING within the wait.
    case targetTimedOut(device: String, seconds: Double)
    /// Content the target cannot reach (files served by another process, say), with the
    /// caller's sentence.
    case unreachableContent(String)

    public var description: String {
        switch self {
        case .nothingPlaying: "Nothing is playing on the source device: there is nothing to move."
        case .sameDevice(let d): "\(d) is already the device that plays: choose another one to move to."
        case .source(let d, let e): "Could not read what plays on \(d): \(e.description)"
        case .target(let d, let e): "Could not start playback on \(d), so it keeps playing where it was: \(e.description)"
        case .targetDidNotPlay(let d, let r): "\(d) did not play the media (\(r)), so it keeps playing where it was."
        case .targetTimedOut(let d, let s):
            "\(d) did not start playing within \(DisconnectReason.format(s)) s, so it keeps playing where it was."
        case .unreachableContent(let s): s
        }
    }
}
