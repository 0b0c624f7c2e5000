// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Making a local file ready to cast, in two halves so that a sender can connect to the device
// while the file is read: `inspect` (probe, plan, conversion started, subtitles) needs no
// device; `publish` shares the result with one device. The type's overview is in MediaShare.swift.

import CastCore
import CastProtocol
import Foundation

/// A file inspected and planned, its conversion already under way, not shared with any device
/// yet. Give it to ``MediaShare/publish(_:device:localAddress:words:)``, or to
/// ``MediaShare/discard(_:)`` when the cast does not happen.
public struct PreparedFile: Sendable {
    public var path: String
    public var info: LocalMediaInfo
    public var plan: ConversionPlan?
    public var hls: HLSSession?
    public var warnings: [String]
    /// How long each step took, in order (`castctl cast` prints them with CASTDECK_TIMINGS=1).
    public var timings: [PrepareTiming]
    /// Subtitles: sidecar and extra files converted already; embedded streams still being
    /// copied out of the file (a whole read of it, which the first frame does not wait for).
    var subtitles: [(SubtitleSource, Task<WebVTTDocument?, Never>)]
    var cover: Task<[UInt8]?, Never>?
}

/// One step of making a file ready and the seconds it took.
public struct PrepareTiming: Sendable, Hashable {
    public var step: String
    public var seconds: Double
}

extension MediaShare {
    /// Inspects `file`, finds its subtitles and artwork, shares them for `device` and
    /// returns the media to load (``inspect`` then ``publish``, waiting for the cover art,
    /// which the window shows itself).
    ///
    /// - Parameters:
    ///   - file: a local path or a `file://` URL.
    ///   - extraSubtitles: more subtitle files (`--subtitle PATH`), added after the ones
    ///     found beside the file.
    ///   - device: the device's IP address (the only client allowed to fetch).
    ///   - localAddress: this machine's address on the Cast connection (served on).
    ///   - model: the device's model (TXT `md`), choosing the column of ``DeviceCapabilities``.
    ///   - burnSubtitles: an embedded subtitle stream (1-based) to draw into the picture.
    ///   - words: how the tracks are named (the window gives the user's language; see `TrackFacts`).
    /// - Throws: ``LocalMediaError`` when the file cannot be read or played directly, an
    ///   extra subtitle file is unusable, or the server cannot listen.
    public func prepare(
        file: String, extraSubtitles: [String] = [], device: String, localAddress: String, model: String? = nil, burnSubtitles: Int? = nil,
        surround: Bool = false, startAt: Double? = nil, words: TrackWords = .english
    ) async throws(LocalMediaError) -> LocalCast {
        let prepared = try await inspect(
            file: file, extraSubtitles: extraSubtitles, model: model, burnSubtitles: burnSubtitles, surround: surround, startAt: { startAt })
        var cast: LocalCast
        do {
            cast = try await publish(prepared, device: device, localAddress: localAddress, words: words)
        } catch {
            discard(prepared)
            throw error
        }
        cast.embeddedArtwork = await prepared.cover?.value
        return cast
    }

