// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastProtocol
import LocalMedia

/// `castctl tracks [--on ID...] [--off]`
struct TracksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracks", abstract: "List the media's tracks, or choose which are on.",
        discussion:
            "castctl tracks            list by kind (* marks active tracks): subtitles, captions (CC), descriptions, audio, video, and the chapters of a chapter track\ncastctl tracks --on 1 3   enable exactly tracks 1 and 3\ncastctl tracks --off      turn every track off"
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
        var trackContentId: String?
        var active: Bool
        /// The kind it is listed under (LocalMedia's TrackGroup, as the window groups them).
        var group: String
        /// A chapter track's chapters, read from its WebVTT file.
        var chapters: [ChapterRow]?
        /// Why a chapter track gives no chapters.
        var chaptersProblem: String?
    }

    struct ChapterRow: Encodable {
        var start: Double
        var end: Double
        var title: String
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
                    trackContentId: $0.trackContentId, active: active.contains($0.trackId), group: $0.group.rawValue)
            }
        }
        var withChapters: [TrackRow] = []
        for var row in rows {
            if row.group == TrackGroup.chapters.rawValue, let url = row.trackContentId {
                do throws(WebVTTChapters.Unusable) {
                    row.chapters = try await WebVTTChapters.fetch(url).map { ChapterRow(start: $0.start, end: $0.end, title: $0.title) }
                } catch {
                    row.chaptersProblem = error.reason
                }
            }
            withChapters.append(row)
        }
        options.emit(json: withChapters, text: Self.text(withChapters))
    }

    /// The rows by kind, as the window's tracks popover and Chapters menu show them; METADATA
    /// tracks (for the app on the device) are counted, not listed.
    static func text(_ rows: [TrackRow]) -> String {
        guard !rows.isEmpty else { return "The media has no tracks." }
        let headings: [(TrackGroup, String)] = [
            (.subtitles, "Subtitles"), (.captions, "Captions (CC)"), (.descriptions, "Descriptions (described video)"),
            (.audio, "Audio"), (.video, "Video"), (.other, "Other"),
        ]
        var lines: [String] = []
        for (group, heading) in headings {
            let members = rows.filter { $0.group == group.rawValue }
            guard !members.isEmpty else { continue }
            lines.append(heading + ":")
            lines += members.map {
                "\($0.active ? "*" : " ") \($0.trackId)  \($0.type)\($0.subtype.map { "/\($0)" } ?? "")  \($0.language ?? "-")  \($0.name ?? "")"
            }
        }
        for row in rows where row.group == TrackGroup.chapters.rawValue {
            if let chapters = row.chapters {
                lines.append("Chapters (track \(row.trackId)): \(chapters.count)")
                lines += chapters.enumerated().map { "  \($0.offset + 1)  \(clockText($0.element.start))  \($0.element.title)" }
            } else {
                lines.append("Chapters (track \(row.trackId)): none read, \(row.chaptersProblem ?? "the track has no URL")")
            }
        }
        let metadata = rows.filter { $0.group == TrackGroup.metadata.rawValue }.count
        if metadata > 0 { lines.append("(\(metadata) METADATA track\(metadata == 1 ? "" : "s") for the app on the device, not listed)") }
        return lines.joined(separator: "\n")
    }
}
