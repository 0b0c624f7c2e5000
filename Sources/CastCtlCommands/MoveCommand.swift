// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastProtocol
import Foundation
import LocalMedia

/// `castctl move --to DEVICE [--device SOURCE]`: moves what plays to another device with
/// CastClient's `StreamTransfer` (the same the window's Move to… runs).
///
/// Files served from this computer are refused: the castctl that cast them serves them to
/// the source device's address only (tokens are bound to it), and it is another process, so
/// this one can neither re-share them nor keep them served after it exits. The sentence says
/// to cast the file to the other device instead.
struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move what plays to another device: the queue, position, tracks, style and rate go along.",
        discussion: """
            Joins whatever plays on --device (any app on the media namespace), starts the same on --to at the \
            same position, waits until it plays there, then stops the media on --device.
            Example: castctl move --device "Living Room" --to Kitchen
            """)

    @OptionGroup var options: ClientOptions

    @Option(name: .long, help: ArgumentHelp("The device to move playback to: a name, id or HOST[:PORT].", valueName: "NAME|HOST[:PORT]"))
    var to: String

    func validate() throws {
        guard !to.trimmingWhitespace().isEmpty else { throw ValidationError("Say where to move playback: --to NAME or HOST[:PORT].") }
    }

    func run() async throws {
        let source = try await options.target.resolve()
        let target = try await DeviceOption.resolve(to)
        guard source.address != target.address else {
            throw CommandFailure(StreamTransferError.sameDevice(target.name).description)
        }
        let configuration = try options.makeConfiguration()
        let report = try await options.withSession { session in
            try await options.joinMedia(session)
            let snapshot: PlaybackSnapshot
            do {
                snapshot = try await PlaybackSnapshot.read(from: session.media)
            } catch let e as StreamTransferError {
                throw CommandFailure(e.description)
            }
            try await Self.refuseLocalFiles(snapshot, session: session, source: source.name, target: target.name)
            let targetSession = CastSession(device: target.address, deviceID: target.id, configuration: configuration)
            do {
                let done = try await StreamTransfer.move(from: session, to: targetSession, snapshot: snapshot)
                await targetSession.disconnect()
                return MoveReport(source: source.name, target: target.name, done)
            } catch let e as StreamTransferError {
                await targetSession.disconnect()
                throw CommandFailure(e.description)
            }
        }
        options.emit(json: report, text: report.text)
        if let failure = report.sourceStopFailure {
            FileHandle.standardError.write(Data("castctl: the media plays on \(target.name), but could not be stopped on \(failure)\n".utf8))
        }
    }

    /// Refuses files a media server of this computer serves (a token URL on the source
    /// connection's local address); other URLs, on this computer or not, move as they are.
    static func refuseLocalFiles(_ snapshot: PlaybackSnapshot, session: CastSession, source: String, target: String) async throws {
        let local = try await session.connectionEndpoints().local
        let served = snapshot.items.compactMap(\.media).first { media in
            MediaServerURL(media.contentUrl ?? media.contentId)?.isOn(host: local) ?? false
        }
        guard let served else { return }
        let title = served.metadata?.displayTitle ?? served.contentId
        throw CommandFailure(
            "“\(title)” is served from this computer to \(source) only, by the castctl that cast it: cast the file to \(target) with `castctl cast FILE --device \(target)` instead."
        )
    }
}

/// What `castctl move` prints.
struct MoveReport: Encodable, Sendable {
    var source: String
    var target: String
    var title: String?
    var items: Int
    var currentPosition: Int
    var startedAt: Double?
    var playbackRate: Double
    var activeTrackIds: [Int]?
    var targetState: String
    var sourceStopFailure: String?

    init(source: String, target: String, _ r: StreamTransfer.Report) {
        self.source = source
        self.target = target
        title = r.snapshot.currentMedia?.metadata?.displayTitle
        items = r.snapshot.items.count
        currentPosition = r.snapshot.currentIndex + 1
        startedAt = r.startedAt
        playbackRate = r.targetStatus.playbackRate ?? 1
        activeTrackIds = r.targetStatus.activeTrackIds
        targetState = r.targetStatus.playerState.rawValue
        sourceStopFailure = r.sourceStopFailure
    }

    var text: String {
        var what = title.map { "“\($0)”" } ?? "the media"
        if items > 1 { what += " (item \(currentPosition) of \(items))" }
        var facts = [Output.seconds(startedAt)]
        if playbackRate != 1 { facts.append("×\(Output.number(playbackRate))") }
        return "Moved \(what) from \(source) to \(target) at \(facts.joined(separator: ", ")): \(targetState.lowercased()) there."
    }
}
