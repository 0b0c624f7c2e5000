// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import LocalMedia

/// The queue in the window: rows rendered from CastClient's `MediaQueue`, items fetched
/// only for the rows looked at, and the queue commands of the command table.
extension AppModel {
    /// One row of the queue list.
    public struct QueueRow: Equatable, Sendable {
        public var itemID: Int
        /// The title, or "Loading…" until the item is fetched.
        public var title: String
        /// Artist and duration ("The Testers · 3:25", joined by `Localization.separator`), empty when unknown.
        public var detail: String
        /// The item's images: the row asks for the one that fits it (`queueThumbnail`).
        public var artwork: [CastImage]
        public var isCurrent: Bool
        public var isLoaded: Bool
        /// Audio, video or picture: the row's icon while it has no artwork.
        public var kind: MediaKind = .video

        /// The row's images as one key (their URLs), nil when it has none.
        public var artworkKey: String? { artwork.isEmpty ? nil : artwork.map(\.url).joined(separator: "|") }
    }

    /// Rows for every item of the queue, in order.
    public var queueRows: [QueueRow] {
        queue.itemIDs.map { id in
            let item = queue.cachedItems[id]
            let metadata = item?.media?.metadata
            var detail: [String] = []
            if let artist = metadata?.artist ?? metadata?.albumArtist ?? metadata?.subtitle, !artist.isEmpty { detail.append(shortened(artist)) }
            if let d = item?.media?.duration, d > 0 { detail.append(formatTime(d)) }
            let title = shortened(metadata?.displayTitle ?? item?.media.map { Self.nameOf($0.contentId) } ?? tr("Loading…"))
            return QueueRow(
                itemID: id, title: title, detail: Localization.joinParts(detail), artwork: metadata?.images ?? [],
                isCurrent: id == queue.currentItemID, isLoaded: item != nil, kind: MediaKind(item?.media))
        }
    }

    /// Whether there is a queue to move through (Previous / Next show then).
    public var hasQueue: Bool { hasMedia && queue.hasQueue }

    static func nameOf(_ url: String) -> String {
        let last = url.split(separator: "/").last.map(String.init) ?? url
        return last.removingPercentEncoding ?? last
    }

    func followQueue(_ session: CastSession) -> Task<Void, Never> {
        Task { [weak self] in
            for await q in await session.media.queueUpdates() {
                guard let self, self.session === session else { return }
                self.queue = q
                self.resumeStatus()  // the current item's index, for where a queue stopped
            }
        }
    }

    /// Fetches the items of rows `range` (0-based) not fetched yet, a window at a time:
    /// the list asks for what it shows.
    public func loadQueueItems(_ range: Range<Int>) async {
        guard let media = session?.media else { return }
        let missing = range.clamped(to: 0..<queue.count).filter { queue.item(at: $0) == nil }
        guard let first = missing.first, let last = missing.last else { return }
        do {
            _ = try await media.queueItems(at: first..<(last + 1))
        } catch {
            post(error.description)
        }
    }

    // MARK: commands (through the command table)

    func queueCommand(_ body: (RemoteMediaClient) async throws(CastClientError) -> Void) async {
        guard let media = session?.media else { return }
        do {
            try await body(media)
        } catch {
            fail(error, device: sessionDeviceName)
        }
    }

    /// Off → all → one → off; "shuffle" (all and shuffle) counts as all.
    public static func nextRepeatMode(after mode: RepeatMode) -> RepeatMode {
        switch mode {
        case .off: .all
        case .all, .allAndShuffle: .single
        default: .off
        }
    }

    /// The repeat modes `setRepeatMode` takes, by index.
    public static let repeatModes: [RepeatMode] = [.off, .all, .single, .allAndShuffle]

    func setRepeat(_ mode: RepeatMode) async {
        guard mode != queue.repeatMode else { return }
        await queueCommand { m throws(CastClientError) in try await m.setRepeatMode(mode) }
    }

    func cycleRepeat() async {
        let next = Self.nextRepeatMode(after: queue.repeatMode)
        await queueCommand { m throws(CastClientError) in try await m.setRepeatMode(next) }
    }

    /// On: shuffle once now and reshuffle each time round (REPEAT_ALL_AND_SHUFFLE); off: repeat all.
    func toggleShuffle() async {
        let on = queue.repeatMode == .allAndShuffle
        await queueCommand { m throws(CastClientError) in
            if on {
                try await m.setRepeatMode(.all)
            } else {
                try await m.queueShuffle()
                try await m.setRepeatMode(.allAndShuffle)
            }
        }
    }

    func moveQueueItem(_ id: Int, by offset: Int) async {
        guard let from = queue.itemIDs.firstIndex(of: id) else { return }
        let to = from + offset
        guard queue.itemIDs.indices.contains(to) else { return }
        await queueCommand { m throws(CastClientError) in try await m.queueMove(from: from, to: to) }
    }

    /// Moves item `id` to the place of item `target` (the rows between shift by one).
    func moveQueueItem(_ id: Int, onto target: Int) async {
        guard id != target, let from = queue.itemIDs.firstIndex(of: id), let to = queue.itemIDs.firstIndex(of: target) else { return }
        await queueCommand { m throws(CastClientError) in try await m.queueMove(from: from, to: to) }
    }

