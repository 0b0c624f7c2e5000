// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation

/// A local file made ready to cast: the `MediaInformation` to put in a LOAD (content URL,
/// type, metadata with artwork, text tracks) and the means to end the sharing.
public struct LocalCast: Sendable {
    public var media: MediaInformation
    /// What was found out about the file (probe, kind, artwork).
    public var info: LocalMediaInfo
    /// Subtitle files that were sent as tracks, in track-id order (id = index + 1).
    public var subtitles: [SubtitleSource]
    /// Things worth telling the user that did not stop the cast (a skipped cue, no ffprobe,
    /// an unreadable subtitle file).
    public var warnings: [String]
    /// The tokens of this cast (media, subtitles, artwork).
    public var tokens: [String]
    /// The artwork for this computer's own display (the window): the server answers only
    /// the device, so show `info.artworkPath` (or the image file itself) or these bytes of
    /// the embedded cover rather than fetching the metadata image URL.
    public var embeddedArtwork: [UInt8]?
    /// How the file reaches the device (nil without ffprobe: served as it is).
    public var plan: ConversionPlan?
    /// The HLS made on demand when the plan is not `direct`.
    public var hls: HLSSession?

    /// The text track to turn on in the LOAD for someone who reads `languages` (see
    /// `SidecarSubtitles.preferred`); nil leaves subtitles off.
    public func defaultTextTrack(languages: [String]) -> Int? {
        SidecarSubtitles.preferred(subtitles, languages: languages).map { $0 + 1 }
    }
}

