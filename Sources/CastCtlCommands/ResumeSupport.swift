// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import Foundation
import LocalMedia

/// Where castctl remembers playback positions (LocalMedia's PlaybackMemory, the file the
/// window uses too), and whether it may.
///
/// The switch is the window's: the GSettings key `remember-positions` of
/// io.github.castdeck.CastDeck (Preferences → "Remember where playback stopped"), read with
/// the `gsettings` tool (castctl links no GLib), from the uninstalled schemas of this source
/// tree when no installed schema is found, as an uninstalled castdeck does.
/// `CASTDECK_REMEMBER_POSITIONS=0` (or `1`) overrides it for one command or a script. When
/// neither says, it is on (the key's default).
enum ResumeSupport {
    static let schema = "io.github.castdeck.CastDeck"
    static let key = "remember-positions"

    /// The memory to use, nil when remembering is off (or no home directory says where).
    /// The setting is read once per process.
    static func memory() -> PlaybackMemory? { enabled }
    private static let enabled: PlaybackMemory? = isOn() ? PlaybackMemory.standard() : nil

    static func isOn(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let value = environment["CASTDECK_REMEMBER_POSITIONS"].flatMap(parse) { return value }
        return gsetting(environment: environment) ?? true
    }

    static func parse(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
        case "1", "true", "yes", "on": true
        case "0", "false", "no", "off": false
        default: nil
        }
    }

    /// The source tree this castctl was built from (for its uninstalled schemas).
    static let sourceRoot: String = {
        var path = #filePath  // <root>/Sources/CastCtlCommands/ResumeSupport.swift
        for _ in 0..<3 { path = (path as NSString).deletingLastPathComponent }
        return path
    }()

    /// The key's value through `gsettings get`, nil when no schema or no tool answers.
    static func gsetting(environment: [String: String]) -> Bool? {
        if let value = runGSettings(environment) { return value }
        let uninstalled = sourceRoot + "/.build/castdeck-data/schemas"
        guard environment["GSETTINGS_SCHEMA_DIR"] == nil,
            FileManager.default.fileExists(atPath: uninstalled + "/gschemas.compiled")
        else { return nil }
        var env = environment
        env["GSETTINGS_SCHEMA_DIR"] = uninstalled
        return runGSettings(env)
    }

    private static func runGSettings(_ environment: [String: String]) -> Bool? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gsettings", "get", schema, key]
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        // A settings backend that hangs must not hold castctl: 2 s, then no answer.
        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 2, execute: timer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// "Resuming at 42:10 (--start-over to begin at the start)." or, in a queue,
    /// "Resuming at item 3, 1:10 (…)."
    static func resumingLine(_ point: ResumePoint) -> String {
        let at = point.item.map { "item \($0 + 1), " } ?? ""
        return "Resuming at \(at)\(Output.seconds(point.position)) (--start-over to begin at the start).\n"
    }

    /// Says a write failed, once per process (castctl goes on: remembering is a convenience).
    static func warnOnce(_ error: PlaybackMemoryError) {
        guard
            !warned.withLock({
                let was = $0
                $0 = true
                return was
            })
        else { return }
        CastCommand.warn(error.description)
    }
    private static let warned = NSLockedBox(false)

    /// What a stopping or pausing command (`castctl stop`, `pause`) remembers: a link that plays
    /// (another sender's too). Files served by a castctl are remembered by that castctl, which
    /// knows which file it is (the media server's URL names a token, not the file), and the
    /// window's by the window.
    static func rememberLink(_ status: MediaStatus?, position: Double?) {
        guard let media = status?.effectiveMedia, let position,
            let scheme = URL(string: media.contentId)?.scheme?.lowercased(), ["http", "https"].contains(scheme),
            MediaServerURL(media.contentId) == nil, let memory = memory()
        else { return }
        do throws(PlaybackMemoryError) {
            try memory.remember(.link(media.contentId), at: position, duration: media.duration)
        } catch {
            warnOnce(error)
        }
    }
}

/// A value behind a lock (castctl's few process-wide flags).
final class NSLockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func withLock<R>(_ body: (inout T) -> R) -> R { lock.withLock { body(&value) } }
}