    func playQueueItemNext(_ id: Int) async {
        guard let from = queue.itemIDs.firstIndex(of: id), let current = queue.currentIndex, from != current else { return }
        let to = from > current ? current + 1 : current
        guard to != from else { return }
        await queueCommand { m throws(CastClientError) in try await m.queueMove(from: from, to: to) }
    }
}

// MARK: casting into the queue

extension AppModel {
    /// Where cast files go when something already plays.
    public enum QueuePlacement: String, Sendable, CaseIterable {
        /// Replace what plays with these (a new queue).
        case playNow = "now"
        /// Right after the current item.
        case playNext = "next"
        /// At the end of the queue.
        case addToQueue = "queue"
    }

    /// Whether casting now should ask where the files go (something is loaded).
    public var castingShouldAsk: Bool { isConnected && hasMedia && mediaStatus?.playerState != .idle }

    /// Casts files, folders (their media in natural order) and playlists into the queue:
    /// a new queue (`playNow`), after the current item, or at the end. Files are served
    /// while the queue's media session lasts. A new queue that stopped part-way before asks
    /// whether to go on from there (AppModel+Resume.swift).
    public func castQueue(_ files: [String], mode: QueuePlacement, askToResume: Bool = true) async {
        guard let session, case .connected = connection else {
            pendingFiles = files
            post(tr("Choose a device to cast {0}.", files.first.map(Self.fileName) ?? ""))
            return
        }
        let newQueue = !hasMedia || mode == .playNow
        let key = newQueue ? await queueKey(files) : nil
        var resumed: ResumePoint?
        if askToResume, newQueue {
            // A folder's or playlist's name; of several files, the first's.
            switch await resumeStart(for: key, title: files.first.map(Self.fileName) ?? "") {
            case .cancelled: return
            case .at(let point): resumed = point
            case .fromStart: break
            }
        }
        let expansion: QueueSources.Expansion
        do {
            expansion = try QueueSources.expand(files, recursive: false)
        } catch {
            post(error.description)
            return
        }
        for w in expansion.warnings { post(w) }
        let (items, casts) = await queueItems(for: expansion.entries, session: session)
        guard !items.isEmpty, self.session === session else {
            for c in casts { await mediaShare.end(c) }
            if items.isEmpty, expansion.warnings.isEmpty { post(tr("Nothing to cast in {0}.", files.first.map(Self.fileName) ?? "")) }
            return
        }
        let placement = hasMedia ? mode : .playNow
        // A remembered item no longer there (a file left out, the folder changed): the first.
        let first = resumed?.item.flatMap { items.indices.contains($0) ? $0 : nil }
        let loaded: Bool
        do {
            loaded = try await place(items, placement, session: session, from: first ?? 0, at: first != nil ? resumed?.position : nil)
        } catch {
            for c in casts { await mediaShare.end(c) }
            post(error.description)
            return
        }
        if loaded { endQueueCasts() }
        adopt(await session.media.snapshot, from: session)
        // The shares and the media session they belong to are set together, with no suspension
        // between: a status taken in between would find shares of no session and end them
        // (the quit question then offered Keep Playing for files served from here).
        queueCasts += casts
        queueCastsSession = snapshot?.status?.mediaSessionId
        if loaded { followResume(key, contentId: nil) }
    }

    /// Loads a new queue (true) or inserts into the current one (false).
    private func place(
        _ items: [QueueItem], _ placement: QueuePlacement, session: CastSession,
        from startIndex: Int, at startTime: Double?
    ) async throws(CastClientError) -> Bool {
        switch placement {
        case .playNext:
            try await session.media.queueInsertNext(items)
            return false
        case .addToQueue:
            try await session.media.queueInsert(items)
            return false
        case .playNow:
            try await self.startOwnApp(session)  // AppModel+ForeignApp.swift
            try await session.media.queueLoad(items, startIndex: startIndex, repeatMode: .off, startTime: startTime)
            return true
        }
    }

    /// Queue items for entries (LocalMedia shares the files); what cannot be cast is a notice.
    private func queueItems(for entries: [QueueEntry], session: CastSession) async -> ([QueueItem], [LocalCast]) {
        do {
            let ends = try await session.connectionEndpoints()
            let device = connectedDevice
            let batch = await mediaShare.queueItems(
                for: entries, device: ends.remote, localAddress: ends.local, model: device?.model,
                surround: device.map { sendsSurround(to: $0.id) } ?? false, words: Localization.trackWords, languages: Localization.preferredLanguages)
            for text in batch.warnings + batch.failures { post(text) }
            return (batch.items, batch.casts)
        } catch {
            post(error.description)
            return ([], [])
        }
    }

    /// Ends the queue's shares once its media session is over (a new LOAD, or the session gone).
    func followQueueCasts() {
        guard !queueCasts.isEmpty else { return }
        let id = mediaStatus?.mediaSessionId
        if id == nil || id != queueCastsSession || mediaStatus?.playerState == .idle { endQueueCasts() }
    }

    func endQueueCasts() {
        let casts = queueCasts
        queueCasts = []
        queueCastsSession = nil
        let share = mediaShare
        Task { for c in casts { await share.end(c) } }
    }
}
