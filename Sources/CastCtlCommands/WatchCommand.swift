// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastProtocol
import Foundation

/// `castctl watch`: one line (or JSON object) per status change until Ctrl-C.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print every status change (media, device, connection) until interrupted.")

    @OptionGroup var options: ClientOptions

    struct Event: Encodable, Sendable {
        var event: String
        var state: String?
        var media: MediaStatus?
        var metadata: MediaInformation?
        var receiver: ReceiverStatus?
        var position: Double?
        var warning: String?
        /// How the app session went away (SessionEnding's sentence).
        var ended: String?
        /// A speaker group's members (WatchCommand+Group.swift) and what changed in words.
        var group: GroupReport?
        var change: String?
    }

    func run() async throws {
        let json = options.json
        let device = try await options.target.resolve()
        let ends = SessionEndWatch(device: device.name)
        let moves = MoveWatch()
        try await options.withSession(reconnect: true, networkThread: false) { session in
            _ = await session.groupUpdates()  // a group's members are asked for on every link
            let status = try await session.connect()
            if status.applications?.contains(where: { $0.isIdleScreen != true }) == true {
                try await session.join()
            }
            let out: @Sendable (Event, String) -> Void = { e, line in
                // Unbuffered, so that a pipe reader sees each change at once.
                Console.out(((json ? Output.json(e) : Output.terminalSafe(line)) + "\n"))
            }
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await state in session.stateUpdates() {
                        await ends.state(state)
                        out(Event(event: "state", state: state.description), "state: \(state)")
                        if let moved = await moves.state(state, session: session) { out(Event(event: "moved", change: moved), moved) }
                    }
                }
                group.addTask { await Self.followGroup(session, out: out) }
                group.addTask {
                    for await snapshot in await session.media.statusUpdates() {
                        let media = snapshot.status
                        await ends.media(media)
                        let p = snapshot.streamPosition(at: .now)
                        out(Event(event: "media", media: media, position: p), "media: " + Output.mediaLine(media, position: p, live: snapshot.live(at: .now)))
                    }
                }
                group.addTask {
                    for await info in await session.media.metadataUpdates() {
                        await ends.metadata(info)
                        let title = info?.metadata?.displayTitle ?? info?.contentId ?? "none"
                        out(Event(event: "metadata", metadata: info), "metadata: \(title)")
                    }
                }
                group.addTask {
                    for await r in await session.receiverStatusUpdates() {
                        let app = r.applications?.first.map { $0.displayName ?? $0.appId } ?? "none"
                        let vol = r.volume?.level.map { Output.percent($0) } ?? "?"
                        out(Event(event: "receiver", receiver: r), "device: app \(app), volume \(vol)\(r.volume?.muted == true ? " (muted)" : "")")
                        if let (_, sentence) = await ends.receiver(r) { out(Event(event: "ended", ended: sentence), "ended: \(sentence)") }
                    }
                }
                group.addTask {
                    for await w in session.warnings() {
                        out(Event(event: "warning", warning: w.description), "warning: \(w)")
                    }
                }
                // Joining a session that starts later: when the device launches an app, join it.
                group.addTask {
                    for await r in await session.receiverStatusUpdates() {
                        if await session.sessionInfo == nil, r.applications?.contains(where: { $0.isIdleScreen != true }) == true {
                            _ = try? await session.join()
                        }
                    }
                }
                await group.waitForAll()
            }
        }
    }
}