/// Casting files from this computer: the one entry point for the window and castctl.
///
/// ```swift
/// let share = MediaShare()                         // one per app
/// let endpoints = await session.connectionEndpoints()   // CastClient: local + device address
/// let cast = try await share.prepare(
///     file: "/home/me/Videos/film.mp4", extraSubtitles: [],
///     device: endpoints.remote, localAddress: endpoints.local)
/// try await session.media.load(cast.media)
/// …                                                  // when the cast ends (IDLE, another LOAD, disconnect):
/// await share.end(cast)
/// ```
///
/// The server is started on first use on `localAddress` (the address of the socket that
/// talks to the device, so the right interface even with several networks or a VPN) and
/// reused while casts are live; one server per local address. `end(_:)` revokes the cast's
/// tokens and stops a server that has nothing left to serve.
public actor MediaShare {
    var servers: [String: MediaServer] = [:]
    private let port: MediaPort
    private let ffprobe: String
    private let ffmpeg: String
    private let scratchRoot: String?
    private let scratchLimit: Int64
    private let quality: Int
    private var swept = false

    /// - Parameters:
    ///   - port: ``MediaPort/default`` (8010–8019, then any), or exactly the port the user set
    ///     (`castctl --media-port`, the proposed GSettings key `media-port`, 0 = default).
    ///   - ffprobe: the ffprobe command (PATH is searched).
    ///   - scratchRoot: where converted segments go (default `$XDG_CACHE_HOME/castdeck/transcode`).
    ///   - scratchLimitMB: the bound of one cast's segments (the `transcode-cache-size-mb` setting).
    ///   - quality: x264 CRF for converted video (the `transcode-quality` setting).
    public init(
        port: MediaPort = .default, ffprobe: String = "ffprobe", ffmpeg: String = "ffmpeg", scratchRoot: String? = TranscodeScratch.root(),
        scratchLimitMB: Int = TranscodeScratch.defaultSizeLimitMB, quality: Int = TranscodeScratch.defaultQuality
    ) {
        self.port = port
        self.ffprobe = ffprobe
        self.ffmpeg = ffmpeg
        self.scratchRoot = scratchRoot
        self.scratchLimit = Int64(max(scratchLimitMB, 64)) << 20
        self.quality = quality
    }

    /// Probes `file` and plans it for a device of `model` (TXT `md`; nil = conservative)
    /// without sharing anything: what `castctl cast FILE --plan` prints.
    public func plan(file: String, model: String?, burnSubtitles: Int? = nil) async throws(LocalMediaError) -> (LocalMediaInfo, ConversionPlan) {
        let path = Self.localPath(file)
        let info = try await LocalMediaInfo.inspect(path: path, ffprobe: ffprobe, strict: false)
        guard let probe = info.probe, info.kind == .video || info.kind == .audio else {
            throw .notPlayable(file: (path as NSString).lastPathComponent, what: "not a video or audio file ffprobe can read")
        }
        let plan = try ConversionPlan.make(
            probe: probe, format: info.format, device: .forModel(model), burnSubtitles: burnSubtitles, fileName: (path as NSString).lastPathComponent)
        return (info, plan)
    }

    /// Inspects `file`, finds its subtitles and artwork, shares them for `device` and
    /// returns the media to load.
    ///
    /// - Parameters:
    ///   - file: a local path or a `file://` URL.
    ///   - extraSubtitles: more subtitle files (`--subtitle PATH`), added after the ones
    ///     found beside the file.
    ///   - device: the device's IP address (the only client allowed to fetch).
    ///   - localAddress: this machine's address on the Cast connection (served on).
    /// - Throws: ``LocalMediaError`` when the file cannot be read or played directly, an
    ///   extra subtitle file is unusable, or the server cannot listen.
    ///   - model: the device's model (TXT `md`), choosing the column of ``DeviceCapabilities``.
    ///   - burnSubtitles: an embedded subtitle stream (1-based) to draw into the picture.
    ///   - words: how the tracks are named (the window gives the user's language; see `TrackFacts`).
    public func prepare(
        file: String, extraSubtitles: [String] = [], device: String, localAddress: String, model: String? = nil, burnSubtitles: Int? = nil,
        words: TrackWords = .english
    ) async throws(LocalMediaError) -> LocalCast {
        let path = Self.localPath(file)
        let info = try await LocalMediaInfo.inspect(path: path, ffprobe: ffprobe, strict: false)
        var plan: ConversionPlan?
        if let probe = info.probe, info.kind == .video || info.kind == .audio {
            plan = try ConversionPlan.make(
                probe: probe, format: info.format, device: .forModel(model), burnSubtitles: burnSubtitles, fileName: (path as NSString).lastPathComponent)
        } else if burnSubtitles != nil {
            throw .burnUnavailable(number: burnSubtitles ?? 0, count: 0)
        }
        // Read the extra subtitles first: a bad one given by hand is an error, before anything is shared.
        var converted: [(SubtitleSource, WebVTTDocument)] = []
        for p in extraSubtitles {
            let sp = Self.localPath(p)
            let name = (sp as NSString).lastPathComponent
            guard let format = SubtitleFormat(extension: (sp as NSString).pathExtension) else {
                throw .subtitleUnusable(path: sp, reason: "only .srt, .vtt, .ass and .ssa files are read")
            }
            let source = SidecarSubtitles.describe(fileName: name, path: sp, mediaBase: nil) ?? SubtitleSource(path: sp, format: format, language: nil)
            converted.append((source, try Self.convert(source)))
        }
        var warnings = info.warnings
        var sidecars: [(SubtitleSource, WebVTTDocument)] = []
        if info.kind == .video {
            for s in SidecarSubtitles.find(beside: path) where !extraSubtitles.map(Self.localPath).contains(s.path) {
                do {
                    sidecars.append((s, try Self.convert(s)))
                } catch {
                    warnings.append(error.description + " It is left out.")
                }
            }
        }
        // Embedded text subtitles, as WebVTT (ffmpeg converts SRT, ASS, mov_text).
        var embeddedSubs: [(SubtitleSource, WebVTTDocument)] = []
        for step in plan?.textSubtitles ?? [] {
            if let doc = await Self.extractSubtitles(path: path, stream: step.stream, ffmpeg: ffmpeg) {
                let number = step.subtitleNumber ?? 0
                let source = SubtitleSource(
                    path: "embedded-\(number).srt", format: .srt, language: step.stream.languageTag, title: step.stream.title,
                    isForced: step.stream.isForced, origin: .stream(number: number))
                embeddedSubs.append((source, doc))
            } else {
                warnings.append("The embedded subtitles \(ConversionPlan.describe(step.stream)) could not be converted to WebVTT; they are left out.")
            }
        }
        let allSubs = embeddedSubs + sidecars + converted
        for (s, doc) in allSubs where !doc.warnings.isEmpty {
            warnings.append("\((s.path as NSString).lastPathComponent): \(doc.warnings.count) cue(s) skipped (\(doc.warnings[0])).")
        }

        let server = try await self.server(on: localAddress)
        var tokens: [String] = []
        let fileName = (path as NSString).lastPathComponent
        var hls: HLSSession?
        let main: SharedItem
        if let plan, plan.delivery == .hls, let probe = info.probe {
            guard let root = scratchRoot else { throw .scratchUnusable(path: "$XDG_CACHE_HOME", reason: "no cache directory is known (set HOME or XDG_CACHE_HOME)") }
            if !swept {
                TranscodeScratch.sweep(root: root)
                swept = true
            }
            let session = try await HLSSession.make(
                path: Self.resolved(path), probe: probe, plan: plan, root: root, ffmpeg: ffmpeg, ffprobe: ffprobe, sizeLimit: scratchLimit, quality: quality)
            session.start()
            hls = session
            main = server.share(generated: session, entry: "master.m3u8", peer: device)
        } else {
            main = server.share(path: Self.resolved(path), name: fileName, contentType: info.format.mimeType, peer: device)
        }
        tokens.append(main.token)

        var metadata = info.metadata
        var embedded: [UInt8]?
        if let art = info.artworkPath, let fmt = try? MediaFormat.sniff(path: art), fmt.kind == .image {
            let item = server.share(path: Self.resolved(art), name: (art as NSString).lastPathComponent, contentType: fmt.mimeType, peer: device)
            tokens.append(item.token)
            metadata.images = [CastImage(url: item.url)]
        } else if info.kind == .image {
            metadata.images = [CastImage(url: main.url)]
        } else if let probe = info.probe, let bytes = await probe.extractCoverArt(path: path) {
            let fmt = MediaFormat.sniff(bytes)
            if fmt.kind == .image {
                let ext = fmt.mimeType.split(separator: "/").last.map(String.init) ?? "jpg"
                let item = server.share(bytes: bytes, name: "cover.\(ext == "jpeg" ? "jpg" : ext)", contentType: fmt.mimeType, peer: device)
                tokens.append(item.token)
                metadata.images = [CastImage(url: item.url)]
                embedded = bytes
            }
        }

        var tracks: [MediaTrack] = []
        for (i, (s, doc)) in allSubs.enumerated() {
            let stem = ((s.path as NSString).lastPathComponent as NSString).deletingPathExtension
            let item = server.share(bytes: Array(doc.text.utf8), name: stem + ".vtt", contentType: "text/vtt; charset=utf-8", peer: device)
            tokens.append(item.token)
            tracks.append(
                MediaTrack(
                    trackId: i + 1, type: .text, subtype: s.isHearingImpaired ? .captions : .subtitles, trackContentId: item.url,
                    trackContentType: "text/vtt", name: s.facts.name(words), language: s.language))
        }

        if let hls, hls.renditions.contains(where: { $0.isVideo }) {
            // Each audio rendition is an AUDIO track the receiver switches with EDIT_TRACKS_INFO.
            let base = main.url.dropLast("master.m3u8".count)
            for (i, r) in hls.renditions.filter({ !$0.isVideo }).enumerated() {
                tracks.append(
                    MediaTrack(
                        trackId: 101 + i, type: .audio, trackContentId: base + r.name + ".m3u8", trackContentType: "application/vnd.apple.mpegurl",
                        name: r.stream.trackFacts(.audio, number: i + 1).name(words), language: r.stream.languageTag))
            }
        }
        var media = MediaInformation(
            contentId: main.url, contentUrl: main.url, streamType: .buffered, contentType: hls == nil ? info.format.mimeType : "application/x-mpegurl",
            metadata: metadata, duration: info.duration, tracks: tracks.isEmpty ? nil : tracks)
        if hls != nil { media.hlsSegmentFormat = "ts" }
        return LocalCast(
            media: media, info: info, subtitles: allSubs.map(\.0), warnings: warnings, tokens: tokens, embeddedArtwork: embedded, plan: plan, hls: hls)
    }

    /// One embedded text subtitle stream as WebVTT (ffmpeg reads it); nil when it fails.
    static func extractSubtitles(path: String, stream: MediaProbe.Stream, ffmpeg: String) async -> WebVTTDocument? {
        let r = try? await ToolRunner.run(
            ffmpeg, ["-v", "error", "-nostdin", "-i", path, "-map", "0:\(stream.index)", "-f", "webvtt", "-"], timeout: .seconds(120))
        guard let r, r.status == 0, r.stdout.starts(with: Array("WEBVTT".utf8)) else { return nil }
        return try? WebVTTConverter.convert(r.stdout, format: .webvtt, name: "embedded subtitles")
    }

    /// Ends the sharing of `cast`: its URLs answer 404 from now on, and a server with
    /// nothing left to serve stops.
    public func end(_ cast: LocalCast) async {
        cast.hls?.finish()
        for (address, server) in servers {
            server.revoke(cast.tokens)
            if server.shareCount == 0 {
                servers[address] = nil
                await server.stop()
            }
        }
    }

    /// Kills every converter and removes every scratch folder of this process at once, from
    /// any thread (a signal handler's queue, just before `exit`).
    public nonisolated static func abandonAll() {
        HLSSession.finishAll()
    }

    /// Stops every server (app shutdown).
    public func stopAll() async {
        for s in servers.values { await s.stop() }
        servers = [:]
    }

    /// The server on `address` (started on first use), e.g. to show its URL.
    public func server(on address: String) async throws(LocalMediaError) -> MediaServer {
        let key = normalizedIP(address)
        if let s = servers[key] { return s }
        guard !key.isEmpty else { throw .invalidAddress(address) }
        let s = try await MediaServer.start(host: key, port: port)
        servers[key] = s
        return s
    }

    /// `file:///a/b%20c.mp4` → `/a/b c.mp4`; a relative path is made absolute.
    public static func localPath(_ text: String) -> String {
        if text.hasPrefix("file:"), let url = URL(string: text), url.isFileURL { return url.path }
        if text.hasPrefix("/") { return text }
        return (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(text)
    }

    /// True for `file://` URLs and anything without a URL scheme (a path).
    public static func isLocal(_ text: String) -> Bool {
        if text.hasPrefix("file:") { return true }
        guard let url = URL(string: text), let scheme = url.scheme else { return true }
        return !["http", "https", "rtmp", "rtsp"].contains(scheme.lowercased()) && FileManager.default.fileExists(atPath: text)
    }

    /// The file a path names once every symbolic link is followed: what is shared is that
    /// file, and nothing a later change of the link points to.
    static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    static func convert(_ s: SubtitleSource) throws(LocalMediaError) -> WebVTTDocument {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: s.path))
        } catch {
            throw .subtitleUnusable(path: s.path, reason: FileManager.default.fileExists(atPath: s.path) ? "it cannot be read" : "no such file")
        }
        guard data.count <= 20 << 20 else { throw .subtitleUnusable(path: s.path, reason: "it is larger than 20 MB") }
        return try WebVTTConverter.convert(Array(data), format: s.format, name: s.path)
    }
}
