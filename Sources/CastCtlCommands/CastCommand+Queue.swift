// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import CastClient
import CastProtocol
import Foundation
import LocalMedia

/// `castctl cast A B C`, `cast DIR [--recursive]`, `cast LIST.m3u`: a queue. Files are
/// served as `castctl cast FILE` serves one, and castctl stays in the foreground while the
/// queue plays when it serves any; a queue of URLs only returns at once.
extension CastCommand {
    func validateQueue() throws {
        for (flag, given) in [
            ("--title", title != nil), ("--subtitle", !subtitles.isEmpty), ("--poster", poster != nil),
            ("--content-type", contentType != nil), ("--ad-breaks", adBreaks != nil), ("--rate", rate != nil),
        ] where given {
            throw ValidationError("\(flag) applies to a single item; a queue takes titles from the files' tags or the playlist.")
        }
        if let start, !(start >= 0) { throw ValidationError("--start must be 0 or more seconds.") }
        if let mediaPort, !(1...65535).contains(mediaPort) { throw ValidationError("--media-port must be a TCP port (1–65535).") }
        guard app.count == 8, app.allSatisfy(\.isHexDigit) else { throw ValidationError("--app must be an 8-character hexadecimal app id.") }
    }

    func runQueue() async throws {
        let expansion: QueueSources.Expansion
        do {
            expansion = try QueueSources.expand(sources, recursive: recursive)
        } catch {
            throw CommandFailure(error.description)
        }
        for w in expansion.warnings { Self.warn(w) }
        guard !expansion.entries.isEmpty else { throw CommandFailure("Nothing to cast: \(sources.joined(separator: ", ")) holds no media.") }
        let share = MediaShare(port: mediaPort.map { .exactly($0) } ?? .default)
        let device = try await options.target.resolve()
        let (start, app, mode) = (start, app, repeatMode?.mode ?? .off)
        let resumeKey = PlaybackKey.queue(sources: sources, recursive: recursive), resumed = remembered(resumeKey)  // CastCommand+Resume.swift
        try await options.withSession(networkThread: false) { session in
            let ends = try await session.connectionEndpoints()
            let built = try await QueueBuilder.items(
                for: expansion.entries, share: share, device: ends.remote, localAddress: ends.local, model: model, surround: surround)
            try await session.start(appID: app)
            let updates = await session.media.statusUpdates()
            // A remembered item that is no longer there (files left out, the folder changed): the first.
            let first = resumed?.item.flatMap { built.items.indices.contains($0) ? $0 : nil }
            let loaded = try await session.media.queueLoad(
                built.items, startIndex: first ?? 0, repeatMode: mode, startTime: start ?? (first != nil ? resumed?.position : nil))
            let report = await StatusReport(device: device.name, session: session, info: await session.sessionInfo)
            let serving = built.casts.isEmpty ? "" : "; serving \(built.casts.count) file(s) until the queue ends, Ctrl-C stops"
            let titles = built.items.prefix(3).map { "“\($0.media?.metadata?.displayTitle ?? $0.media?.contentId ?? "?")”" }.joined(separator: ", ")
            let more = built.items.count > 3 ? ", …" : ""
            options.emit(json: report, text: "Casting \(built.items.count) items to \(device.name): \(titles)\(more)\(serving).")
            fflush(nil)  // castctl may serve for a long time: the line must reach a pipe now
            guard !built.casts.isEmpty, let id = loaded?.mediaSessionId else { return }
            Self.exitOnInterrupt()
            let positions = Self.recordPositions(of: resumeKey, session: session, mediaSessionId: id, isQueue: true)
            await Self.waitUntilEnd(of: session, updates: updates, mediaSessionId: id)
            positions?.stop()
            for c in built.casts { await share.end(c) }
        }
    }
}

/// `--repeat` / `queue repeat` values.
enum QueueRepeatArgument: String, ExpressibleByArgument, CaseIterable {
    case off, all, one, shuffle
    var mode: RepeatMode {
        switch self {
        case .off: .off
        case .all: .all
        case .one: .single
        case .shuffle: .allAndShuffle
        }
    }
    static func name(of mode: RepeatMode) -> String {
        switch mode {
        case .off: "off"
        case .all: "all"
        case .single: "one"
        case .allAndShuffle: "shuffle"
        case .unknown(let raw): raw
        }
    }
}

/// Queue entries → queue items (LocalMedia's `MediaShare.queueItems`), with castctl's
/// warnings; entries that cannot be cast are left out, none at all is an error.
enum QueueBuilder {
    static func items(
        for entries: [QueueEntry], share: MediaShare, device: String, localAddress: String, model: String? = nil, surround: Bool = false
    ) async throws -> QueueBatch {
        let batch = await share.queueItems(for: entries, device: device, localAddress: localAddress, model: model, surround: surround)
        for w in batch.warnings { CastCommand.warn(w) }
        for f in batch.failures { CastCommand.warn(f + " It is left out of the queue.") }
        guard !batch.items.isEmpty else {
            for c in batch.casts { await share.end(c) }
            throw CommandFailure(batch.failures.first.map { "Nothing could be cast: \($0)" } ?? "Nothing to cast.")
        }
        return batch
    }
}
