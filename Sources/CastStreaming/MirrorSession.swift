// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import ScreenCapture
import Synchronization

/// What `MirrorSession` needs from the Cast channel of the mirroring app (CastClient's
/// `CastChannel`, kept out of this target): send a text message, and the texts that arrive.
public struct StreamingSignaling: Sendable {
    public var send: @Sendable (String) async throws -> Void
    public var incoming: AsyncStream<String>
    public init(send: @escaping @Sendable (String) async throws -> Void, incoming: AsyncStream<String>) {
        self.send = send
        self.incoming = incoming
    }
}

/// Progress a front end may show.
public enum MirrorProgress: Sendable, Equatable {
    /// Streaming at this plan (again, after a renegotiation).
    case streaming(VideoPlan)
    /// The encoder now aims at this bit rate (loss went up or down).
    case bitRate(Int)
}

/// Screen mirroring over Cast Streaming, sender side: OFFER a VP8 or H.264 stream (`codec`, the
/// encoder found by `EncoderProbe`) fitted to the source and the quality, read the ANSWER, capture and encode with ffmpeg (`VideoEncoder`) and send
/// through a `StreamingSender`; a lost picture restarts the encoder (a key frame), loss lowers
/// the bit rate, and a source of a new size is offered again (a new OFFER and stream). `run`
/// returns when cancelled and throws, with one sentence, when mirroring cannot go on.
public final class MirrorSession: Sendable {
    public let media: MirrorMedia
    public let quality: MirrorQuality
    public let host: String
    public let targetDelayMs: Int
    public let codec: CodecChoice
    private let probe: EncoderProbe
    private let signaling: StreamingSignaling
    private let progress: @Sendable (MirrorProgress) -> Void
    private let sender = Mutex<StreamingSender?>(nil)
    private let seq = Mutex(Int.random(in: 1...1_000_000))
    /// What ffmpeg said when it ended on its own (x11grab ends when a captured window shrinks):
    /// `follow` offers the new size, or starts it again, or gives up.
    private let encoderEnded = Mutex<String?>(nil)

    public init(
        media: MirrorMedia, quality: MirrorQuality, host: String, targetDelayMs: Int = 400, codec: CodecChoice = .auto, probe: EncoderProbe = .shared,
        signaling: StreamingSignaling, progress: @escaping @Sendable (MirrorProgress) -> Void = { _ in }
    ) {
        self.media = media
        self.quality = quality
        self.host = host
        self.targetDelayMs = targetDelayMs
        self.codec = codec
        self.probe = probe
        self.signaling = signaling
        self.progress = progress
    }

    /// Packets the receiver asked for again, over the session so far.
    public var retransmitted: Int { get async { await sender.withLock { $0 }?.retransmitted ?? 0 } }

    public func run() async throws(CastStreamingError) {
        do {
            try await runThrowing()
        } catch let e as CastStreamingError {
            throw e
        } catch let e as ScreenCaptureError {
            throw CastStreamingError(e.description)
        } catch is CancellationError {
            return
        } catch {
            throw CastStreamingError("Mirroring failed: \(error).")
        }
    }

