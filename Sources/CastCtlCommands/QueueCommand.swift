// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import CastClient
import CastProtocol
import Foundation
import LocalMedia

/// `castctl queue`: list and edit the queue of what plays. Positions are 1-based, as the
/// list shows them. Every edit prints the queue as it is afterwards.
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "List or edit the queue (positions are 1-based, as listed).",
        subcommands: [List.self, Add.self, Remove.self, Move.self, Jump.self, Repeat.self, Shuffle.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the queue; * marks the current item.")
        @OptionGroup var options: ClientOptions
        func run() async throws {
            try await options.editQueue { _, _ in }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add files, folders, playlists or URLs at the end (or after the current item with --next).",
            discussion: "Files are served from this computer: castctl then stays in the foreground until the queue ends (Ctrl-C stops).")
        @OptionGroup var options: ClientOptions
        @Argument(help: ArgumentHelp("What to add.", valueName: "PATH|URL")) var sources: [String] = []
        @Flag(help: "Play them next: insert them right after the current item.") var next = false
        @Flag(help: "With a folder: include its subfolders.") var recursive = false
        @Option(name: .customLong("media-port"), help: ArgumentHelp("Serve files on this port.", valueName: "PORT")) var mediaPort: Int?

        func validate() throws {
            guard !sources.isEmpty else { throw ValidationError("Give at least one file, folder, playlist or URL to add.") }
            if let mediaPort, !(1...65535).contains(mediaPort) { throw ValidationError("--media-port must be a TCP port (1–65535).") }
        }

        func run() async throws {
            let expansion: QueueSources.Expansion
            do {
                expansion = try QueueSources.expand(sources, recursive: recursive)
            } catch {
                throw CommandFailure(error.description)
            }
            for w in expansion.warnings { CastCommand.warn(w) }
            guard !expansion.entries.isEmpty else { throw CommandFailure("Nothing to add: \(sources.joined(separator: ", ")) holds no media.") }
            let share = MediaShare(port: mediaPort.map { .exactly($0) } ?? .default)
            let next = next
            try await options.editQueue { session, _ in
                let ends = try await session.connectionEndpoints()
                let built = try await QueueBuilder.items(for: expansion.entries, share: share, device: ends.remote, localAddress: ends.local)
                if next {
                    try await session.media.queueInsertNext(built.items)
                } else {
                    try await session.media.queueInsert(built.items)
                }
                return built.casts
            } after: { session, casts in
                guard !casts.isEmpty, let id = await session.media.status?.mediaSessionId else { return }
                Console.err("castctl: serving \(casts.count) file(s) until the queue ends; Ctrl-C stops.\n")
                CastCommand.exitOnInterrupt()
                await CastCommand.waitUntilEnd(of: session, updates: await session.media.statusUpdates(), mediaSessionId: id)
                for c in casts { await share.end(c) }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove the items at these positions.")
        @OptionGroup var options: ClientOptions
        @Argument(help: ArgumentHelp("Positions (1-based).", valueName: "N")) var positions: [Int] = []
        func validate() throws {
            guard !positions.isEmpty else { throw ValidationError("Give the position of at least one item to remove.") }
            try QueueCommand.validatePositions(positions)
        }
        func run() async throws {
            let positions = positions
            try await options.editQueue { session, queue in
                let ids = try QueueCommand.ids(at: positions, in: queue)
                try await session.media.queueRemove(ids)
            }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move the item at position N so that it becomes position TO.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The item's position.") var from: Int
        @Argument(help: "Its new position.") var to: Int
        func validate() throws { try QueueCommand.validatePositions([from, to]) }
        func run() async throws {
            let (from, to) = (from, to)
            try await options.editQueue { session, queue in
                _ = try QueueCommand.ids(at: [from, to], in: queue)
                try await session.media.queueMove(from: from - 1, to: to - 1)
            }
        }
    }

    struct Jump: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "jump", abstract: "Play the item at position N now.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The item's position.") var position: Int
        func validate() throws { try QueueCommand.validatePositions([position]) }
        func run() async throws {
            let position = position
            try await options.editQueue { session, queue in
                let ids = try QueueCommand.ids(at: [position], in: queue)
                try await session.media.queueJump(to: ids[0])
            }
        }
    }

    struct Repeat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repeat", abstract: "Set the repeat mode: off, all, one, or shuffle (repeat all, reshuffled each time round).")
        @OptionGroup var options: ClientOptions
        @Argument(help: ArgumentHelp("off, all, one or shuffle.", valueName: "MODE")) var mode: QueueRepeatArgument
        func run() async throws {
            let mode = mode.mode
            try await options.editQueue { session, _ in try await session.media.setRepeatMode(mode) }
        }
    }

    struct Shuffle: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "shuffle", abstract: "Shuffle the queue once (the current item stays current).")
        @OptionGroup var options: ClientOptions
        func run() async throws {
            try await options.editQueue { session, _ in try await session.media.queueShuffle() }
        }
    }

    static func validatePositions(_ positions: [Int]) throws {
        if let bad = positions.first(where: { $0 < 1 }) {
            throw ValidationError("Positions start at 1 (as `castctl queue` lists them); \(bad) is not one.")
        }
    }

    /// The ids at 1-based positions, or a failure naming the queue's length.
    static func ids(at positions: [Int], in queue: MediaQueue) throws -> [Int] {
        try positions.map { p in
            guard queue.itemIDs.indices.contains(p - 1) else {
                throw CommandFailure("There is no item \(p): the queue has \(queue.count) item\(queue.count == 1 ? "" : "s").")
            }
            return queue.itemIDs[p - 1]
        }
    }
}

