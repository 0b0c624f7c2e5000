// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

#if canImport(Glibc)
import Glibc
#endif

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
    /// Target segment length (seconds) when the video is copied: cut at keyframes, and
    /// copying costs nothing, so long segments mean fewer requests.
    public static let segmentLength = 6.0
    /// Segment length when the video is converted: the device waits for one whole segment
    /// after the start and after every seek, and on two cores 1 s of 1080p takes ~0.5 s
    /// with the quick preset (2 s segments made the seek to 80 % of a film wait 2.1 s, 1 s
    /// segments cost a keyframe a second, a few per cent of bitrate on a LAN).
    public static let convertedSegmentLength = 1.0
    /// A run that converts video makes its first this-many segments with x264's fastest
    /// preset, then the next run goes on with ``preset``: the first picture comes sooner.
    static let quickSegments = 3
    /// x264's preset after the quick segments. Measured on a 2-core machine for 2 s of
    /// 1080p HEVC 10-bit: ultrafast 0.98 s, superfast 1.42 s, veryfast 2.53 s — veryfast
    /// does not keep up with playback there; superfast does, with room to spare.
    static let preset = "superfast"
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

    let lock = NSLock()
    var done: [String: Set<Int>] = [:]
    var run: Run?
    var runCounter = 0
    var failure: String?
    var failureWaiters: [UUID: CheckedContinuation<String?, Never>] = [:]
    var lastRequested = 0
    /// The segment ``start(at:)`` began with.
    var firstIndex = 0
    var ended = false
    /// A request is starting a run: others wait for it instead of starting their own.
    var starting = false

    final class Run: @unchecked Sendable {
        let id: Int
        let start: Int
        let process: ConverterProcess
        /// A quick run ends before this segment, and the next run starts there.
        let until: Int?
        /// Started by ``start()`` (or chained to such a run), not by a request.
        let initial: Bool
        /// Highest segment this run finished, per rendition.
        var made: [String: Int] = [:]
        var killedByUs = false
        init(id: Int, start: Int, process: ConverterProcess, until: Int?, initial: Bool) {
            self.id = id
            self.start = start
            self.process = process
            self.until = until
            self.initial = initial
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
        let lock = NSLock()
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

    // MARK: - Segments on demand

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
            case .wait: try? await Task.sleep(for: .milliseconds(10))
            case .restart:
                if let e = startRun(at: index) { return .failure(e) }
            }
        }
        return .failure(.converterFailed(file: fileName, reason: "segment \(index) was not ready within \(timeout)"))
    }

    /// Starts producing from `seconds` into the media (0, or where it stopped last time),
    /// before the LOAD, so the first segment the device asks for is there.
    public func start(at seconds: Double = 0) {
        let t = (boundaries.first ?? 0) + max(seconds, 0)
        let index = boundaries.lastIndex { $0 <= t + 0.001 } ?? 0
        lock.withLock { firstIndex = index }
        _ = startRun(at: index, initial: true)
    }

    /// Waits until the segment playback starts with exists for every rendition (the window's
    /// "Preparing…").
    public func waitForFirstSegment() async throws(LocalMediaError) {
        let first = lock.withLock { firstIndex }
        for r in renditions {
            if case .failure(let e) = await segment(r.name, first) { throw e }
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

    /// What the converter has made, as ranges of seconds from the start of the media: one
    /// range per run of finished segments (every rendition's), in order. A seek starts a new
    /// run further on, and the size limit removes old segments, so there may be several.
    public var producedRanges: [Range<Double>] {
        lock.withLock {
            let made = Set(boundaries.indices.filter { i in renditions.allSatisfy { done[$0.name]?.contains(i) == true } })
            return Self.ranges(of: made, boundaries: boundaries, end: end)
        }
    }

    /// The finished segments `made` (indices) as ranges of seconds from the first boundary, one
    /// per run of consecutive segments; the last segment ends at `end`.
    static func ranges(of made: Set<Int>, boundaries: [Double], end: Double) -> [Range<Double>] {
        let origin = boundaries.first ?? 0
        var out: [Range<Double>] = []
        var runStart: Int?
        for i in 0...boundaries.count {
            let isMade = i < boundaries.count && made.contains(i)
            if isMade, runStart == nil { runStart = i }
            if !isMade, let start = runStart {
                out.append((boundaries[start] - origin)..<((i < boundaries.count ? boundaries[i] : end) - origin))
                runStart = nil
            }
        }
        return out
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
}

/// What the media server answers for a generated name.
public enum GeneratedAnswer: Sendable {
    case file(path: String, contentType: String)
    case bytes([UInt8], contentType: String)
    case notFound
    /// 503 with this sentence.
    case failed(String)
}
