// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One file served as HLS VOD whose segments ffmpeg makes on demand.
///
/// The playlists cover the whole duration from the start, so the device's seek bar and
/// duration are right before anything is converted. Segment boundaries are fixed in advance:
/// every ``segmentLength`` seconds when the video is converted (keyframes are forced there),
/// at the first keyframe after every ``segmentLength`` seconds when the video is copied
/// (keyframe times read with ffprobe). One ffmpeg run writes every rendition (video, each
/// audio stream) from one segment onwards; a request for a segment that is neither made nor
/// coming soon restarts the run at that segment. Timestamps are the source's (`-copyts`), so
/// segments of different runs fit together; made segments are kept and reused until the
/// scratch folder outgrows its bound.
public final class HLSSession: GeneratedFiles, @unchecked Sendable {
    /// Target segment length (seconds).
    public static let segmentLength = 6.0
    /// A segment this many past the last one made by the live run is waited for, not restarted.
    static let lookahead = 4
    /// The converter pauses (SIGSTOP) once it is this many segments ahead of the last one
    /// asked for, and goes on (SIGCONT) when playback comes closer: a film is not converted
    /// to the end when someone watches ten minutes of it. `CASTDECK_TRANSCODE_AHEAD`
    /// overrides it (tests use a small value, benchmarks a huge one).
    /// `CASTDECK_TRANSCODE_READRATE`: the run started with the cast reads the source at most
    /// this many times real time (ffmpeg's `-readrate`); restarts after a seek, and every run
    /// when unset, go as fast as they can. The pause above is checked ten times a second,
    /// which a remux of a tiny test file outruns; the system test and the benchmark slow the
    /// first run instead, so that a later segment is visibly made on demand.
    static let readRate: Double? = ProcessInfo.processInfo.environment["CASTDECK_TRANSCODE_READRATE"].flatMap { Double($0) }.flatMap { $0 > 0 ? $0 : nil }
    static let ahead: Int = ProcessInfo.processInfo.environment["CASTDECK_TRANSCODE_AHEAD"].flatMap { Int($0) }.map { max($0, 1) } ?? 10

    /// One rendition: `v` (video) or `a0`, `a1`… (audio).
    public struct Rendition: Sendable, Hashable {
        public var name: String
        public var stream: MediaProbe.Stream
        public var copy: Bool
        /// RFC 6381 codec string for the master playlist.
        public var codecs: String
        public var isVideo: Bool { name == "v" }
    }

    public let directory: String
    public let renditions: [Rendition]
    /// Segment start times (the source's timeline); the last segment ends at ``end``.
    public let boundaries: [Double]
    public let end: Double
    let source: String
    let plan: ConversionPlan
    let ffmpeg: String
    let sizeLimit: Int64
    let quality: Int
    let videoEncoder: VideoEncoder
    let fileName: String

    private let lock = NSLock()
    private var done: [String: Set<Int>] = [:]
    private var run: Run?
    private var runCounter = 0
    private var failure: String?
    private var failureWaiters: [UUID: CheckedContinuation<String?, Never>] = [:]
    private var lastRequested = 0
    private var ended = false
    /// A request is starting a run: others wait for it instead of starting their own.
    private var starting = false

    final class Run: @unchecked Sendable {
        let id: Int
        let start: Int
        let process: ConverterProcess
        /// Highest segment this run finished, per rendition.
        var made: [String: Int] = [:]
        var killedByUs = false
        init(id: Int, start: Int, process: ConverterProcess) {
            self.id = id
            self.start = start
            self.process = process
        }
    }

    /// How the video is encoded when it must be.
    public enum VideoEncoder: String, Sendable {
        case x264 = "libx264"
        case vaapi = "h264_vaapi"
    }

