// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import Synchronization

/// What the encoder hands out.
public enum EncoderEvent: Sendable, Equatable {
    case frame(EncodedVideoFrame)
    /// ffmpeg ended on its own (not by `restart` or `stop`): what it said, or its exit status.
    case ended(String)
}

/// Runs ffmpeg with `EncoderArguments.video` and reads its output (IVF or H.264 Annex B, by the
/// plan's encoder) on a thread of its own.
/// `restart` replaces the process (a new one begins with a key frame: that is how a lost
/// picture is repaired, and how a new bit rate or size takes effect); the events of every
/// process come out of the one `events` stream, in order.
public final class VideoEncoder: Sendable {
    public let events: AsyncStream<EncoderEvent>
    private let continuation: AsyncStream<EncoderEvent>.Continuation
    private let ffmpeg: String
    private let source: CaptureSource
    private struct State {
        var process: Process?
        var generation = 0
        var plan: VideoPlan
        var stopped = false
    }
    private let state: Mutex<State>

    public init(source: CaptureSource, plan: VideoPlan, ffmpeg: String = "ffmpeg") {
        (events, continuation) = AsyncStream.makeStream(of: EncoderEvent.self, bufferingPolicy: .bufferingNewest(240))
        self.ffmpeg = ffmpeg
        self.source = source
        state = Mutex(State(plan: plan))
    }

    public var plan: VideoPlan { state.withLock { $0.plan } }

    /// Starts capturing with the current plan.
    public func start() throws(ScreenCaptureError) { try restart(plan: nil) }

    /// Ends the running ffmpeg (if any) and starts a new one, with `plan` when given.
    public func restart(plan newPlan: VideoPlan?) throws(ScreenCaptureError) {
        let (old, generation, plan): (Process?, Int, VideoPlan) = state.withLock {
            if let newPlan { $0.plan = newPlan }
            $0.generation += 1
            let old = $0.process
            $0.process = nil
            return (old, $0.generation, $0.plan)
        }
        if let old, old.isRunning { old.terminate() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffmpeg.contains("/") ? ffmpeg : "/usr/bin/env")
        p.arguments = (ffmpeg.contains("/") ? [] : [ffmpeg]) + EncoderArguments.video(source: source, plan: plan)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        do {
            try p.run()
        } catch {
            throw .encoderFailed("ffmpeg could not be started (\(error.localizedDescription)); install ffmpeg to mirror the screen")
        }
        let stillCurrent = state.withLock { s -> Bool in
            guard !s.stopped, s.generation == generation else { return false }
            s.process = p
            return true
        }
        guard stillCurrent else {
            p.terminate()
            return
        }
        let codec = plan.encoder.codec
        let reader = Thread { [self] in read(out.fileHandleForReading, err.fileHandleForReading, process: p, generation: generation, codec: codec) }
        reader.name = "castdeck.encoder"
        reader.start()
    }

    /// Ends capturing for good; `events` finishes.
    public func stop() {
        let p = state.withLock { s -> Process? in
            s.stopped = true
            s.generation += 1
            defer { s.process = nil }
            return s.process
        }
        if let p, p.isRunning { p.terminate() }
        continuation.finish()
    }

    private func isCurrent(_ generation: Int) -> Bool { state.withLock { !$0.stopped && $0.generation == generation } }

    private func read(_ out: FileHandle, _ err: FileHandle, process: Process, generation: Int, codec: VideoCodec) {
        var reader = EncodedStreamReader(codec)
        var failure: String?
        while true {
            let chunk = out.availableData
            if chunk.isEmpty { break }
            do {
                for frame in try reader.append(chunk) where isCurrent(generation) { continuation.yield(.frame(frame)) }
            } catch let e as EncodedStreamReader.Failure {
                failure = e.description
                process.terminate()
                break
            } catch {}
        }
        // Not waitUntilExit, which can wait forever on Linux: its output has ended, so it is ending.
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
        guard isCurrent(generation) else { return }
        let said = String(decoding: err.readDataToEndOfFile(), as: UTF8.self).split(whereSeparator: \.isNewline).last.map(String.init)
        let status = process.isRunning ? "ffmpeg stopped writing" : "ffmpeg ended with status \(process.terminationStatus)"
        continuation.yield(.ended(failure ?? said ?? status))
    }
}

/// The reader of the encoder's output for its codec.
enum EncodedStreamReader {
    case ivf(IVFReader)
    case annexB(AnnexBReader)

    /// Why the output cannot be read, as the reader says it.
    struct Failure: Error {
        var description: String
    }

    init(_ codec: VideoCodec) {
        switch codec {
        case .vp8: self = .ivf(IVFReader())
        case .h264: self = .annexB(AnnexBReader())
        }
    }

    mutating func append(_ bytes: some Collection<UInt8>) throws(Failure) -> [EncodedVideoFrame] {
        do {
            switch self {
            case .ivf(var r):
                defer { self = .ivf(r) }
                return try r.append(bytes)
            case .annexB(var r):
                defer { self = .annexB(r) }
                return try r.append(bytes)
            }
        } catch let e as IVFReader.ReadError {
            throw Failure(description: e.description)
        } catch let e as AnnexBReader.ReadError {
            throw Failure(description: e.description)
        } catch {
            throw Failure(description: "\(error)")
        }
    }
}
