// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import CastClient
import CastProtocol
import Foundation
import LocalMedia

/// `castctl cast PATH` (or a `file://` URL): serves the file from this computer, loads it,
/// prints one line and keeps serving in the foreground until the media ends (IDLE) or
/// Ctrl-C, then exits 0. Exit 1 with one line when the file cannot be read or cast.
extension CastCommand {
    static func isLocal(_ text: String) -> Bool { MediaShare.isLocal(text) }

    func validateLocal() throws {
        if let mediaPort, !(1...65535).contains(mediaPort) {
            throw ValidationError("--media-port must be a TCP port (1–65535).")
        }
    }

    func runLocal() async throws {
        let share = MediaShare(port: mediaPort.map { .exactly($0) } ?? .default)
        let device = try await options.target.resolve()
        let (start, rate, app, file, extra, title) = (start, rate, app, url, subtitles, title)
        try await options.withSession { session in
            let ends = try await session.connectionEndpoints()
            let cast: LocalCast
            do {
                cast = try await share.prepare(file: file, extraSubtitles: extra, device: ends.remote, localAddress: ends.local)
            } catch let error as LocalMediaError {
                throw CommandFailure(error.description)
            }
            for w in cast.warnings { Self.warn(w) }
            var media = cast.media
            if let title { media.metadata?.title = title }
            try await session.start(appID: app)
            let updates = session.media.statusUpdates()
            let loaded = try await session.media.load(media, autoplay: true, startTime: start, playbackRate: rate)
            let name = (MediaShare.localPath(file) as NSString).lastPathComponent
            let subs = cast.subtitles.isEmpty ? "no subtitles" : "subtitles: " + cast.subtitles.map(\.name).joined(separator: ", ")
            let line = "Casting \(name) to \(device.name) from \(media.contentId) (\(subs)); serving until it ends, Ctrl-C stops.\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            Self.exitOnInterrupt()
            await Self.waitUntilEnd(of: session, updates: updates, mediaSessionId: loaded.mediaSessionId)
            await share.end(cast)
        }
    }

    /// Returns when the media session that was loaded goes IDLE (finished, stopped,
    /// replaced, failed) or the link to the device drops.
    static func waitUntilEnd(of session: CastSession, updates: AsyncStream<MediaStatus?>, mediaSessionId: Int) async {
        let states = session.stateUpdates()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await status in updates {
                    // nil (no media yet, replayed on subscription) and statuses of an older
                    // session (its INTERRUPTED, sent before our LOAD's reply) do not count.
                    guard let status else { continue }
                    if status.mediaSessionId > mediaSessionId || (status.mediaSessionId == mediaSessionId && status.playerState == .idle) { return }
                }
            }
            group.addTask {
                for await state in states {
                    if case .disconnected = state { return }
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    static func warn(_ text: String) {
        FileHandle.standardError.write(Data("castctl: warning: \(text)\n".utf8))
    }

    /// Ctrl-C (or SIGTERM) while serving is the normal way to stop: exit 0.
    static func exitOnInterrupt() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { Foundation.exit(0) }
            source.resume()
            retainedSignalSources.append(source)
        }
    }
}

nonisolated(unsafe) private var retainedSignalSources: [any DispatchSourceSignal] = []

