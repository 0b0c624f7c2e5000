// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol

/// The move itself (the steps are in StreamTransfer.swift's overview).
public enum StreamTransfer {
    /// Where a move is, for a progress line or bar.
    public enum Step: Sendable, Equatable {
        case readingSource, startingTarget, loading, waitingForTarget, stoppingSource
    }

    /// What a finished move did.
    public struct Report: Sendable, Equatable {
        /// What was read from the source (before any rewriting).
        public var snapshot: PlaybackSnapshot
        /// The position the target was asked to start at (nil: its own start, or a live edge).
        public var startedAt: Double?
        /// The target's status once it played (PLAYING, or PAUSED), with all that followed the load.
        public var targetStatus: MediaStatus
        /// Why the source's media could not be stopped, when it could not (the target plays).
        public var sourceStopFailure: String?
    }

    /// Rewrites the snapshot for the target before it is loaded (local files re-shared for
    /// the target's address): given the target connection's endpoints.
    public typealias Rewrite = @Sendable (PlaybackSnapshot, ConnectionEndpoints) async throws(StreamTransferError) -> PlaybackSnapshot

    /// How long the target may take from the load to PLAYING.
    public static let playingWait: Duration = .seconds(20)

    /// Moves what plays on `source` (a joined session: `castctl` joins by the media
    /// namespace, the window follows its session) to `target` (connected or not; its
    /// Default Media Receiver is started or joined here). See the overview for the order.
    /// `snapshot`: what was read from the source already (a caller that checks it first).
    public static func move(
        from source: CastSession, to target: CastSession, snapshot read: PlaybackSnapshot? = nil, rewrite: Rewrite? = nil,
        progress: @Sendable (Step) -> Void = { _ in }
    ) async throws(StreamTransferError) -> Report {
        let sourceName = source.device.description
        let targetName = target.device.description
        guard source.device != target.device else { throw .sameDevice(targetName) }
        progress(.readingSource)
        var snapshot: PlaybackSnapshot
        if let read { snapshot = read } else { snapshot = try await PlaybackSnapshot.read(from: source.media) }
        let original = snapshot
        let sourceApp = await source.sessionInfo?.sessionID
        progress(.startingTarget)
        do {
            _ = try await target.start(appID: CastAppID.defaultMediaReceiver)
        } catch {
            throw .target(device: targetName, error)
        }
        if let rewrite {
            let ends: ConnectionEndpoints
            do {
                ends = try await target.connectionEndpoints()
            } catch {
                throw .target(device: targetName, error)
            }
            snapshot = try await rewrite(snapshot, ends)
        }
        progress(.loading)
        // The position now, by the source's latest status (it kept playing meanwhile).
        let position = snapshot.isLive ? nil : await source.media.approximateStreamPosition()
        let updates = await target.media.statusUpdates()
        let loaded: MediaStatus
        do {
            loaded = try await load(snapshot, on: target.media, at: position)
        } catch {
            throw .target(device: targetName, error)
        }
        progress(.waitingForTarget)
        let outcome = await waitForPlayback(updates, session: loaded.mediaSessionId, paused: snapshot.paused, device: targetName)
        guard case .success(let playing) = outcome else {
            // The target's half-started media ends; the source was not touched.
            _ = try? await target.media.stop()
            if case .failure(let e) = outcome { throw e }
            throw .targetDidNotPlay(device: targetName, reason: "no status")
        }
        // What the target shows now (the first PLAYING may predate the rate set after a QUEUE_LOAD).
        let shown = await target.media.status.flatMap { $0.mediaSessionId == playing.mediaSessionId ? $0 : nil } ?? playing
        progress(.stoppingSource)
        var stopFailure: String?
        do {
            // A speaker that joined the target (a group it belongs to) gave up its own app
            // session to it: what it plays now is the target's, which must not be stopped.
            let now = await source.sessionInfo?.sessionID
            if sourceApp == nil || now == sourceApp { _ = try await source.media.stop() }
        } catch {
            // Ended meanwhile (someone stopped it): nothing left to stop.
            if error != .noMediaSession { stopFailure = "\(sourceName): \(error.description)" }
        }
        return Report(snapshot: original, startedAt: position, targetStatus: shown, sourceStopFailure: stopFailure)
    }

    /// Loads the snapshot on `media` (a joined Default Media Receiver) at `position`, then
    /// puts back what the load did not carry: the rate (QUEUE_LOAD has none), the style and
    /// the active tracks when the receiver shows others.
    @discardableResult
    public static func load(_ snapshot: PlaybackSnapshot, on media: RemoteMediaClient, at position: Double?) async throws(CastClientError) -> MediaStatus {
        var status: MediaStatus?
        if snapshot.isQueue {
            var items = snapshot.items
            items[snapshot.currentIndex].autoplay = !snapshot.paused
            status = try await media.queueLoad(items, startIndex: snapshot.currentIndex, repeatMode: snapshot.repeatMode, startTime: position)
        } else if let current = snapshot.currentMedia {
            status = try await media.load(
                current, autoplay: !snapshot.paused, startTime: position, activeTrackIDs: snapshot.activeTrackIDs,
                playbackRate: snapshot.playbackRate == 1 ? nil : snapshot.playbackRate)
        }
        guard var now = status else { throw .loadFailed(reason: "the receiver reported no media after loading", detailedErrorCode: nil) }
        if (now.playbackRate ?? 1) != snapshot.playbackRate {
            now = try await media.setPlaybackRate(snapshot.playbackRate) ?? now
        }
        if let style = snapshot.textTrackStyle, now.effectiveMedia?.textTrackStyle != style {
            now = try await media.setTextTrackStyle(style) ?? now
        }
        if let ids = snapshot.activeTrackIDs, Set(now.activeTrackIds ?? []) != Set(ids) {
            now = try await media.setActiveTrackIDs(ids) ?? now
        }
        return now
    }

    /// The first status of media session `session` that plays (PAUSED when the source was
    /// paused); BUFFERING and LOADING are waited through, IDLE is a failure.
    static func waitForPlayback(
        _ updates: AsyncStream<MediaStatusSnapshot>, session: Int, paused: Bool, device: String
    ) async -> Result<MediaStatus, StreamTransferError> {
        let wanted: PlayerState = paused ? .paused : .playing
        let outcome = await withTaskGroup(of: Result<MediaStatus, StreamTransferError>?.self) { group in
            group.addTask {
                for await snapshot in updates {
                    guard let s = snapshot.status, s.mediaSessionId >= session else { continue }
                    if s.playerState == wanted { return .success(s) }
                    if s.playerState == .idle {
                        let reason = s.idleReason.map { "it reported IDLE, \($0.rawValue)" } ?? "it reported IDLE"
                        return .failure(.targetDidNotPlay(device: device, reason: reason))
                    }
                }
                return .failure(.targetDidNotPlay(device: device, reason: "the connection ended"))
            }
            group.addTask {
                try? await Task.sleep(for: playingWait)
                return Task.isCancelled ? nil : .failure(.targetTimedOut(device: device, seconds: playingWait.seconds))
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
            }
            return Result<MediaStatus, StreamTransferError>.failure(.targetDidNotPlay(device: device, reason: "the wait was cancelled"))
        }
        return outcome
    }
}