    init(
        directory: String, source: String, plan: ConversionPlan, boundaries: [Double], end: Double, renditions: [Rendition], ffmpeg: String,
        sizeLimit: Int64, quality: Int, videoEncoder: VideoEncoder, fileName: String
    ) {
        self.directory = directory
        self.source = source
        self.plan = plan
        self.boundaries = boundaries
        self.end = end
        self.renditions = renditions
        self.ffmpeg = ffmpeg
        self.sizeLimit = sizeLimit
        self.quality = quality
        self.videoEncoder = videoEncoder
        self.fileName = fileName
        for r in renditions { done[r.name] = [] }
        Self.live.register(self)
    }

    /// Every session not finished yet, so that an exit (castctl's Ctrl-C, `exit()`) kills the
    /// converters and removes the scratch folders first.
    private static let live = LiveSessions()

    private final class LiveSessions: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [ObjectIdentifier: HLSSession] = [:]
        private var hooked = false
        func register(_ s: HLSSession) {
            let hook: Bool = lock.withLock {
                all[ObjectIdentifier(s)] = s
                defer { hooked = true }
                return !hooked
            }
            if hook { atexit { HLSSession.finishAll() } }
        }
        func unregister(_ s: HLSSession) { _ = lock.withLock { all.removeValue(forKey: ObjectIdentifier(s)) } }
        func snapshot() -> [HLSSession] { lock.withLock { Array(all.values) } }
    }

    /// Finishes every live session (process exit).
    public static func finishAll() {
        for s in live.snapshot() { s.finish() }
        ConverterProcess.killAll()
    }

    // MARK: - Making a session

    /// Plans the segments of `path` (keyframes read when the video is copied) and makes the
    /// scratch folder under `root`. Nothing is converted until ``start()`` or a request.
    static func make(
        path: String, probe: MediaProbe, plan: ConversionPlan, root: String, ffmpeg: String, ffprobe: String, sizeLimit: Int64, quality: Int
    ) async throws(LocalMediaError) -> HLSSession {
        let fileName = (path as NSString).lastPathComponent
        guard ToolRunner.findInPath(ffmpeg) != nil || ffmpeg.contains("/") else { throw .converterMissing(file: fileName) }
        let start = probe.format.startTime ?? 0
        let end = start + plan.duration
        guard plan.duration > 0 else { throw .converterFailed(file: fileName, reason: "ffprobe reports no duration, so no playlist can be made") }
        var renditions: [Rendition] = []
        if let v = plan.video {
            let copy = v.action == .remux
            renditions.append(Rendition(name: "v", stream: v.stream, copy: copy, codecs: copy ? codecString(v.stream) : "avc1.640029"))
        }
        for (i, a) in plan.audio.enumerated() {
            let copy = a.action == .remux
            renditions.append(Rendition(name: "a\(i)", stream: a.stream, copy: copy, codecs: copy ? codecString(a.stream) : "mp4a.40.2"))
        }
        var boundaries: [Double]
        if let v = renditions.first(where: \.isVideo), v.copy {
            boundaries = try await keyframeBoundaries(path: path, stream: v.stream.index, ffprobe: ffprobe, end: end, fileName: fileName)
        } else {
            boundaries = stride(from: start, to: end - 0.5, by: segmentLength).map { $0 }
        }
        if boundaries.isEmpty { boundaries = [start] }
        let dir = (root as NSString).appendingPathComponent("\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .scratchUnusable(path: dir, reason: error.localizedDescription)
        }
        let encoder: VideoEncoder = await VAAPI.usable(ffmpeg: ffmpeg) ? .vaapi : .x264
        return HLSSession(
            directory: dir, source: path, plan: plan, boundaries: boundaries, end: end, renditions: renditions, ffmpeg: ffmpeg, sizeLimit: sizeLimit,
            quality: quality, videoEncoder: encoder, fileName: fileName)
    }

    /// Segment starts at the first keyframe at or after every ``segmentLength`` seconds.
    static func keyframeBoundaries(path: String, stream: Int, ffprobe: String, end: Double, fileName: String) async throws(LocalMediaError) -> [Double] {
        let r: ToolResult
        do {
            r = try await ToolRunner.run(
                ffprobe, ["-v", "error", "-select_streams", "\(stream)", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", "--", path],
                timeout: .seconds(300))
        } catch {
            throw .converterFailed(file: fileName, reason: error.reason)
        }
        var keyframes: [Double] = []
        for line in String(decoding: r.stdout, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ",")
            guard parts.count >= 2, parts[1].contains("K"), let t = Double(parts[0]) else { continue }
            keyframes.append(t)
        }
        keyframes.sort()
        var out: [Double] = []
        for k in keyframes where k < end - 0.5 {
            if let last = out.last {
                if k >= last + segmentLength - 0.05 { out.append(k) }
            } else {
                out.append(k)
            }
        }
        return out
    }

    /// `avc1.64001f`, `hvc1.2.4.L120.B0`, `mp4a.40.2`, `mp4a.40.34` for a copied stream.
    static func codecString(_ s: MediaProbe.Stream) -> String {
        switch s.codecName {
        case "h264":
            let p = (s.profile ?? "").lowercased()
            let (profile, constraint) =
                p.contains("constrained baseline") ? (0x42, 0xE0) : p.contains("baseline") ? (0x42, 0) : p.contains("main") ? (0x4D, 0)
                : p.contains("high 10") ? (0x6E, 0) : (0x64, 0)
            return String(format: "avc1.%02x%02x%02x", profile, constraint, max(s.level ?? 41, 0))
        case "hevc":
            let main10 = (s.profile ?? "").lowercased().contains("10")
            return main10 ? "hvc1.2.4.L\(s.level ?? 120).B0" : "hvc1.1.6.L\(s.level ?? 120).B0"
        case "mp3": return "mp4a.40.34"
        case "aac": return "mp4a.40.2"
        default: return s.codecName ?? "unknown"
        }
    }

    // MARK: - Playlists

    public var masterPlaylist: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let audio = renditions.filter { !$0.isVideo }
        let video = renditions.first(where: \.isVideo)
        let defaultAudio = audio.firstIndex { $0.stream.isDefault } ?? 0
        if video != nil {
            for (i, a) in audio.enumerated() {
                let lang = a.stream.language.flatMap { $0 == "und" ? nil : (Languages.lookup($0)?.tag ?? $0) }
                let name = Self.quoted(Self.audioName(a.stream, number: i + 1))
                var attrs = "TYPE=AUDIO,GROUP-ID=\"audio\",NAME=\(name)"
                if let lang { attrs += ",LANGUAGE=\"\(lang)\"" }
                attrs += ",DEFAULT=\(i == defaultAudio ? "YES" : "NO"),AUTOSELECT=YES,CHANNELS=\"\(a.copy ? a.stream.channels ?? 2 : min(a.stream.channels ?? 2, 2))\""
                attrs += ",URI=\"\(a.name).m3u8\""
                lines.append("#EXT-X-MEDIA:" + attrs)
            }
        }
        if let v = video {
            var codecs = [v.codecs]
            if let a = audio.first { codecs.append(a.codecs) }
            var attrs = "BANDWIDTH=\(bandwidth),CODECS=\"\(codecs.joined(separator: ","))\""
            if let w = v.stream.width, let h = v.stream.height { attrs += ",RESOLUTION=\(outputSize(w, h).0)x\(outputSize(w, h).1)" }
            if !audio.isEmpty { attrs += ",AUDIO=\"audio\"" }
            lines.append("#EXT-X-STREAM-INF:" + attrs)
            lines.append("v.m3u8")
        } else if let a = audio.first {
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),CODECS=\"\(a.codecs)\"")
            lines.append("\(a.name).m3u8")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A generous estimate; players use it only to choose among variants, and there is one.
    var bandwidth: Int {
        let v = renditions.first(where: \.isVideo)
        return (v == nil ? 0 : 6_000_000) + 192_000
    }

    public func mediaPlaylist(_ rendition: String) -> String {
        let durations = segmentDurations
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:\(Int((durations.max() ?? Self.segmentLength).rounded(.up)))",
            "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD",
        ]
        for (i, d) in durations.enumerated() {
            lines.append(String(format: "#EXTINF:%.6f,", d))
            lines.append(Self.segmentName(rendition, i))
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    var segmentDurations: [Double] {
        boundaries.indices.map { i in (i + 1 < boundaries.count ? boundaries[i + 1] : end) - boundaries[i] }
    }

    static func segmentName(_ rendition: String, _ index: Int) -> String { String(format: "%@_%05d.ts", rendition, index) }

    static func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "'") + "\"" }

    /// "Deutsch", "English – Commentary", "Audio 2".
    public static func audioName(_ s: MediaProbe.Stream, number: Int) -> String {
        let lang = s.language.flatMap { $0 == "und" ? nil : (Languages.lookup($0)?.name ?? $0) }
        switch (lang, s.title) {
        case (let l?, let t?) where t != l: return "\(l) – \(t)"
        case (let l?, _): return l
        case (nil, let t?): return t
        default: return "Audio \(number)"
        }
    }

    /// The picture size after conversion (at most 1920×1080, even sides).
    func outputSize(_ w: Int, _ h: Int) -> (Int, Int) {
        guard let v = renditions.first(where: \.isVideo), !v.copy else { return (w, h) }
        let scale = min(1, min(1920 / Double(w), 1080 / Double(h)))
        func even(_ x: Double) -> Int { max(2, Int(x) / 2 * 2) }
        return (even(Double(w) * scale), even(Double(h) * scale))
    }

    // MARK: - Serving

    /// What the server answers for `name` (a playlist, a segment made on demand, or 404).
    public func answer(_ name: String) async -> GeneratedAnswer {
        if name == "master.m3u8" { return .bytes(Array(masterPlaylist.utf8), contentType: "application/vnd.apple.mpegurl") }
        if name.hasSuffix(".m3u8") {
            let r = String(name.dropLast(5))
            guard renditions.contains(where: { $0.name == r }) else { return .notFound }
            return .bytes(Array(mediaPlaylist(r).utf8), contentType: "application/vnd.apple.mpegurl")
        }
        guard name.hasSuffix(".ts"), let underscore = name.lastIndex(of: "_") else { return .notFound }
        let r = String(name[..<underscore])
        guard renditions.contains(where: { $0.name == r }), let i = Int(name[name.index(after: underscore)...].dropLast(3)), boundaries.indices.contains(i)
        else { return .notFound }
        switch await segment(r, i) {
        case .success(let path): return .file(path: path, contentType: "video/mp2t")
        case .failure(let e): return .failed(e.description)
        }
    }

    /// The path of segment `index` of `rendition`, made first when it is not there yet.
    public func segment(_ rendition: String, _ index: Int, timeout: Duration = .seconds(120)) async -> Result<String, LocalMediaError> {
        let deadline = ContinuousClock.now + timeout
        let path = (directory as NSString).appendingPathComponent(Self.segmentName(rendition, index))
        lock.withLock { lastRequested = index }
        while ContinuousClock.now < deadline {
            enum Next { case ready, failed(String), wait, restart }
            let next: Next = lock.withLock {
                if done[rendition]?.contains(index) == true { return .ready }
                if let failure { return .failed(failure) }
                if ended { return .failed("the cast ended") }
                if starting { return .wait }
                if let run, run.process.status == nil, run.start <= index, index <= (run.made[rendition] ?? run.start - 1) + Self.lookahead {
                    return .wait
                }
                starting = true
                return .restart
            }
            switch next {
            case .ready: return .success(path)
            case .failed(let why): return .failure(.converterFailed(file: fileName, reason: why))
            case .wait: try? await Task.sleep(for: .milliseconds(50))
            case .restart:
                if let e = startRun(at: index) { return .failure(e) }
            }
        }
        return .failure(.converterFailed(file: fileName, reason: "segment \(index) was not ready within \(timeout)"))
    }

    /// Starts producing from the beginning (before the LOAD, so the first segment is there
    /// when the device asks).
    public func start() {
        _ = startRun(at: 0)
    }

    /// Waits until the first segment of every rendition exists (the window's "Preparing…").
    public func waitForFirstSegment() async throws(LocalMediaError) {
        for r in renditions {
            if case .failure(let e) = await segment(r.name, 0) { throw e }
        }
    }

    /// Returns the sentence for a failed conversion when one happens; nil when the task is
    /// cancelled first (never returns while all is well).
    public func nextFailure() async -> String? {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<String?, Never>) in
                let now: String?? = lock.withLock {
                    if let failure { return .some(failure) }
                    if Task.isCancelled { return .some(nil) }
                    failureWaiters[id] = c
                    return nil
                }
                if let now { c.resume(returning: now) }
            }
        } onCancel: {
            let c = lock.withLock { failureWaiters.removeValue(forKey: id) }
            c?.resume(returning: nil)
        }
    }

    /// How far the converter got (seconds of the source made, from the start), for a progress line.
    public var producedUntil: Double {
        lock.withLock {
            var i = 0
            while renditions.allSatisfy({ done[$0.name]?.contains(i) == true }) { i += 1 }
            return i < boundaries.count ? boundaries[i] - boundaries[0] : end - boundaries[0]
        }
    }

    /// The live converter's process id (tests).
    var converterPID: pid_t? { lock.withLock { run?.process.status == nil ? run?.process.pid : nil } }

    /// Kills the converter and removes the scratch folder.
    public func finish() {
        let r: Run? = lock.withLock {
            ended = true
            defer { run = nil }
            return run
        }
        r?.killedByUs = true
        r?.process.kill()
        try? FileManager.default.removeItem(atPath: directory)
        Self.live.unregister(self)
    }

    // MARK: - Runs

    /// Kills the live run (if any) and starts one at segment `index`; nil when it started.
    private func startRun(at index: Int) -> LocalMediaError? {
        defer { lock.withLock { starting = false } }
        let (old, id): (Run?, Int) = lock.withLock {
            runCounter += 1
            let o = run
            run = nil
            return (o, runCounter)
        }
        if let old {
            old.killedByUs = true
            old.process.kill()
        }
        let args = arguments(run: id, from: index)
        let process: ConverterProcess
        do {
            process = try ConverterProcess.start(ffmpeg, args, logPath: (directory as NSString).appendingPathComponent("r\(id).log"))
        } catch {
            let e = LocalMediaError.converterFailed(file: fileName, reason: error.reason)
            fail(e.description)
            return e
        }
        let newRun = Run(id: id, start: index, process: process)
        let stale: Bool = lock.withLock {
            if ended { return true }
            run = newRun
            return false
        }
        if stale {
            process.kill()
            return .converterFailed(file: fileName, reason: "the cast ended")
        }
        Task.detached { [self] in await self.follow(newRun) }
        return nil
    }

    /// Collects the segments a run finishes (from its segment lists) until it ends.
    private func follow(_ r: Run) async {
        var paused = false
        while r.process.status == nil {
            collect(r)
            let (made, wanted) = lock.withLock { (renditions.map { r.made[$0.name] ?? r.start - 1 }.min() ?? 0, lastRequested) }
            if !paused, made > wanted + Self.ahead {
                paused = r.process.signal(SIGSTOP)
            } else if paused, made <= wanted + Self.ahead {
                paused = !r.process.signal(SIGCONT)
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        collect(r)
        let status = r.process.status ?? 0
        if status != 0, !r.killedByUs, lock.withLock({ !ended }) {
            fail("ffmpeg stopped (\(status < 0 ? "killed by signal \(-status)" : "exit status \(status)")): \(r.process.lastMessage)")
        }
        try? FileManager.default.removeItem(atPath: r.process.logPath)
        for rend in renditions { try? FileManager.default.removeItem(atPath: listPath(r.id, rend.name)) }
    }

    private func listPath(_ run: Int, _ rendition: String) -> String {
        (directory as NSString).appendingPathComponent("r\(run)_\(rendition).csv")
    }

    private func collect(_ r: Run) {
        var changed = false
        for rend in renditions {
            guard let text = try? String(contentsOfFile: listPath(r.id, rend.name), encoding: .utf8) else { continue }
            for line in text.split(whereSeparator: \.isNewline) {
                guard let file = line.split(separator: ",").first, let under = file.lastIndex(of: "_"),
                    let i = Int(file[file.index(after: under)...].dropLast(3))
                else { continue }
                if lock.withLock({ done[rend.name]?.contains(i) == true }) {
                    if (r.made[rend.name] ?? -1) < i { r.made[rend.name] = i }
                    continue
                }
                let temp = (directory as NSString).appendingPathComponent(String(file))
                let final = (directory as NSString).appendingPathComponent(Self.segmentName(rend.name, i))
                if rename(temp, final) == 0 {
                    lock.withLock {
                        _ = done[rend.name]?.insert(i)
                        if (r.made[rend.name] ?? -1) < i { r.made[rend.name] = i }
                    }
                    changed = true
                }
            }
        }
        if changed { enforceSizeLimit() }
    }

    /// Removes made segments, farthest behind the playhead first, while the folder is too big.
    private func enforceSizeLimit() {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        var total: Int64 = 0
        var segments: [(name: String, rendition: String, index: Int, size: Int64)] = []
        for n in names {
            let p = (directory as NSString).appendingPathComponent(n)
            let size = (try? fm.attributesOfItem(atPath: p)[.size] as? Int64) ?? 0
            total += size ?? 0
            if n.hasSuffix(".ts"), !n.hasPrefix("r"), let u = n.lastIndex(of: "_"), let i = Int(n[n.index(after: u)...].dropLast(3)) {
                segments.append((n, String(n[..<u]), i, size ?? 0))
            }
        }
        guard total > sizeLimit else { return }
        let here = lock.withLock { lastRequested }
        // Behind the playhead first (oldest first), then farthest ahead.
        segments.sort { a, b in
            let ka = a.index < here - 1 ? (0, a.index) : (1, -a.index)
            let kb = b.index < here - 1 ? (0, b.index) : (1, -b.index)
            return ka < kb
        }
        for s in segments where total > sizeLimit {
            if s.index >= here - 1 && s.index <= here + Self.lookahead { continue }
            lock.withLock { _ = done[s.rendition]?.remove(s.index) }
            try? fm.removeItem(atPath: (directory as NSString).appendingPathComponent(s.name))
            total -= s.size
        }
    }

    private func fail(_ sentence: String) {
        let waiters: [CheckedContinuation<String?, Never>] = lock.withLock {
            if failure == nil { failure = sentence }
            defer { failureWaiters = [:] }
            return Array(failureWaiters.values)
        }
        for w in waiters { w.resume(returning: sentence) }
    }

    /// ffmpeg's arguments for run `id` from segment `index`: one segment-muxer output per rendition.
    func arguments(run id: Int, from index: Int) -> [String] {
        let t = boundaries[index]
        var a = ["-nostdin", "-hide_banner", "-v", "error", "-y", "-copyts"]
        if index > 0 { a += ["-ss", String(format: "%.6f", t)] }
        if videoEncoder == .vaapi { a += ["-vaapi_device", VAAPI.device] }
        if let rate = Self.readRate, id == 1 { a += ["-readrate", String(rate)] }
        a += ["-i", source]
        let cuts = boundaries[(index + 1)...].map { String(format: "%.6f", $0) }
        for r in renditions {
            if r.isVideo {
                if r.copy {
                    a += ["-map", "0:\(r.stream.index)", "-c:v", "copy"]
                } else {
                    a += videoEncoding(r.stream, from: index)
                }
            } else {
                a += ["-map", "0:\(r.stream.index)"]
                a += r.copy ? ["-c:a", "copy"] : ["-c:a", "aac", "-ac", "\(min(r.stream.channels ?? 2, 2))", "-b:a", "160k"]
            }
            a += ["-f", "segment", "-segment_format", "mpegts", "-segment_start_number", "\(index)"]
            if !cuts.isEmpty { a += ["-segment_times", cuts.joined(separator: ",")] }
            a += ["-segment_list", listPath(id, r.name), "-segment_list_type", "csv", "-max_muxing_queue_size", "4096"]
            a.append((directory as NSString).appendingPathComponent("r\(id)_\(r.name)_%05d.ts"))
        }
        return a
    }

    private func videoEncoding(_ s: MediaProbe.Stream, from index: Int) -> [String] {
        let (w, h) = outputSize(s.width ?? 1920, s.height ?? 1080)
        var filters: [String] = []
        var a: [String] = []
        if let burn = plan.burned?.stream {
            if ConversionPlan.textSubtitleCodecs.contains(burn.codecName ?? "") {
                let n = (plan.steps.filter { $0.stream.codecType == "subtitle" }.firstIndex { $0.stream.index == burn.index }) ?? 0
                let escaped = source.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
                    .replacingOccurrences(of: "'", with: "\\'")
                a += ["-map", "0:\(s.index)"]
                filters.append("subtitles='\(escaped)':si=\(n)")
                filters.append("scale=\(w):\(h)")
                a += ["-vf", filters.joined(separator: ",")]
            } else {
                a += ["-filter_complex", "[0:\(s.index)][0:\(burn.index)]overlay=eof_action=pass,scale=\(w):\(h),format=yuv420p[vout]", "-map", "[vout]"]
            }
        } else {
            a += ["-map", "0:\(s.index)"]
            if videoEncoder == .vaapi {
                a += ["-vf", "format=nv12,hwupload,scale_vaapi=w=\(w):h=\(h)"]
            } else {
                a += ["-vf", "scale=\(w):\(h),format=yuv420p"]
            }
        }
        let keys = boundaries[index...].map { String(format: "%.6f", $0) }.joined(separator: ",")
        if videoEncoder == .vaapi {
            a += ["-c:v", "h264_vaapi", "-qp", "\(quality)", "-profile:v", "high", "-level", "41"]
        } else {
            a += ["-c:v", "libx264", "-preset", "veryfast", "-crf", "\(quality)", "-profile:v", "high", "-level:v", "4.1", "-pix_fmt", "yuv420p"]
        }
        a += ["-force_key_frames", keys]
        return a
    }
}

/// What the media server answers for a generated name.
public enum GeneratedAnswer: Sendable {
    case file(path: String, contentType: String)
    case bytes([UInt8], contentType: String)
    case notFound
    /// 503 with this sentence.
    case failed(String)
}

/// Finds out once whether VA-API encoding works here (a render node and a one-frame test).
enum VAAPI {
    static let device = "/dev/dri/renderD128"
    private static let cached = LockedBox<Bool?>(nil)

    static func usable(ffmpeg: String) async -> Bool {
        if let known = cached.get() { return known }
        var ok = false
        if FileManager.default.fileExists(atPath: device), ProcessInfo.processInfo.environment["CASTDECK_NO_VAAPI"] == nil {
            let r = try? await ToolRunner.run(
                ffmpeg,
                [
                    "-v", "error", "-nostdin", "-vaapi_device", device, "-f", "lavfi", "-i", "testsrc=size=64x64:duration=0.1", "-vf", "format=nv12,hwupload",
                    "-c:v", "h264_vaapi", "-f", "null", "-",
                ], timeout: .seconds(10))
            ok = r?.status == 0
        }
        cached.set(ok)
        return ok
    }
}
