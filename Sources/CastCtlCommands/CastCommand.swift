// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastProtocol
import Foundation
import LocalMedia

/// `castctl cast URL`: launch (or join) the Default Media Receiver or another app and load media.
struct CastCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cast",
        abstract: "Play a URL on the device.",
        discussion: """
            Joins the app when it already runs on the device, launches it otherwise, then loads the media.
            Example: castctl cast --device 192.168.1.20 https://example.com/movie.mp4 --title "Movie" \\
                       --subtitle https://example.com/en.vtt,en,English --start 60
            """)

    @OptionGroup var options: ClientOptions

    @Argument(
        help: ArgumentHelp(
            "The media URL, or a file on this computer (a path or file:// URL) to serve to the device. Several (files and URLs mixed), a folder or a playlist (.m3u, .m3u8, .pls, .xspf) make a queue.",
            valueName: "URL|PATH|DIR|PLAYLIST"))
    var sources: [String] = []

    /// The first (for a single item: the only) source.
    var url: String { sources.first ?? "" }

    @Flag(help: "With a folder: include the media files of its subfolders too.")
    var recursive = false

    @Option(name: .customLong("repeat"), help: ArgumentHelp("For a queue: off, all, one or shuffle.", valueName: "MODE"))
    var repeatMode: QueueRepeatArgument?

    /// Several sources, a folder or a playlist: the items go into a queue.
    var isQueue: Bool { sources.count > 1 || QueueSources.needsExpansion(url) || recursive }

    @Option(help: "The title to show.")
    var title: String?

    @Option(
        name: .customLong("subtitle"),
        help: ArgumentHelp(
            "A WebVTT subtitle track (repeatable): URL[,LANGUAGE[,NAME]]; for a local file, a .srt/.vtt/.ass PATH.", valueName: "URL[,lang[,name]]"))
    var subtitles: [String] = []

    @Option(help: ArgumentHelp("An image URL for the poster.", valueName: "URL"))
    var poster: String?

    @Option(name: .customLong("content-type"), help: "The MIME type (guessed from the URL when omitted).")
    var contentType: String?

    @Option(
        name: .customLong("ad-breaks"),
        help: ArgumentHelp("A JSON file with `breaks` and `breakClips` arrays, as on the wire.", valueName: "FILE.json"))
    var adBreaks: String?

    @Option(help: ArgumentHelp("Start this many seconds in (wins over --resume and --start-over).", valueName: "SECONDS"))
    var start: Double?

    @Flag(help: "Go on from where this file, link or queue stopped last time (the default).")
    var resume = false

    @Flag(name: .customLong("start-over"), help: "Start at the start, whatever was remembered.")
    var startOver = false

    @Flag(
        help: ArgumentHelp(
            "A live stream (LOAD as LIVE: no duration, the live edge, its replay window). HLS links whose playlist has no #EXT-X-ENDLIST are live without it."
        ))
    var live = false

    @Option(help: ArgumentHelp("Initial playback rate.", valueName: "R"))
    var rate: Double?

    @Option(
        name: .customLong("media-port"),
        help: ArgumentHelp("For a local file: serve it on this port (default: the first free of 8010–8019, else any).", valueName: "PORT"))
    var mediaPort: Int?

    @Flag(help: "For a local file: print how it would be sent (served as it is, copied or converted, per stream, and why) without casting.")
    var plan = false

    @Option(
        help: ArgumentHelp(
            "For a local file: the device model to plan for, as its TXT record names it (Chromecast, Chromecast Ultra, Chromecast with Google TV, Google TV Streamer); unknown models get the conservative choice.",
            valueName: "MODEL"))
    var model: String?

    @Flag(
        help: ArgumentHelp(
            "For a local file: send AC-3/E-AC-3 surround sound as it is, for a device whose HDMI reaches an AV receiver or TV that decodes it (default: converted to stereo AAC)."
        ))
    var surround = false

    @Option(
        name: .customLong("burn-subtitles"),
        help: ArgumentHelp("For a local file: draw embedded subtitle stream N (1 = the first, as --plan numbers them) into the picture.", valueName: "N"))
    var burnSubtitles: Int?

    @Option(help: ArgumentHelp("Receiver app id (default: the Default Media Receiver CC1AD845).", valueName: "APPID"))
    var app: String = CastAppID.defaultMediaReceiver

    func validate() throws {
        guard !sources.isEmpty else { throw ValidationError("Give a URL, a file, a folder or a playlist to cast.") }
        try validateResume()  // CastCommand+Resume.swift
        if live, isQueue || Self.isLocal(url) { throw ValidationError("--live is for a link to a live stream, not a file or a queue.") }
        if isQueue { return try validateQueue() }  // CastCommand+Queue.swift
        if repeatMode != nil { throw ValidationError("--repeat is for a queue: give several items, a folder or a playlist.") }
        if Self.isLocal(url) {
            try validateLocal()  // CastCommand+LocalFile.swift
        } else {
            if live, start != nil { throw ValidationError("--start does not apply to a live stream: it starts at the live edge.") }
            if plan || model != nil || burnSubtitles != nil || surround {
                throw ValidationError("--plan, --model, --surround and --burn-subtitles apply to local files only.")
            }
            guard URL(string: url)?.scheme != nil else { throw ValidationError("“\(url)” is not a URL (e.g. https://example.com/movie.mp4).") }
            for s in subtitles { _ = try Self.track(s, id: 1) }
        }
        if let start, !(start >= 0) { throw ValidationError("--start must be 0 or more seconds.") }
        if let rate, !(rate > 0) { throw ValidationError("--rate must be greater than 0.") }
        guard app.count == 8, app.allSatisfy(\.isHexDigit) else { throw ValidationError("--app must be an 8-character hexadecimal app id.") }
    }

    static func track(_ spec: String, id: Int) throws -> MediaTrack {
        let parts = spec.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard let url = parts.first, !url.isEmpty, URL(string: url)?.scheme != nil else {
            throw ValidationError("“\(spec)” is not URL[,LANGUAGE[,NAME]] for --subtitle.")
        }
        let language = parts.count > 1 && !parts[1].isEmpty ? parts[1] : "en"
        let name = parts.count > 2 && !parts[2].isEmpty ? parts[2] : language
        return MediaTrack(trackId: id, type: .text, subtype: .subtitles, trackContentId: url, trackContentType: "text/vtt", name: name, language: language)
    }

    static func guessContentType(_ url: String) -> String {
        MediaFormat.contentType(forLink: url)
    }

    struct AdBreakFile: Decodable {
        var breaks: [AdBreak]
        var breakClips: [AdBreakClip]
    }

    func mediaInformation() throws -> MediaInformation {
        var tracks: [MediaTrack] = []
        for (i, s) in subtitles.enumerated() { tracks.append(try Self.track(s, id: i + 1)) }
        var metadata = MediaMetadata(metadataType: .generic, title: title ?? URL(string: url)?.lastPathComponent)
        if let poster { metadata.images = [CastImage(url: poster)] }
        var media = MediaInformation(
            contentId: url, contentUrl: url, streamType: live ? .live : .buffered, contentType: contentType ?? Self.guessContentType(url),
            metadata: metadata, tracks: tracks.isEmpty ? nil : tracks)
        if let adBreaks {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: adBreaks))
            } catch {
                throw CommandFailure("Cannot read the ad-breaks file \(adBreaks): \(error.localizedDescription)")
            }
            do {
                let file = try CastJSON.decode(AdBreakFile.self, from: data, namespace: adBreaks)
                media.breaks = file.breaks
                media.breakClips = file.breakClips
            } catch {
                throw CommandFailure(
                    "The ad-breaks file \(adBreaks) is not valid: it must be a JSON object with `breaks` and `breakClips` arrays (\(error.description)).")
            }
        }
        return media
    }

    func run() async throws {
        if isQueue { return try await runQueue() }  // CastCommand+Queue.swift
        if Self.isLocal(url) { return try await runLocal() }  // CastCommand+LocalFile.swift
        var media = try mediaInformation()
        let probed = media
        async let streamType = HLSLiveCheck.streamType(for: probed)
        for w in await CORSCheck.warnings(for: probed) { Self.warn(w) }
        media.streamType = await streamType
        let device = try await options.target.resolve()
        // A live stream starts at its live edge: nothing to resume.
        let (start, rate, app) = (media.streamType == .live ? start : startTime(for: .link(url)), rate, app)
        let report = try await options.withSession { session in
            try await session.start(appID: app)
            try await session.media.load(media, autoplay: true, startTime: start, playbackRate: rate)
            return await StatusReport(device: device.name, session: session, info: await session.sessionInfo)
        }
        options.emit(json: report, text: report.mediaLine)
    }
}
