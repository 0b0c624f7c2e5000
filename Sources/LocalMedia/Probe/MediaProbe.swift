// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastCore
import Foundation

/// What ffprobe says about a file: the container and every stream, with the fields the
/// conversion planner (issue 13) needs as well as the tags shown as metadata.
public struct MediaProbe: Sendable, Hashable, Decodable {
    public struct Format: Sendable, Hashable, Decodable {
        /// ffprobe's demuxer names, comma-separated (`mov,mp4,m4a,3gp,3g2,mj2`).
        public var formatName: String?
        public var duration: Double?
        /// When the first packet plays (seconds; usually 0, 1.4 in MPEG-TS).
        public var startTime: Double?
        public var bitRate: Int?
        public var tags: [String: String]

        enum CodingKeys: String, CodingKey { case formatName = "format_name", duration, startTime = "start_time", bitRate = "bit_rate", tags }
        public init(from d: any Decoder) throws {
            let c = try d.container(keyedBy: CodingKeys.self)
            formatName = try c.decodeIfPresent(String.self, forKey: .formatName)
            duration = (try? c.decodeIfPresent(String.self, forKey: .duration)).flatMap { Double($0) }
            startTime = (try? c.decodeIfPresent(String.self, forKey: .startTime)).flatMap { Double($0) }
            bitRate = (try? c.decodeIfPresent(String.self, forKey: .bitRate)).flatMap { Int($0) }
            tags = MediaProbe.lowercasedKeys(try? c.decodeIfPresent([String: String].self, forKey: .tags))
        }
    }

    public struct Stream: Sendable, Hashable, Decodable {
        public var index: Int
        /// `video`, `audio`, `subtitle`, `data`, `attachment`.
        public var codecType: String?
        /// `h264`, `hevc`, `aac`, `ac3`, `subrip`, `mjpeg` ...
        public var codecName: String?
        public var profile: String?
        public var level: Int?
        public var width: Int?
        public var height: Int?
        public var pixelFormat: String?
        public var bitsPerRawSample: Int?
        /// `24000/1001`.
        public var frameRate: String?
        public var channels: Int?
        public var duration: Double?
        public var isDefault: Bool
        public var isForced: Bool
        /// Embedded cover art (a picture stream that is not video).
        public var isAttachedPicture: Bool
        public var tags: [String: String]

        public var language: String? { tags["language"] }
        public var title: String? { tags["title"] }

        enum CodingKeys: String, CodingKey {
            case index, codecType = "codec_type", codecName = "codec_name", profile, level, width, height, pixelFormat = "pix_fmt"
            case bitsPerRawSample = "bits_per_raw_sample", frameRate = "avg_frame_rate", channels, duration, disposition, tags
        }
        public init(from d: any Decoder) throws {
            let c = try d.container(keyedBy: CodingKeys.self)
            index = try c.decode(Int.self, forKey: .index)
            codecType = try? c.decodeIfPresent(String.self, forKey: .codecType)
            codecName = try? c.decodeIfPresent(String.self, forKey: .codecName)
            profile = try? c.decodeIfPresent(String.self, forKey: .profile)
            level = try? c.decodeIfPresent(Int.self, forKey: .level)
            width = try? c.decodeIfPresent(Int.self, forKey: .width)
            height = try? c.decodeIfPresent(Int.self, forKey: .height)
            pixelFormat = try? c.decodeIfPresent(String.self, forKey: .pixelFormat)
            bitsPerRawSample = (try? c.decodeIfPresent(String.self, forKey: .bitsPerRawSample)).flatMap { Int($0) }
            frameRate = try? c.decodeIfPresent(String.self, forKey: .frameRate)
            channels = try? c.decodeIfPresent(Int.self, forKey: .channels)
            duration = (try? c.decodeIfPresent(String.self, forKey: .duration)).flatMap { Double($0) }
            let disposition = (try? c.decodeIfPresent([String: Int].self, forKey: .disposition)) ?? nil
            isDefault = disposition?["default"] == 1
            isForced = disposition?["forced"] == 1
            isAttachedPicture = disposition?["attached_pic"] == 1
            tags = MediaProbe.lowercasedKeys(try? c.decodeIfPresent([String: String].self, forKey: .tags))
        }
    }

    /// A container chapter (Matroska, MP4 chapter atoms), from `-show_chapters`.
    public struct Chapter: Sendable, Hashable, Decodable {
        public var start: Double?
        public var end: Double?
        public var title: String?

        enum CodingKeys: String, CodingKey { case start = "start_time", end = "end_time", tags }
        public init(from d: any Decoder) throws {
            let c = try d.container(keyedBy: CodingKeys.self)
            start = (try? c.decodeIfPresent(String.self, forKey: .start)).flatMap { Double($0) }
            end = (try? c.decodeIfPresent(String.self, forKey: .end)).flatMap { Double($0) }
            title = MediaProbe.lowercasedKeys(try? c.decodeIfPresent([String: String].self, forKey: .tags))["title"]
        }
    }

    public var format: Format
    public var streams: [Stream]
    /// Always present in what `run` reads (a probe cached before chapters were asked for does
    /// not decode, so it is made again).
    public var chapters: [Chapter]

    static func lowercasedKeys(_ d: [String: String]?) -> [String: String] {
        var out: [String: String] = [:]
        for (k, v) in d ?? [:] { out[k.lowercased()] = v }
        return out
    }

