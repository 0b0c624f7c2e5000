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
    /// Warnings found after the cast started (embedded subtitles copied out while it plays).
    public var laterWarnings: Task<[String], Never>?

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
    let ffprobe: String
    let ffmpeg: String
    let scratchRoot: String?
    let scratchLimit: Int64
    let quality: Int
    var swept = false

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
    public func plan(
        file: String, model: String?, burnSubtitles: Int? = nil, surround: Bool = false
    ) async throws(LocalMediaError) -> (LocalMediaInfo, ConversionPlan) {
        let path = Self.localPath(file)
        let info = try await LocalMediaInfo.inspect(path: path, ffprobe: ffprobe, strict: false)
        guard let probe = info.probe, info.kind == .video || info.kind == .audio else {
            throw .notPlayable(file: (path as NSString).lastPathComponent, what: "not a video or audio file ffprobe can read")
        }
        let plan = try ConversionPlan.make(
            probe: probe, format: info.format, device: DeviceCapabilities.forModel(model).passingSurround(surround), burnSubtitles: burnSubtitles,
            fileName: (path as NSString).lastPathComponent)
        return (info, plan)
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
