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
        if let burnSubtitles, burnSubtitles < 1 { throw ValidationError("--burn-subtitles takes a subtitle stream number from 1 (see --plan).") }
    }

    /// `--plan`: probe and plan, print, cast nothing.
    func printPlan() async throws {
        let share = MediaShare(port: .default)
        let file = MediaShare.localPath(url)
        do {
            let (_, plan) = try await share.plan(file: file, model: model, burnSubtitles: burnSubtitles, surround: surround)
            if options.json {
                print(Output.json(PlanReport(plan, file: file)))
            } else {
                print(plan.lines(fileName: (file as NSString).lastPathComponent).joined(separator: "\n"))
            }
        } catch {
            throw CommandFailure(error.description)
        }
    }

    func runLocal() async throws {
        if plan { return try await printPlan() }
        Timings.begin()
        let share = MediaShare(port: mediaPort.map { .exactly($0) } ?? .default)
        let (start, rate, app, file, extra, title, model, burn, surround) = (start, rate, app, url, subtitles, title, model, burnSubtitles, surround)
        // The file is read (probe, plan, segments planned, the conversion started) while the
        // device is found and connected to; the app is launched once the file is known to play.
        // Where it stopped last time (CastCommand+Resume.swift), looked up beside the probe: the
        // conversion starts there.
        let lookup = Task { () -> (key: PlaybackKey?, point: ResumePoint?) in
            let key = try? PlaybackKey.file(file)
            return (key, remembered(key))
        }
        let inspecting = Task { () async throws(LocalMediaError) -> PreparedFile in
            try await share.inspect(
                file: file, extraSubtitles: extra, model: model, burnSubtitles: burn, surround: surround,
                startAt: {
                    if let start { return start }
                    return await lookup.value.point?.position
                })
        }
        let prepared: () async throws -> PreparedFile = {
            do {
                let p = try await inspecting.value
                Timings.report(p.timings)
                return p
            } catch {
                throw CommandFailure((error as? LocalMediaError)?.description ?? "\(error)")
            }
        }
        let (resumeKey, resumed) = await lookup.value
        let startAt = start ?? resumed?.position
        let device: ResolvedDevice
        do {
            device = try await options.target.resolve()
        } catch {
            if let p = try? await prepared() { share.discard(p) }
            throw error
        }
        try await options.withSession(networkThread: false) { session in
            let ends: ConnectionEndpoints
            do {
                ends = try await session.connectionEndpoints()
                Timings.mark("connected")
            } catch {
                if let p = try? await prepared() { share.discard(p) }
                throw error
            }
            let ready = try await prepared()
            Self.exitOnInterrupt()
            // The device launches its app while the first segment is made.
            let launch = Task { try await session.start(appID: app) }
            if let hls = ready.hls {
                // The device asks for the first segment as soon as it loads: have it ready.
                do {
                    try await hls.waitForFirstSegment()
                    Timings.mark("first segment")
                } catch {
                    share.discard(ready)
                    _ = try? await launch.value
                    throw CommandFailure((error as? LocalMediaError)?.description ?? "\(error)")
                }
            }
            let cast: LocalCast
            do {
                cast = try await share.publish(ready, device: ends.remote, localAddress: ends.local)
            } catch {
                share.discard(ready)
                _ = try? await launch.value
                throw CommandFailure((error as? LocalMediaError)?.description ?? "\(error)")
            }
            for w in cast.warnings { Self.warn(w) }
            var media = cast.media
            if let title { media.metadata?.title = title }
            let loaded: MediaStatus
            let updates = await session.media.statusUpdates()
            do {
                _ = try await launch.value
                Timings.mark("app launched")
                loaded = try await session.media.load(media, autoplay: true, startTime: startAt, playbackRate: rate)
                Timings.mark("loaded")
            } catch {
                await share.end(cast)
                throw error
            }
            if let later = cast.laterWarnings {
                Task { for w in await later.value { Self.warn(w) } }
            }
            let name = (MediaShare.localPath(file) as NSString).lastPathComponent
            let subs = cast.subtitles.isEmpty ? "no subtitles" : "subtitles: " + cast.subtitles.map(\.name).joined(separator: ", ")
            var how = ""
            if let plan = cast.plan, plan.delivery == .hls {
                let converted = plan.steps.filter { $0.action == .convert }.count
                how = converted == 0 ? " as HLS, copied" : " as HLS, converting \(converted) \(converted == 1 ? "stream" : "streams")"
                let renditions = cast.hls?.renditions.filter { !$0.isVideo }.count ?? 0
                if renditions > 1 { how += ", \(renditions) audio tracks" }
            }
            let line = "Casting \(name) to \(device.name) from \(media.contentId)\(how) (\(subs)); serving until it ends, Ctrl-C stops.\n"
            Console.out(line)
            let positions = Self.recordPositions(of: resumeKey, session: session, mediaSessionId: loaded.mediaSessionId)
            let failure: String? = await withTaskGroup(of: String?.self) { group in
                group.addTask {
                    await Self.waitUntilEnd(of: session, updates: updates, mediaSessionId: loaded.mediaSessionId)
                    return nil
                }
                if let hls = cast.hls {
                    group.addTask { await hls.nextFailure() }
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
            positions?.stop()
            await share.end(cast)
            if let failure {
                _ = try? await session.media.stop()
                throw CommandFailure(LocalMediaError.converterFailed(file: name, reason: failure).description)
            }
        }
    }

    /// Returns when the media session that was loaded goes IDLE (finished, stopped,
    /// replaced, failed) or the link to the device drops.
    static func waitUntilEnd(of session: CastSession, updates: AsyncStream<MediaStatusSnapshot>, mediaSessionId: Int) async {
        let states = session.stateUpdates()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await snapshot in updates {
                    let status = snapshot.status
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
        Console.err("castctl: warning: \(text)\n")
    }

    /// Ctrl-C (or SIGTERM) while serving is the normal way to stop: exit 0.
    static func exitOnInterrupt() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                PositionRecorder.finishAll()  // where it stands is written down first
                // No converter may outlive castctl (the scratch folders go with their casts).
                MediaShare.abandonAll()
                Foundation.exit(0)
            }
            source.resume()
            retainedSignalSources.append(source)
        }
    }
}

/// `castctl cast FILE --plan --json`.
struct PlanReport: Encodable {
    struct Stream: Encodable {
        var index: Int
        var type: String
        var codec: String
        var action: String
        var reason: String
        var subtitleNumber: Int?
    }
    var file: String
    var device: String
    var delivery: String
    var duration: Double
    var streams: [Stream]

    init(_ plan: ConversionPlan, file: String) {
        self.file = file
        device = plan.device.name
        delivery = plan.delivery.rawValue
        duration = plan.duration
        streams = plan.steps.map {
            Stream(
                index: $0.stream.index, type: $0.stream.isAttachedPicture ? "cover" : $0.stream.codecType ?? "data", codec: $0.stream.codecName ?? "unknown",
                action: $0.action.rawValue, reason: $0.reason, subtitleNumber: $0.subtitleNumber)
        }
    }
}

nonisolated(unsafe) private var retainedSignalSources: [any DispatchSourceSignal] = []