/// Follows the media a castctl cast loaded and writes down where it stands (ResumeTracker's
/// rule: every 15 s while it plays, on pause, when it stops; forgotten when it finishes)
/// between `start()` and `stop()`. Ctrl-C (`finishAll`, from the signal handler) writes where
/// it stands before castctl exits.
final class PositionRecorder: @unchecked Sendable {
    let memory: PlaybackMemory
    let session: CastSession
    let mediaSessionId: Int
    let isQueue: Bool
    private let tracker: NSLockedBox<ResumeTracker>
    private let task = NSLockedBox<Task<Void, Never>?>(nil)
    /// What the client last published: the status snapshot and the queue (read from their
    /// streams, never from the client's own state).
    private let seen = NSLockedBox<(snapshot: MediaStatusSnapshot?, queue: MediaQueue)>((nil, MediaQueue()))
    private static let active = NSLockedBox<[ObjectIdentifier: PositionRecorder]>([:])

    init(memory: PlaybackMemory, key: PlaybackKey, session: CastSession, mediaSessionId: Int, isQueue: Bool, interval: Double = 15) {
        self.memory = memory
        self.session = session
        self.mediaSessionId = mediaSessionId
        self.isQueue = isQueue
        tracker = NSLockedBox(ResumeTracker(key: key, interval: interval))
    }

    func start() {
        Self.active.withLock { $0[ObjectIdentifier(self)] = self }
        task.withLock { $0 = Task { await self.run() } }
    }

    /// The cast ended: the last status is taken in (an IDLE the loop had not read yet), then
    /// where it stands is written once.
    func stop() {
        task.withLock { $0?.cancel() }
        if let status = seen.withLock({ $0.snapshot?.status }), status.mediaSessionId == mediaSessionId { observe(status) }
        finish()
        Self.active.withLock { $0[ObjectIdentifier(self)] = nil }
    }

    /// Ctrl-C or SIGTERM: every recorder writes where it stands.
    static func finishAll() {
        for recorder in active.withLock({ Array($0.values) }) { recorder.finish() }
    }

    private func run() async {
        let media = session.media
        let updates = await media.statusUpdates()
        // Subscribing keeps the queue's item ids fetched, for the current item's index.
        let queue = isQueue ? await media.queueUpdates() : nil
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                for await snapshot in updates {
                    seen.withLock { $0.snapshot = snapshot }
                    guard let status = snapshot.status, status.mediaSessionId == mediaSessionId else { continue }
                    observe(status)
                }
            }
            if let queue {
                group.addTask { [self] in
                    // The current item's index is known once the ids are: observe again then.
                    for await q in queue {
                        seen.withLock { $0.queue = q }
                        if let status = seen.withLock({ $0.snapshot?.status }), status.mediaSessionId == mediaSessionId { observe(status) }
                    }
                }
            }
            group.addTask { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    apply { $0.tick(at: .now) }
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func observe(_ status: MediaStatus) {
        guard let state = ResumeTracker.state(of: status) else { return }
        let (latest, q) = seen.withLock { ($0.snapshot, $0.queue) }
        let now = ContinuousClock.now
        // A queue's place is an item and a time in it: wait until the item is known.
        var ended = false
        if case .ended = state { ended = true }
        if isQueue && q.currentIndex == nil && !ended { return }
        let position = latest?.status?.mediaSessionId == status.mediaSessionId ? latest?.streamPosition(at: now) : status.currentTime
        apply {
            $0.status(
                state, position: position, duration: status.effectiveMedia?.duration,
                item: isQueue ? q.currentIndex : nil, itemCount: isQueue && q.count > 0 ? q.count : nil, at: now)
        }
    }

    private func finish() {
        apply { $0.end(at: .now) }
    }

    private func apply(_ step: (inout ResumeTracker) -> ResumeTracker.Report?) {
        // The write happens under the tracker's lock too, so reports are written in order.
        tracker.withLock { t in
            guard let report = step(&t) else { return }
            do throws(PlaybackMemoryError) {
                try memory.apply(report, for: t.key)
            } catch {
                ResumeSupport.warnOnce(error)
            }
        }
    }
}

extension ClientOptions {
    /// `runMediaCommand`, then remembers where the link that played stood (`castctl stop`
    /// reads it just before its command, `castctl pause` from the paused status), after the
    /// device has answered and the connection is closed.
    func runMediaCommandRememberingLink(
        positionBefore: Bool, _ command: @escaping @Sendable (RemoteMediaClient) async throws(CastClientError) -> Void
    ) async throws {
        let seen = NSLockedBox<(status: MediaStatus?, position: Double?)>((nil, nil))
        try await runMediaCommand { media throws(CastClientError) in
            let read = { @Sendable () async in
                let snapshot = await media.snapshot
                seen.withLock { $0 = (snapshot.status, snapshot.streamPosition(at: .now)) }
            }
            if positionBefore { await read() }
            try await command(media)
            if !positionBefore { await read() }
        }
        let (status, position) = seen.withLock { $0 }
        ResumeSupport.rememberLink(status, position: position)
    }
}