    private func runThrowing() async throws {
        guard case .screen(let source, false) = media else {
            throw CastStreamingError("Sending the desktop's sound over Cast Streaming is not built yet; mirror the picture alone.")
        }
        let answers = AnswerBox()
        let listener = Task { [signaling] in
            for await text in signaling.incoming {
                guard let v = try? JSONValue(parsing: Array(text.utf8)), v["type"]?.stringValue == "ANSWER" else { continue }
                await answers.put(v)
            }
        }
        defer {
            listener.cancel()
            sender.withLock { $0 }?.close()
        }
        let size = try source.currentSize()
        let plan = try await negotiate(size: size, answers: answers)
        let encoder = VideoEncoder(source: source, plan: plan)
        try encoder.start()
        defer { encoder.stop() }
        progress(.streaming(plan))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                for await event in encoder.events {
                    switch event {
                    case .frame(let f): sender.withLock { $0 }?.send(frame: f.data, isKey: f.isKey)
                    case .ended(let said): encoderEnded.withLock { $0 = said }
                    }
                }
            }
            group.addTask { [self] in try await follow(source: source, encoder: encoder, plan: plan, size: size, answers: answers) }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Acts on the receiver's reports (key frames, bit rate, silence) and on the source's size.
    private func follow(source: CaptureSource, encoder: VideoEncoder, plan first: VideoPlan, size firstSize: PixelSize, answers: AnswerBox) async throws {
        var plan = first, size = firstSize
        var rate = BitrateController(start: plan.bitRate, minimum: plan.minBitRate, maximum: plan.bitRate, now: 0)
        var lastKey = -1.0, lastSizeCheck = 0.0
        var failures: [Double] = []
        let start = Date()
        while !Task.isCancelled {
            guard let current = sender.withLock({ $0 }) else { return }
            // Events of the current stream until a second has gone by.
            let deadline = Date().addingTimeInterval(1)
            for await event in current.events {
                let now = Date().timeIntervalSince(start)
                switch event {
                case .keyFrameWanted where now - lastKey >= 1:
                    lastKey = now
                    try encoder.restart(plan: nil)
                case .loss(let fraction):
                    if let r = rate.report(fractionLost: fraction, now: now) {
                        plan.bitRate = r
                        try encoder.restart(plan: plan)
                        progress(.bitRate(r))
                    }
                case .receiverSilent(let s):
                    throw CastStreamingError("The device stopped receiving the stream (no reports for \(s) seconds).")
                default:
                    break
                }
                if Date() >= deadline { break }
            }
            // The stream ended (replaced, or closing): no spinning while that settles.
            if Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
            let now = Date().timeIntervalSince(start)
            guard now - lastSizeCheck >= 1 else { continue }
            lastSizeCheck = now
            let newSize = try source.currentSize()
            let ended = encoderEnded.withLock { said in
                defer { said = nil }
                return said
            }
            if newSize != size {
                size = newSize
                plan = try await negotiate(size: size, answers: answers)
                rate = BitrateController(start: plan.bitRate, minimum: plan.minBitRate, maximum: plan.bitRate, now: now)
                try encoder.restart(plan: plan)
                progress(.streaming(plan))
            } else if let ended {
                // The same size: ffmpeg failed for another reason. Three times in ten seconds is enough.
                failures = failures.filter { now - $0 < 10 } + [now]
                guard failures.count < 3 else { throw CastStreamingError("Screen capture stopped: \(ended)") }
                try encoder.restart(plan: nil)
            }
        }
    }

    /// OFFERs one video stream for `size` in the chosen codec, waits for the ANSWER, and starts
    /// sending to it. The encoder is probed once per process (off the caller's thread).
    private func negotiate(size: PixelSize, answers: AnswerBox) async throws -> VideoPlan {
        let (probe, codec) = (probe, codec)
        let backend = await withCheckedContinuation { done in DispatchQueue.global().async { done.resume(returning: probe.choose(codec)) } }
        let first = quality.plan(source: size, encoder: backend)
        let number = seq.withLock {
            $0 += 1
            return $0
        }
        var video = OfferedStream(
            index: 0, kind: .video, codecName: backend.codec.codecName, payloadType: CastStreamingIDs.videoPayloadType, ssrc: UInt32.random(in: 1...UInt32.max),
            targetDelayMs: targetDelayMs, aesKey: FrameCrypto.randomBytes(), aesIvMask: FrameCrypto.randomBytes(), clockRate: CastStreamingIDs.videoClockRate,
            bitRate: first.bitRate)
        (video.width, video.height, video.maxFrameRate) = (first.size.width, first.size.height, first.fps)
        if backend.codec == .h264 { (video.profile, video.level) = (EncoderArguments.h264Profile, EncoderArguments.h264Level) }
        try await signaling.send(CastJSON.encode(StreamingOffer(seqNum: number, streams: [video]).json))
        guard let value = await answers.take(seqNum: number, timeout: 10) else {
            throw CastStreamingError("The device did not answer the mirroring offer within 10 seconds.")
        }
        let answer = try StreamingAnswer(json: value)
        if let error = answer.error { throw CastStreamingError("The device refused mirroring: \(error).") }
        guard let port = answer.udpPort else { throw CastStreamingError("The device answered without a UDP port, so there is nowhere to send the picture.") }
        guard let i = answer.sendIndexes.firstIndex(of: video.index) else {
            throw CastStreamingError("The device accepted none of the offered streams (\(backend.codec) video).")
        }
        let limits = VideoLimits(
            maxSize: answer.maxWidth.flatMap { w in answer.maxHeight.map { PixelSize(width: w, height: $0) } }, maxFrameRate: answer.maxFrameRate,
            minBitRate: answer.minBitRate, maxBitRate: answer.maxBitRate)
        let next = try await StreamingSender.start(host: host, port: port, video: video, receiverSSRC: answer.ssrcs[i])
        sender.withLock { old in
            old?.close()
            old = next
        }
        return quality.plan(source: size, limits: limits, encoder: backend)
    }
}

/// ANSWERs by their seqNum, for the negotiation that waits for one.
private actor AnswerBox {
    private var waiting: [JSONValue] = []
    func put(_ v: JSONValue) { waiting.append(v) }
    func take(seqNum: Int, timeout: Double) async -> JSONValue? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let i = waiting.firstIndex(where: { $0["seqNum"]?.intValue == seqNum }) { return waiting.remove(at: i) }
            try? await Task.sleep(for: .milliseconds(20))
            if Task.isCancelled { return nil }
        }
        return nil
    }
}
