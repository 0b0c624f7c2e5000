// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#endif

/// How a live stream is encoded for the HTTP live path: H.264 with x264's zero-latency
/// tuning (no B-frames, no look-ahead, sliced threads) and a short group of pictures, AAC
/// when there is sound, in fragmented MP4 cut at every key frame and at least every
/// `fragmentSeconds`, written to stdout as soon as each fragment is complete.
public struct LiveEncoding: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var fps: Int
    public var videoKbps: Int
    /// A key frame this often (what a late or reconnecting client may have to wait or replay).
    public var keyframeSeconds: Double = 1
    /// Fragments at most this long (the delay one fragment adds before it can be sent).
    public var fragmentSeconds: Double = 0.1
    public var audio: Bool = false
    public var audioKbps: Int = 128

    public init(width: Int, height: Int, fps: Int, videoKbps: Int, audio: Bool = false) {
        self.width = width
        self.height = height
        self.fps = fps
        self.videoKbps = videoKbps
        self.audio = audio
    }

    /// Frames per group of pictures.
    public var gop: Int { max(1, Int((keyframeSeconds * Double(fps)).rounded())) }

    /// ffmpeg's arguments after the inputs (the first input is video, the second, when
    /// `audio`, is sound): scaling to the size, the encoders and the muxer, onto stdout.
    public var outputArguments: [String] {
        var a = [
            "-map", "0:v:0", "-vf", "scale=\(width):\(height):flags=fast_bilinear,format=yuv420p",
            "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-profile:v", "high", "-level:v", "4.1",
            "-r", String(fps), "-g", String(gop), "-keyint_min", String(gop), "-sc_threshold", "0",
            "-b:v", "\(videoKbps)k", "-maxrate", "\(videoKbps)k", "-bufsize", "\(max(videoKbps / 2, 100))k",
        ]
        if audio {
            a += ["-map", "1:a:0", "-c:a", "aac", "-b:a", "\(audioKbps)k", "-ac", "2", "-ar", "48000"]
        }
        a += [
            "-f", "mp4", "-movflags", "frag_keyframe+empty_moov+default_base_moof+skip_trailer",
            "-frag_duration", String(Int(fragmentSeconds * 1_000_000)), "-flush_packets", "1", "-muxdelay", "0", "pipe:1",
        ]
        return a
    }
}

/// An ffmpeg run whose fragmented MP4 output feeds a ``LiveStream``. The run is a
/// ``ConverterProcess`` (killed with its cast, at exit, and by the kernel if we die); a
/// thread of its own reads the pipe, so a slow client never slows the encoder.
public final class LiveEncoder: Sendable {
    public let stream: LiveStream
    private let process: ConverterProcess
    private let stopped = NIOLockedValueBox(false)

    private init(stream: LiveStream, process: ConverterProcess) {
        self.stream = stream
        self.process = process
    }

    /// Starts `ffmpeg` with `inputArguments` (everything up to and including the inputs)
    /// followed by `encoding`'s output arguments; `input` is its standard input (an input
    /// of `pipe:0` reads from it, as a Wayland screen arrives).
    public static func start(
        ffmpeg: String = "ffmpeg", inputArguments: [String], input: FileHandle? = nil, encoding: LiveEncoding, stream: LiveStream, logPath: String
    ) throws(LocalMediaError) -> LiveEncoder {
        try start(
            ffmpeg: ffmpeg, arguments: ["-hide_banner", "-nostdin", "-loglevel", "error"] + inputArguments + encoding.outputArguments, input: input,
            stream: stream, logPath: logPath)
    }

    /// Starts `ffmpeg arguments…`, which must write fragmented MP4 to stdout.
    public static func start(
        ffmpeg: String = "ffmpeg", arguments: [String], input: FileHandle? = nil, stream: LiveStream, logPath: String
    ) throws(LocalMediaError) -> LiveEncoder {
        let pipe = Pipe()
        let process: ConverterProcess
        do {
            process = try ConverterProcess.start(ffmpeg, arguments, logPath: logPath, input: input, output: pipe.fileHandleForWriting)
        } catch {
            throw .converterFailed(file: "the live stream", reason: error.reason)
        }
        try? pipe.fileHandleForWriting.close()  // the child has its copy; EOF comes when it exits
        let encoder = LiveEncoder(stream: stream, process: process)
        let reader = Thread { encoder.read(pipe.fileHandleForReading) }
        reader.name = "castdeck-live-reader"
        reader.start()
        return encoder
    }

    private func read(_ handle: FileHandle) {
        let fd = handle.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        var broken = false
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            do {
                try stream.feed(buffer[0..<n])
            } catch {
                broken = true
                process.kill()
                break
            }
        }
        try? handle.close()
        guard !broken else { return }  // the stream already ended with the reason
        Task {
            let status = await process.wait()
            if stopped.withLockedValue({ $0 }) || status == 0 {
                stream.finish()
            } else {
                stream.finish(failure: "The encoder stopped: \(process.lastMessage)")
            }
        }
    }

    /// The encoder's process id (CPU accounting in the benchmark).
    public var pid: Int32 { process.pid }

    /// Stops the encoder; the stream ends normally for every client.
    public func stop() {
        stopped.withLockedValue { $0 = true }
        process.kill()
    }

    /// Waits until a client can start (the init segment and a key fragment are out), or
    /// throws the reason the stream ended first. Polls: this is start-up only.
    public func waitUntilReady(timeout: Duration = .seconds(20)) async throws(LocalMediaError) {
        let deadline = ContinuousClock.now + timeout
        while !stream.isReady {
            if let ended = stream.ended {
                throw .converterFailed(file: "the live stream", reason: ended ?? "the encoder ended before its first frame")
            }
            guard ContinuousClock.now < deadline else {
                throw .converterFailed(file: "the live stream", reason: "no picture came from the encoder in \(timeout)")
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the stream's end; returns its failure (nil when it ended normally or was stopped).
    public func wait() async -> String? {
        _ = await process.wait()
        while stream.ended == nil { try? await Task.sleep(for: .milliseconds(20)) }
        return stream.ended ?? nil
    }
}