    /// The half of ``prepare`` that needs no device: probe, plan, subtitles read, the
    /// conversion (when the plan has one) started where playback will begin: `startAt`
    /// seconds (nil: the start), asked once the segments are planned, so a resume point can be
    /// looked up meanwhile. Embedded subtitles and the cover art are copied out while the
    /// cast goes on.
    public func inspect(
        file: String, extraSubtitles: [String] = [], model: String? = nil, burnSubtitles: Int? = nil, surround: Bool = false,
        startAt: @escaping @Sendable () async -> Double? = { nil }
    ) async throws(LocalMediaError) -> PreparedFile {
        let clock = ContinuousClock()
        var mark = clock.now
        var timings: [PrepareTiming] = []
        func lap(_ step: String) {
            let now = clock.now
            let d = now - mark
            timings.append(PrepareTiming(step: step, seconds: d.seconds))
            mark = now
        }
        let path = Self.localPath(file)
        let info = try await LocalMediaInfo.inspect(path: path, ffprobe: ffprobe, strict: false)
        lap("probe")
        var plan: ConversionPlan?
        if let probe = info.probe, info.kind == .video || info.kind == .audio {
            plan = try ConversionPlan.make(
                probe: probe, format: info.format, device: DeviceCapabilities.forModel(model).passingSurround(surround), burnSubtitles: burnSubtitles,
                fileName: (path as NSString).lastPathComponent)
        } else if burnSubtitles != nil {
            throw .burnUnavailable(number: burnSubtitles ?? 0, count: 0)
        }
        lap("plan")
        // Read the extra subtitles first: a bad one given by hand is an error, before anything is shared.
        var subtitles: [(SubtitleSource, Task<WebVTTDocument?, Never>)] = []
        var extra: [(SubtitleSource, Task<WebVTTDocument?, Never>)] = []
        for p in extraSubtitles {
            let sp = Self.localPath(p)
            let name = (sp as NSString).lastPathComponent
            guard let format = SubtitleFormat(extension: (sp as NSString).pathExtension) else {
                throw .subtitleUnusable(path: sp, reason: "only .srt, .vtt, .ass and .ssa files are read")
            }
            let source = SidecarSubtitles.describe(fileName: name, path: sp, mediaBase: nil) ?? SubtitleSource(path: sp, format: format, language: nil)
            let doc = try Self.convert(source)
            extra.append((source, Task { doc }))
        }
        var warnings = info.warnings
        // Embedded text subtitles, as WebVTT (ffmpeg converts SRT, ASS, mov_text), copied out
        // beside the conversion.
        let ffmpeg = self.ffmpeg
        for step in plan?.textSubtitles ?? [] {
            let number = step.subtitleNumber ?? 0
            let source = SubtitleSource(
                path: "embedded-\(number).srt", format: .srt, language: step.stream.languageTag, title: step.stream.title, isForced: step.stream.isForced,
                origin: .stream(number: number))
            let stream = step.stream
            subtitles.append((source, Task { await Self.extractSubtitles(path: path, stream: stream, ffmpeg: ffmpeg) }))
        }
        if info.kind == .video {
            for s in SidecarSubtitles.find(beside: path) where !extraSubtitles.map(Self.localPath).contains(s.path) {
                do {
                    let doc = try Self.convert(s)
                    subtitles.append((s, Task { doc }))
                } catch {
                    warnings.append(error.description + " It is left out.")
                }
            }
        }
        subtitles += extra
        var cover: Task<[UInt8]?, Never>?
        if info.artworkPath == nil, info.kind != .image, let probe = info.probe, probe.coverArt != nil {
            cover = Task { await probe.extractCoverArt(path: path, ffmpeg: ffmpeg) }
        }
        lap("subtitles")
        var hls: HLSSession?
        if let plan, plan.delivery == .hls, let probe = info.probe {
            guard let root = scratchRoot else {
                throw .scratchUnusable(path: "$XDG_CACHE_HOME", reason: "no cache directory is known (set HOME or XDG_CACHE_HOME)")
            }
            if !swept {
                TranscodeScratch.sweep(root: root)
                swept = true
            }
            let session = try await HLSSession.make(
                path: Self.resolved(path), probe: probe, plan: plan, root: root, ffmpeg: ffmpeg, ffprobe: ffprobe, sizeLimit: scratchLimit, quality: quality)
            session.start(at: await startAt() ?? 0)
            hls = session
            lap("segments planned")
        }
        return PreparedFile(path: path, info: info, plan: plan, hls: hls, warnings: warnings, timings: timings, subtitles: subtitles, cover: cover)
    }

    /// Ends what ``inspect`` started for a cast that does not happen.
    public nonisolated func discard(_ prepared: PreparedFile) {
        prepared.hls?.finish()
        prepared.cover?.cancel()
        for (_, task) in prepared.subtitles { task.cancel() }
    }

