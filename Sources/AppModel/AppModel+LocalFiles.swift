// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import Foundation
import LocalMedia

// Casting files from this computer (LocalMedia's MediaShare serves them to the device). What
// follows from serving them here (the quit question, the CORS check, ended shares) is in
// AppModel+ThisComputer.swift.
//
//   castFiles(paths) ──no session──▶ pendingFiles ──connect(to:)──▶ castFiles again
//        │
//        ▼ session.connectionEndpoints(): this machine's address towards the device
//   MediaShare.prepare ──▶ LocalCast (media to LOAD, tokens) ──▶ load(cast.media)
//        │
//   statusChanged ──▶ followLocalCast: once the device plays our URL, a status showing other
//   media (another sender's LOAD, IDLE) or the end of the session ends the share (tokens die).
extension AppModel {
    /// Casts a file from this computer (a path or a `file://` URI). CastDeck casts one file at
    /// a time: with several, the first is cast and the rest are named in a notice. Without a
    /// connected device the files wait until one is chosen. What stopped part-way asks whether
    /// to go on from there (AppModel+Resume.swift).
    public func castFiles(_ files: [String]) async {
        await castFiles(files, askToResume: true)
    }

    func castFiles(_ files: [String], askToResume: Bool) async {
        guard let first = files.first else { return }
        let name = Self.fileName(first)
        guard let session, case .connected(let deviceID) = connection else {
            pendingFiles = files
            post(tr("Choose a device to cast {0}.", name))
            return
        }
        pendingFiles = []
        // Several files, a folder or a playlist make a queue (AppModel+Queue.swift).
        if files.count > 1 || QueueSources.needsExpansion(first) { return await castQueue(files, mode: .playNow, askToResume: askToResume) }
        var start: Double?
        if askToResume {
            switch await resumeStart(for: await fileKey(MediaShare.localPath(first)), title: name) {
            case .cancelled: return
            case .at(let point): start = point.position
            case .fromStart: break
            }
        }
        await castFile(first, session: session, deviceID: deviceID, startTime: start)
    }

    /// Shares one file and loads it: converted on the fly when the device needs it (waiting for
    /// the first segment), with an embedded subtitle drawn in when `burn` names one (1-based),
    /// from `startTime` when given (burning in restarts the cast where it was).
    func castFile(_ first: String, session: CastSession, deviceID: String, burn: Int? = nil, startTime: Double? = nil) async {
        let name = Self.fileName(first)
        let cast: LocalCast
        do {
            let ends = try await session.connectionEndpoints()
            // The TXT record's model chooses what the device decodes (unknown: the conservative choice).
            let model = deviceList.first { $0.id == deviceID }?.model
            // Converted files start converting where playback starts (a resume point).
            cast = try await mediaShare.prepare(
                file: first, device: ends.remote, localAddress: ends.local, model: model, burnSubtitles: burn, surround: sendsSurround(to: deviceID),
                startAt: startTime, words: Localization.trackWords)
            if let hls = cast.hls {
                // Converted on the fly: the device may load once the first segment exists.
                preparingFile = name
                post(tr("Preparing {0}…", name))
                defer { preparingFile = nil }
                do {
                    try await hls.waitForFirstSegment()
                } catch {
                    await mediaShare.end(cast)
                    throw error
                }
            }
        } catch let error as LocalMediaError {
            post(error.description)
            return
        } catch {
            fail(error, device: sessionDeviceName)
            return
        }
        guard self.session === session else {
            await mediaShare.end(cast)
            return
        }
        endLocalCast()
        localCast = cast
        localCastSeen = false
        lastLoad = .file(first)
        for warning in cast.warnings { post(warning) }
        if let later = cast.laterWarnings {
            // Embedded subtitles are copied out while the cast starts: what went wrong comes later.
            Task { [weak self] in for warning in await later.value { self?.post(warning) } }
        }
        // A subtitle file in the user's language starts on (SidecarSubtitles.preferred), unless
        // a subtitle is drawn into the picture already.
        let text = burn == nil ? cast.defaultTextTrack(languages: Localization.preferredLanguages) : nil
        let key = await fileKey(cast.info.path)
        await load(cast.media, startTime: startTime, activeTrackIDs: text.map { [$0] })
        followResume(key, contentId: cast.media.contentId)
    }

