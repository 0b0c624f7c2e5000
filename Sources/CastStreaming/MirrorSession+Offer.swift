// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import ScreenCapture

extension MirrorSession {
    /// What an OFFER/ANSWER round settled: the picture's plan (nil: no picture is sent) and
    /// whether the sound is sent.
    struct Negotiated {
        var plan: VideoPlan?
        var sound: Bool
    }

    /// The offered video stream's index; the audio stream's is 1.
    static let videoIndex = 0
    static let audioIndex = 1

    /// The streams of an OFFER for this session's media: VP8 or H.264 (the plan's encoder)
    /// fitted to `plan` (when there is a picture) and Opus, 48 kHz stereo (when there is sound),
    /// each with its own SSRC and keys.
    func offeredStreams(plan: VideoPlan?) -> [OfferedStream] {
        var streams: [OfferedStream] = []
        if let plan {
            var video = OfferedStream(
                index: Self.videoIndex, kind: .video, codecName: plan.encoder.codec.codecName, payloadType: CastStreamingIDs.videoPayloadType,
                ssrc: UInt32.random(in: 1...UInt32.max), targetDelayMs: targetDelayMs, aesKey: FrameCrypto.randomBytes(), aesIvMask: FrameCrypto.randomBytes(),
                clockRate: CastStreamingIDs.videoClockRate, bitRate: plan.bitRate)
            (video.width, video.height, video.maxFrameRate) = (plan.size.width, plan.size.height, plan.fps)
            if plan.encoder.codec == .h264 { (video.profile, video.level) = (EncoderArguments.h264Profile, EncoderArguments.h264Level) }
            streams.append(video)
        }
        if media.hasSound {
            var audio = OfferedStream(
                index: Self.audioIndex, kind: .audio, codecName: "opus", payloadType: CastStreamingIDs.audioPayloadType,
                ssrc: UInt32.random(in: 1...UInt32.max), targetDelayMs: targetDelayMs, aesKey: FrameCrypto.randomBytes(), aesIvMask: FrameCrypto.randomBytes(),
                clockRate: CastStreamingIDs.audioClockRate, bitRate: EncoderArguments.soundBitRate)
            audio.channels = 2
            streams.append(audio)
        }
        return streams
    }

    /// OFFERs the session's streams (the picture fitted to `size`, in the chosen codec), waits
    /// for the ANSWER, and starts sending what the device took. The encoder is probed once per
    /// process (off the caller's thread).
    func negotiate(size: PixelSize?, answers: AnswerBox) async throws -> Negotiated {
        var backend = VideoBackend.libvpx
        if size != nil {
            let (probe, codec) = (probe, codec)
            backend = await withCheckedContinuation { done in DispatchQueue.global().async { done.resume(returning: probe.choose(codec)) } }
        }
        let first = size.map { quality.plan(source: $0, encoder: backend) }
        let number = seq.withLock {
            $0 += 1
            return $0
        }
        let streams = offeredStreams(plan: first)
        try await signaling.send(CastJSON.encode(StreamingOffer(seqNum: number, streams: streams).json))
        guard let value = await answers.take(seqNum: number, timeout: 10) else {
            throw CastStreamingError("The device did not answer the mirroring offer within 10 seconds.")
        }
        let answer = try StreamingAnswer(json: value)
        let taken = try Self.accepted(streams, by: answer)
        guard let port = answer.udpPort else { throw CastStreamingError("The device answered without a UDP port, so there is nowhere to send the stream.") }
        let next = try await StreamingSender.start(host: host, port: port, streams: taken)
        sender.withLock { old in
            old?.close()
            old = next
        }
        let limits = VideoLimits(
            maxSize: answer.maxWidth.flatMap { w in answer.maxHeight.map { PixelSize(width: w, height: $0) } }, maxFrameRate: answer.maxFrameRate,
            minBitRate: answer.minBitRate, maxBitRate: answer.maxBitRate)
        let video = taken.contains { $0.stream.kind == .video }
        return Negotiated(
            plan: video ? size.map { quality.plan(source: $0, limits: limits, encoder: backend) } : nil, sound: taken.contains { $0.stream.kind == .audio })
    }

    /// The offered streams the ANSWER takes, each with the receiver's SSRC for it; throws one
    /// sentence when the device refused, or took nothing worth sending (a picture mirror whose
    /// picture it refused, a sound mirror whose sound it refused).
    static func accepted(_ streams: [OfferedStream], by answer: StreamingAnswer) throws(CastStreamingError) -> [(stream: OfferedStream, receiverSSRC: UInt32)] {
        if let error = answer.error { throw CastStreamingError("The device refused mirroring: \(error).") }
        var taken: [(stream: OfferedStream, receiverSSRC: UInt32)] = []
        for (i, index) in answer.sendIndexes.enumerated() {
            if let s = streams.first(where: { $0.index == index }), !taken.contains(where: { $0.stream.index == index }) { taken.append((s, answer.ssrcs[i])) }
        }
        let offeredVideo = streams.contains { $0.kind == .video }
        let takesVideo = taken.contains { $0.stream.kind == .video }
        guard !taken.isEmpty else {
            let names = streams.map { $0.kind == .video ? "\($0.codecName == "h264" ? "H.264" : "VP8") video" : "Opus audio" }.joined(separator: " and ")
            throw CastStreamingError("The device accepted none of the offered streams (\(names)).")
        }
        if offeredVideo, !takesVideo {
            let picture = streams.first { $0.kind == .video }?.codecName == "h264" ? "H.264" : "VP8"
            throw CastStreamingError("The device accepted the sound but not the picture (\(picture) video), so the screen cannot be mirrored to it.")
        }
        return taken
    }
}

/// ANSWERs by their seqNum, for the negotiation that waits for one.
actor AnswerBox {
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