    /// Shares a prepared file with `device` and returns the media to load. Subtitles and cover
    /// art still being copied out are shared already and answered when they are ready.
    public func publish(
        _ prepared: PreparedFile, device: String, localAddress: String, words: TrackWords = .english
    ) async throws(LocalMediaError) -> LocalCast {
        let (path, info) = (prepared.path, prepared.info)
        let server = try await self.server(on: localAddress)
        var tokens: [String] = []
        let fileName = (path as NSString).lastPathComponent
        let main: SharedItem
        if let hls = prepared.hls {
            main = server.share(generated: hls, entry: "master.m3u8", peer: device)
        } else {
            main = server.share(path: Self.resolved(path), name: fileName, contentType: info.format.mimeType, peer: device)
        }
        tokens.append(main.token)

        var metadata = info.metadata
        if let art = info.artworkPath, let fmt = try? MediaFormat.sniff(path: art), fmt.kind == .image {
            let item = server.share(path: Self.resolved(art), name: (art as NSString).lastPathComponent, contentType: fmt.mimeType, peer: device)
            tokens.append(item.token)
            metadata.images = [CastImage(url: item.url)]
        } else if info.kind == .image {
            metadata.images = [CastImage(url: main.url)]
        } else if let cover = prepared.cover, let art = info.probe?.coverArt {
            let ext = art.codecName == "png" ? "png" : "jpg"
            let item = server.share(generated: LaterFile(name: "cover.\(ext)", kind: .image, bytes: cover), entry: "cover.\(ext)", peer: device)
            tokens.append(item.token)
            metadata.images = [CastImage(url: item.url)]
        }

        var tracks: [MediaTrack] = []
        var later: [Task<String?, Never>] = []
        for (i, (s, document)) in prepared.subtitles.enumerated() {
            let stem = ((s.path as NSString).lastPathComponent as NSString).deletingPathExtension
            let file = LaterFile(name: stem + ".vtt", kind: .webVTT, bytes: Task { await document.value.map { Array($0.text.utf8) } })
            let item = server.share(generated: file, entry: stem + ".vtt", peer: device)
            tokens.append(item.token)
            tracks.append(
                MediaTrack(
                    trackId: i + 1, type: .text, subtype: s.isHearingImpaired ? .captions : .subtitles, trackContentId: item.url,
                    trackContentType: "text/vtt", name: s.facts.name(words), language: s.language))
            later.append(
                Task {
                    guard let doc = await document.value else {
                        return "The embedded subtitles \(s.facts.name(words)) could not be converted to WebVTT; they are left out."
                    }
                    guard let first = doc.warnings.first else { return nil }
                    return "\((s.path as NSString).lastPathComponent): \(doc.warnings.count) cue(s) skipped (\(first))."
                })
        }

        // The container's chapters, as a WebVTT chapter track (issue 31): senders and the
        // device's app show them; the track is never one to turn on.
        if let chapters = info.probe?.mediaChapters, !chapters.isEmpty {
            let vtt = Array(WebVTTChapters.render(chapters).utf8)
            let item = server.share(generated: LaterFile(name: "chapters.vtt", kind: .webVTT, bytes: Task { vtt }), entry: "chapters.vtt", peer: device)
            tokens.append(item.token)
            tracks.append(
                MediaTrack(
                    trackId: Self.chapterTrackID, type: .text, subtype: .chapters, trackContentId: item.url, trackContentType: "text/vtt",
                    name: "Chapters", language: info.probe?.tag("language")))
        }
        if let hls = prepared.hls, hls.renditions.contains(where: { $0.isVideo }) {
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
            contentId: main.url, contentUrl: main.url, streamType: .buffered,
            contentType: prepared.hls == nil ? info.format.mimeType : "application/x-mpegurl", metadata: metadata, duration: info.duration,
            tracks: tracks.isEmpty ? nil : tracks)
        if prepared.hls != nil { media.hlsSegmentFormat = "ts" }
        var cast = LocalCast(
            media: media, info: info, subtitles: prepared.subtitles.map(\.0), warnings: prepared.warnings, tokens: tokens, embeddedArtwork: nil,
            plan: prepared.plan, hls: prepared.hls)
        cast.laterWarnings = Task {
            var out: [String] = []
            for t in later { if let w = await t.value { out.append(w) } }
            return out
        }
        return cast
    }
}

/// One shared file whose bytes are still being made (embedded subtitles, the cover art): a
/// request waits for them; 503 when making them failed.
extension MediaShare {
    /// The chapter track's id: after the subtitles (1, 2, …), apart from audio renditions (101, …).
    public static let chapterTrackID = 1000
}

struct LaterFile: GeneratedFiles {
    enum Kind { case webVTT, image }
    var name: String
    var kind: Kind
    var bytes: Task<[UInt8]?, Never>

    func answer(_ requested: String) async -> GeneratedAnswer {
        guard requested == name else { return .notFound }
        guard let bytes = await bytes.value, !bytes.isEmpty else { return .failed("This file could not be made.") }
        switch kind {
        case .webVTT: return .bytes(bytes, contentType: "text/vtt; charset=utf-8")
        case .image:
            let format = MediaFormat.sniff(bytes)
            guard format.kind == .image else { return .failed("The embedded cover is not an image.") }
            return .bytes(bytes, contentType: format.mimeType)
        }
    }
}