/// What `castctl queue --json` prints.
struct QueueReport: Encodable {
    struct Item: Encodable {
        var position: Int
        var itemId: Int
        var current: Bool
        var title: String?
        var artist: String?
        var duration: Double?
        var contentId: String?
    }
    var device: String
    var repeatMode: String
    var currentPosition: Int?
    var count: Int
    var items: [Item]

    var text: String {
        guard !items.isEmpty else { return "The queue is empty." }
        let width = String(items.count).count
        var lines = items.map { i in
            let n = String(i.position)
            var line = (i.current ? "* " : "  ") + String(repeating: " ", count: width - n.count) + n + "  " + (i.title ?? i.contentId ?? "?")
            if let a = i.artist, !a.isEmpty { line += " — " + a }
            if let d = i.duration, d > 0 { line += "  " + Output.seconds(d) }
            return line
        }
        lines.append("Repeat: \(repeatMode)")
        return lines.joined(separator: "\n")
    }
}

extension ClientOptions {
    /// Joins what plays, fetches the queue, runs `edit` (given the queue before it) and
    /// prints the queue after it; `after` then runs with the session still open.
    func editQueue<T: Sendable>(
        _ edit: @Sendable (CastSession, MediaQueue) async throws -> T,
        after: @Sendable (CastSession, T) async throws -> Void = { _, _ in }
    ) async throws {
        let device = try await target.resolve()
        // Off the network thread: adding local files probes them and serves them while the session is open.
        let report = try await withSession(networkThread: false) { session in
            try await joinMedia(session)
            let before = try await session.media.refreshQueue()
            let value = try await edit(session, before)
            let report = try await Self.queueReport(session, device: device.name)
            self.emit(json: report, text: report.text)
            fflush(nil)
            try await after(session, value)
            return report
        }
        _ = report
    }

    static func queueReport(_ session: CastSession, device: String) async throws -> QueueReport {
        let queue = try await session.media.refreshQueue()
        let items = try await session.media.queueItems(at: 0..<queue.count)
        var byID: [Int: QueueItem] = [:]
        for i in items { if let id = i.itemId { byID[id] = i } }
        let rows = queue.itemIDs.enumerated().map { (index, id) -> QueueReport.Item in
            let media = byID[id]?.media
            return QueueReport.Item(
                position: index + 1, itemId: id, current: id == queue.currentItemID, title: media?.metadata?.displayTitle,
                artist: media?.metadata?.artist ?? media?.metadata?.albumArtist, duration: media?.duration, contentId: media?.contentId)
        }
        return QueueReport(
            device: device, repeatMode: QueueRepeatArgument.name(of: queue.repeatMode), currentPosition: queue.currentIndex.map { $0 + 1 },
            count: queue.count, items: rows)
    }
}
