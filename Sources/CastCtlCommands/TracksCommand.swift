// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastProtocol

/// `castctl tracks [--on ID...] [--off]`
struct TracksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracks", abstract: "List the media's tracks, or choose which are on.",
        discussion:
            "castctl tracks            list (* marks active tracks)\ncastctl tracks --on 1 3   enable exactly tracks 1 and 3\ncastctl tracks --off      turn every track off"
    )

    @OptionGroup var options: ClientOptions

    @Option(name: .customLong("on"), parsing: .upToNextOption, help: ArgumentHelp("Enable exactly these track ids.", valueName: "ID"))
    var on: [Int] = []

    @Flag(name: .customLong("off"), help: "Turn every track off.")
    var off = false

    func validate() throws {
        if off && !on.isEmpty { throw ValidationError("Use either --on ID... or --off, not both.") }
    }

    struct TrackRow: Encodable {
        var trackId: Int
        var type: String
        var subtype: String?
        var language: String?
        var name: String?
        var active: Bool
    }

    func run() async throws {
        let (on, off) = (on, off)
        let device = try await options.target.resolve()
        _ = device
        let rows = try await options.withSession { session -> [TrackRow] in
            try await options.joinMedia(session)
            if off {
                try await session.media.setActiveTrackIDs([])
            } else if !on.isEmpty {
                let known = Set(await session.media.mediaInformation?.tracks?.map(\.trackId) ?? [])
                if let bad = on.first(where: { !known.contains($0) }) {
                    throw CommandFailure(
                        "There is no track \(bad); the media has \(known.isEmpty ? "no tracks" : "tracks " + known.sorted().map(String.init).joined(separator: ", "))."
                    )
                }
                try await session.media.setActiveTrackIDs(on)
            }
            let status = await session.media.status
            let active = Set(status?.activeTrackIds ?? [])
            return (status?.effectiveMedia?.tracks ?? []).map {
                TrackRow(
                    trackId: $0.trackId, type: $0.type.rawValue, subtype: $0.subtype?.rawValue, language: $0.language, name: $0.name,
                    active: active.contains($0.trackId))
            }
        }
        let text =
            rows.isEmpty
            ? "The media has no tracks."
            : rows.map {
                "\($0.active ? "*" : " ") \($0.trackId)  \($0.type)\($0.subtype.map { "/\($0)" } ?? "")  \($0.language ?? "-")  \($0.name ?? "")"
            }.joined(separator: "\n")
        options.emit(json: rows, text: text)
    }
}
