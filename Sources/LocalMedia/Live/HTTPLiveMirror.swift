// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

/// The HTTP live path of screen mirroring, for devices or networks where Cast Streaming
/// fails: ffmpeg encodes the capture (whatever its inputs grab) into low-delay fragmented
/// MP4, the media server serves it as one endless response per GET from the latest key
/// fragment (``LiveStream``), and the device plays it with the Default Media Receiver as
/// a LIVE `video/mp4` (a plain `<video>` on the receiver: no MSE, no playlist).
///
/// ```swift
/// let mirror = try await HTTPLiveMirror.start(
///     share: share, inputArguments: ["-f", "x11grab", "-framerate", "30", "-i", ":0"],
///     encoding: LiveEncoding(width: 1280, height: 720, fps: 30, videoKbps: 4000),
///     device: endpoints.remote, localAddress: endpoints.local)
/// try await session.media.load(mirror.cast.media)
/// …
/// await mirror.stop()
/// ```
public final class HTTPLiveMirror: Sendable {
    /// What to LOAD, and the URL.
    public let cast: LiveCast
    public let encoder: LiveEncoder
    private let share: MediaShare
    private let logPath: String

    private init(cast: LiveCast, encoder: LiveEncoder, share: MediaShare, logPath: String) {
        self.cast = cast
        self.encoder = encoder
        self.share = share
        self.logPath = logPath
    }

    /// Starts the encoder, waits for its first key fragment (the device asks for the stream
    /// as soon as it loads it), then shares the stream with `device`.
    public static func start(
        share: MediaShare, ffmpeg: String = "ffmpeg", inputArguments: [String], input: FileHandle? = nil, encoding: LiveEncoding, title: String = "Screen",
        device: String, localAddress: String
    ) async throws(LocalMediaError) -> HTTPLiveMirror {
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-mirror-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log").path
        let stream = LiveStream()
        let encoder = try LiveEncoder.start(ffmpeg: ffmpeg, inputArguments: inputArguments, input: input, encoding: encoding, stream: stream, logPath: logPath)
        do {
            try await encoder.waitUntilReady()
        } catch {
            encoder.stop()
            try? FileManager.default.removeItem(atPath: logPath)
            throw error
        }
        let cast: LiveCast
        do {
            cast = try await share.publish(live: stream, name: "screen.mp4", title: title, device: device, localAddress: localAddress)
        } catch {
            encoder.stop()
            try? FileManager.default.removeItem(atPath: logPath)
            throw error
        }
        return HTTPLiveMirror(cast: cast, encoder: encoder, share: share, logPath: logPath)
    }

    /// Waits until the encoder stops on its own; returns why (nil after ``stop()``).
    public func failure() async -> String? {
        await encoder.wait()
    }

    /// Stops the encoder and the sharing: every client's response ends, the URL answers 404.
    public func stop() async {
        encoder.stop()
        await share.end(cast)
        try? FileManager.default.removeItem(atPath: logPath)
    }
}
