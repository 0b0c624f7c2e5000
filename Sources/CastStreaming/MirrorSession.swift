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
    /// The desktop's sound goes out too (or alone), as Opus at this bit rate.
    case sound(bitRate: Int)
    /// The device took the picture but not the sound: mirroring goes on without it.
    case soundRefused
}

/// Screen mirroring over Cast Streaming, sender side: OFFER a VP8 or H.264 stream (`codec`, the
/// encoder found by `EncoderProbe`) fitted to the source and the quality and/or an Opus stream
/// of the desktop's sound, read the ANSWER, capture and encode with ffmpeg (`VideoEncoder`,
/// `AudioEncoder`) and send what the device took through one `StreamingSender`; a lost picture
/// restarts the video encoder (a key frame), loss lowers the bit rate, and a source of a new
/// size is offered again (a new OFFER and streams). `run`
/// returns when cancelled and throws, with one sentence, when mirroring cannot go on.
public final class MirrorSession: Sendable {
    public let media: MirrorMedia
    public let quality: MirrorQuality
    public let host: String
    public let targetDelayMs: Int
    /// The PulseAudio source of the sound (default: the monitor of the default output).
    public let soundDevice: String
    public let codec: CodecChoice
    let probe: EncoderProbe
    let signaling: StreamingSignaling
    let progress: @Sendable (MirrorProgress) -> Void
    let sender = Mutex<StreamingSender?>(nil)
    let seq = Mutex(Int.random(in: 1...1_000_000))
    /// What ffmpeg said when it ended on its own (x11grab ends when a captured window shrinks):
    /// `follow` offers the new size, or starts it again, or gives up.
    private let encoderEnded = Mutex<String?>(nil)
    /// The same for the sound's ffmpeg (no PulseAudio server, the source went away).
    private let soundEnded = Mutex<String?>(nil)

    public init(
        media: MirrorMedia, quality: MirrorQuality, host: String, targetDelayMs: Int = 400, soundDevice: String = EncoderArguments.defaultSoundDevice,
        codec: CodecChoice = .auto, probe: EncoderProbe = .shared,
        signaling: StreamingSignaling, progress: @escaping @Sendable (MirrorProgress) -> Void = { _ in }
    ) {
        self.media = media
        self.quality = quality
        self.host = host
        self.targetDelayMs = targetDelayMs
        self.soundDevice = soundDevice
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
        let source = media.source
        let size = try source?.currentSize()
        let first = try await negotiate(size: size, answers: answers)
        let video = source.flatMap { s in first.plan.map { VideoEncoder(source: s, plan: $0) } }
        let audio = first.sound ? AudioEncoder(device: soundDevice) : nil
        try video?.start()
        defer { video?.stop() }
        try audio?.start()
        defer { audio?.stop() }
        if let plan = first.plan { progress(.streaming(plan)) }
        if first.sound { progress(.sound(bitRate: EncoderArguments.soundBitRate)) } else if media.hasSound { progress(.soundRefused) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let video {
                group.addTask { [self] in
                    for await event in video.events {
                        switch event {
                        case .frame(let f): sender.withLock { $0 }?.send(frame: f.data, isKey: f.isKey)
                        case .ended(let said): encoderEnded.withLock { $0 = said }
                        }
                    }
                }
            }
            if let audio {
                group.addTask { [self] in
                    for await event in audio.events {
                        switch event {
                        case .packet(let p): sender.withLock { $0 }?.send(audio: p.data, samples: p.samples)
                        case .ended(let said): soundEnded.withLock { $0 = said }
                        }
                    }
                }
            }
            group.addTask { [self] in try await follow(video: video, audio: audio, plan: first.plan, size: size, answers: answers) }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Acts on the receiver's reports (key frames, bit rate, silence), on the source's size and
    /// on encoders that ended on their own.
    private func follow(video: VideoEncoder?, audio: AudioEncoder?, plan first: VideoPlan?, size firstSize: PixelSize?, answers: AnswerBox) async throws {
        var plan = first, size = firstSize
        var rate = plan.map { BitrateController(start: $0.bitRate, minimum: $0.minBitRate, maximum: $0.bitRate, now: 0) }
        var lastKey = -1.0, lastCheck = 0.0
        var failures: [Double] = [], soundFailures: [Double] = []
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
                    try video?.restart(plan: nil)
                case .loss(let fraction):
                    if let video, var p = plan, let r = rate?.report(fractionLost: fraction, now: now) {
                        p.bitRate = r
                        plan = p
                        try video.restart(plan: p)
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
            guard now - lastCheck >= 1 else { continue }
            lastCheck = now
            if let audio,
                let said = soundEnded.withLock({ said in
                    defer { said = nil }
                    return said
                })
            {
                soundFailures = soundFailures.filter { now - $0 < 10 } + [now]
                guard soundFailures.count < 3 else {
                    throw CastStreamingError(
                        "The desktop's sound could not be captured (\(said)); check that PulseAudio or PipeWire runs, or name another source.")
                }
                try audio.restart()
            }
            guard let video, let source = media.source, let oldSize = size else { continue }
            let newSize = try source.currentSize()
            let ended = encoderEnded.withLock { said in
                defer { said = nil }
                return said
            }
            if newSize != oldSize {
                size = newSize
                let next = try await negotiate(size: newSize, answers: answers)
                guard let p = next.plan else { continue }
                plan = p
                rate = BitrateController(start: p.bitRate, minimum: p.minBitRate, maximum: p.bitRate, now: now)
                try video.restart(plan: p)
                progress(.streaming(p))
            } else if let ended {
                // The same size: ffmpeg failed for another reason. Three times in ten seconds is enough.
                failures = failures.filter { now - $0 < 10 } + [now]
                guard failures.count < 3 else { throw CastStreamingError("Screen capture stopped: \(ended)") }
                try video.restart(plan: nil)
            }
        }
    }
}
