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
    private let source: CaptureSource
    private let currentPlan: Mutex<VideoPlan>
    private let child: EncoderChild

    public init(source: CaptureSource, plan: VideoPlan, ffmpeg: String = "ffmpeg") {
        (events, continuation) = AsyncStream.makeStream(of: EncoderEvent.self, bufferingPolicy: .bufferingNewest(240))
        self.source = source
        currentPlan = Mutex(plan)
        child = EncoderChild(ffmpeg: ffmpeg, purpose: "to mirror the screen", threadName: "castdeck.encoder")
    }

    public var plan: VideoPlan { currentPlan.withLock { $0 } }

    /// Starts capturing with the current plan.
    public func start() throws(ScreenCaptureError) { try restart(plan: nil) }

    /// Ends the running ffmpeg (if any) and starts a new one, with `plan` when given.
    public func restart(plan newPlan: VideoPlan?) throws(ScreenCaptureError) {
        let plan = currentPlan.withLock { p in
            if let newPlan { p = newPlan }
            return p
        }
        // A Wayland screen comes from PipeWire on ffmpeg's standard input, a new feed per child.
        var feed: PipeWireFeed?
        if case .portal(let portal) = source { feed = try PipeWireFeed(portal: portal, plan: plan) }
        let codec = plan.encoder.codec
        try child.replace(
            arguments: EncoderArguments.video(source: source, plan: plan), input: feed, ended: { [continuation] in continuation.yield(.ended($0)) }
        ) {
            [continuation] isCurrent in
            var reader = EncodedStreamReader(codec)
            return { chunk in
                for frame in try reader.append(chunk) where isCurrent() { continuation.yield(.frame(frame)) }
            }
        }
    }

    /// Ends capturing for good; `events` finishes.
    public func stop() {
        child.stop()
        continuation.finish()
    }
}

/// The reader of the encoder's output for its codec.
enum EncodedStreamReader {
    case ivf(IVFReader)
    case annexB(AnnexBReader)

    /// Why the output cannot be read, as the reader says it.
    struct Failure: Error, CustomStringConvertible {
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