    public var videoStreams: [Stream] { streams.filter { $0.codecType == "video" && !$0.isAttachedPicture } }
    public var audioStreams: [Stream] { streams.filter { $0.codecType == "audio" } }
    public var subtitleStreams: [Stream] { streams.filter { $0.codecType == "subtitle" } }
    public var coverArt: Stream? { streams.first { $0.isAttachedPicture } }
    /// The container's chapters that can be shown: in time order, with a start and an end
    /// after it, at most `WebVTTChapters.maxChapters`.
    public var mediaChapters: [MediaChapter] {
        let usable = chapters.compactMap { c -> MediaChapter? in
            guard let start = c.start, let end = c.end, start.isFinite, end.isFinite, start >= 0, end > start else { return nil }
            return MediaChapter(start: start, end: end, title: c.title?.trimmingCharacters(in: .whitespaces) ?? "")
        }
        return Array(usable.sorted { $0.start < $1.start }.prefix(WebVTTChapters.maxChapters))
    }

    /// A container tag (case-insensitive name).
    public func tag(_ name: String) -> String? {
        let v = format.tags[name.lowercased()]?.trimmingCharacters(in: .whitespaces)
        return v?.isEmpty == false ? v : nil
    }

    /// Runs `ffprobe -show_format -show_streams -show_chapters` on `path`.
    ///
    /// ffprobe is run with Foundation's `Process`, from the toolchain, rather than
    /// swift-subprocess: a probe is one short command whose whole output is read at once,
    /// and `Process` needs no extra package to build on every CI run. It is bounded by
    /// `timeout` and killed when it overruns.
    /// Answered from ``ProbeCache`` when this version of the file was probed before.
    public static func run(path: String, ffprobe: String = "ffprobe", timeout: Duration = .seconds(20)) async throws(LocalMediaError) -> MediaProbe {
        let stamp = FileStamp(path: path)
        if let stamp, let text = ProbeCache.shared.entry(stamp, tool: ffprobe)?.probe,
            let probe = try? JSONDecoder().decode(MediaProbe.self, from: Data(text.utf8))
        {
            return probe
        }
        let result: ToolResult
        do {
            result = try await ToolRunner.run(
                ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", "-show_chapters", "--", path], timeout: timeout)
        } catch {
            throw .probeFailed(path: path, reason: error.reason)
        }
        guard result.status == 0 else {
            let why = String(decoding: result.stderr, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "exit status \(result.status)"
            throw .probeFailed(path: path, reason: why)
        }
        do {
            let probe = try JSONDecoder().decode(MediaProbe.self, from: Data(result.stdout))
            if let stamp, stamp == FileStamp(path: path) {
                ProbeCache.shared.update(stamp, tool: ffprobe) { $0.probe = String(decoding: result.stdout, as: UTF8.self) }
            }
            return probe
        } catch {
            throw .probeFailed(path: path, reason: "unreadable ffprobe output (\(error))")
        }
    }

    /// The bytes of the embedded cover art (`coverArt`), copied out with ffmpeg; nil when
    /// there is none or ffmpeg is missing.
    public func extractCoverArt(path: String, ffmpeg: String = "ffmpeg") async -> [UInt8]? {
        guard let art = coverArt else { return nil }
        let r = try? await ToolRunner.run(
            ffmpeg, ["-v", "error", "-nostdin", "-i", path, "-map", "0:\(art.index)", "-c", "copy", "-frames:v", "1", "-f", "image2pipe", "-"],
            timeout: .seconds(20))
        guard let r, r.status == 0, !r.stdout.isEmpty else { return nil }
        return r.stdout
    }
}

/// What a finished tool run left.
struct ToolResult: Sendable {
    var status: Int32
    var stdout: [UInt8]
    var stderr: [UInt8]
}

struct ToolError: Error {
    var reason: String
}

/// Runs a command to its end off the cooperative thread pool (reading pipes blocks).
enum ToolRunner {
    static func run(_ tool: String, _ arguments: [String], timeout: Duration) async throws(ToolError) -> ToolResult {
        let outcome: Result<ToolResult, ToolError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: runBlocking(tool, arguments, timeout: timeout))
            }
        }
        return try outcome.get()
    }

    private static func runBlocking(_ tool: String, _ arguments: [String], timeout: Duration) -> Result<ToolResult, ToolError> {
        let process = Process()
        if tool.contains("/") {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
        } else {
            guard let found = findInPath(tool) else { return .failure(ToolError(reason: "\(tool) is not installed (Debian: apt install ffmpeg)")) }
            process.executableURL = URL(fileURLWithPath: found)
            process.arguments = arguments
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(ToolError(reason: "\(tool) could not start: \(error.localizedDescription)"))
        }
        let running = Unchecked(process)
        let killer = DispatchWorkItem { if running.value.isRunning { running.value.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds, execute: killer)
        // Read stderr on another thread so neither pipe can fill up and stall the tool.
        let errData = LockedBox<Data>(Data())
        let errReader = Unchecked(err.fileHandleForReading)
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.set(errReader.value.readDataToEndOfFile())
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        killer.cancel()
        if process.terminationReason == .uncaughtSignal {
            return .failure(ToolError(reason: "\(tool) did not finish within \(Int(timeout.seconds)) s or was killed"))
        }
        return .success(ToolResult(status: process.terminationStatus, stdout: Array(outData), stderr: Array(errData.get())))
    }

    static func findInPath(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// A value guarded by a lock, for handing results between threads.
final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func get() -> T { lock.withLock { value } }
    func set(_ v: T) { lock.withLock { value = v } }
}

/// Hands a non-Sendable object to exactly one other thread that uses it alone.
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