    /// Serves local files on exactly `port` (the `media-port` setting); 0 keeps the default
    /// range 8010–8019, then any free port.
    /// `transcode-cache-size-mb` and `transcode-quality` bound and tune files converted on the fly.
    public func useMediaPort(
        _ port: Int, transcodeCacheMB: Int = TranscodeScratch.defaultSizeLimitMB, transcodeQuality: Int = TranscodeScratch.defaultQuality
    ) {
        mediaShare = MediaShare(
            port: port == 0 ? .default : .exactly(port), scratchLimitMB: transcodeCacheMB, quality: transcodeQuality)
    }

    /// The file's own artwork while a local file plays (the media server serves only the device).
    var localCastArtwork: String? {
        guard let cast = localCast, media?.contentId == cast.media.contentId else { return nil }
        if let path = cast.info.artworkPath { return path }
        if cast.info.kind == .image { return cast.info.path }
        return embeddedArtworkFile(for: cast)
    }

    /// An embedded subtitle of the local file playing that can be drawn into the picture
    /// (image subtitles cannot be text tracks; text ones may be burned in too).
    public struct BurnableSubtitle: Equatable, Sendable {
        /// 1-based, among the file's subtitle streams (castctl's --burn-subtitles N).
        public var number: Int
        public var label: String
        public var isBurned: Bool
    }

    public var burnableSubtitles: [BurnableSubtitle] {
        guard let cast = localCast, media?.contentId == cast.media.contentId, let plan = cast.plan else { return [] }
        return plan.steps.compactMap { step in
            guard step.stream.codecType == "subtitle", let n = step.subtitleNumber else { return nil }
            // Named as the same stream is named among the text tracks (`trackLabel`).
            let label = Self.labelText(step.stream.trackFacts(.text, number: n).name(Localization.trackWords))
            return BurnableSubtitle(number: n, label: label, isBurned: step.action == .burn)
        }
    }

    /// Casts the playing local file again with subtitle `number` drawn in (nil: none), from
    /// where it is now.
    func burnSubtitles(_ number: Int?) async {
        guard let session, case .connected(let deviceID) = connection, case .file(let path)? = lastLoad else { return }
        let at = position
        await castFile(path, session: session, deviceID: deviceID, burn: number, startTime: at)
    }

    /// What the converter has made (ranges of seconds from the start, one per run: a seek starts
    /// a new run) while a file converted on the fly plays; empty otherwise, and once all of it
    /// is made. Read on the window's clock tick (not observed).
    public var convertedRanges: [Range<Double>] {
        guard let hls = playingLocalCast?.hls else { return [] }
        let made = hls.producedRanges
        if made.count == 1, made[0].lowerBound <= 0, made[0].upperBound >= hls.end - (hls.boundaries.first ?? 0) { return [] }
        return made
    }

    /// The file of this computer that plays, nil for anything else: MPRIS names it by its
    /// `file://` URL rather than the address the device fetches it from.
    public var localFilePath: String? { playingLocalCast?.info.path }

    /// The share of what plays when it is a file of this computer: the single file cast, or the
    /// queue's current item.
    var playingLocalCast: LocalCast? {
        guard let id = media?.contentId else { return nil }
        return ([localCast].compactMap { $0 } + queueCasts).first { $0.media.contentId == id }
    }

    /// Ends the share once the device has shown our media and then moved on.
    func followLocalCast() {
        guard let cast = localCast else { return }
        let current = mediaStatus
        let playingOurs = current?.effectiveMedia?.contentId == cast.media.contentId && current?.playerState != .idle
        if playingOurs {
            localCastSeen = true
            return
        }
        if localCastSeen { endLocalCast() }
    }

    /// Revokes the current local cast's tokens (the server stops when nothing is shared).
    func endLocalCast() {
        guard let cast = localCast else { return }
        localCast = nil
        localCastSeen = false
        if let file = embeddedArtworkPath {
            embeddedArtworkPath = nil
            try? FileManager.default.removeItem(atPath: file)
        }
        let share = mediaShare
        Task { await share.end(cast) }
    }

    static func fileName(_ file: String) -> String {
        (MediaShare.localPath(file) as NSString).lastPathComponent
    }

    /// Embedded cover art written once to a private temporary file for the window to show.
    private func embeddedArtworkFile(for cast: LocalCast) -> String? {
        if let path = embeddedArtworkPath { return path }
        guard let bytes = cast.embeddedArtwork, !bytes.isEmpty else { return nil }
        let dir = (ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? NSTemporaryDirectory())
        let path = (dir as NSString).appendingPathComponent("castdeck-cover-\(cast.tokens.first ?? "art")")
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        else { return nil }
        embeddedArtworkPath = path
        return path
    }
}
