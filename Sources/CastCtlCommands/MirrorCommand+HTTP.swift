// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import CastClient
import CastProtocol
import Foundation
import LocalMedia
import ScreenCapture

/// `castctl mirror --http`: the fallback path for devices or networks where Cast Streaming
/// fails (docs/mirroring-http.md). The capture is encoded into low-delay fragmented MP4 and
/// served by the media server as one endless response per GET; the Default Media Receiver
/// plays it as a LIVE `video/mp4`. Prints one line with the stream URL and mirrors until
/// SIGINT or SIGTERM (or `--duration`, or the device stopping the media), then stops the
/// media, exit 0. An encoder that fails ends it with one sentence, exit 1.
extension MirrorCommand {
    func runHTTP(source: CaptureSource, quality: MirrorQuality) async throws {
        let size: PixelSize
        do { size = try source.currentSize() } catch { throw CommandFailure(error.description) }
        // No ANSWER says what the device takes: the Default Media Receiver plays H.264 High 4.1
        // up to 1080p30 on every Cast device, which every quality's target fits (Smooth's 60
        // frames a second included: 720p60 is within level 4.1).
        let plan = quality.plan(source: size)
        var encoding = LiveEncoding(width: plan.size.width, height: plan.size.height, fps: plan.fps, videoKbps: plan.bitRate / 1000, audio: audio)
        encoding.audioKbps = 128
        var inputs = EncoderArguments.captureInput(source: source, fps: plan.fps)
        if audio { inputs += EncoderArguments.soundInput(device: audioSource) }
        // A Wayland screen arrives from PipeWire on ffmpeg's standard input, at the plan's size.
        var feed: PipeWireFeed?
        if case .portal(let portal) = source {
            do { feed = try PipeWireFeed(portal: portal, plan: plan) } catch { throw CommandFailure(error.description) }
        }
        defer { feed?.stop() }
        let share = MediaShare(port: mediaPort.map { .exactly($0) } ?? .default)
        let duration = duration
        try await options.withSession(networkThread: false) { session in
            let ends = try await session.connectionEndpoints()
            // The device launches its app while the encoder makes its first key fragment.
            let launch = Task { try await session.start(appID: CastAppID.defaultMediaReceiver) }
            let mirror: HTTPLiveMirror
            do {
                mirror = try await HTTPLiveMirror.start(
                    share: share, inputArguments: inputs, input: feed?.output, encoding: encoding, title: "\(source)".capitalizedFirst, device: ends.remote,
                    localAddress: ends.local
                )
            } catch {
                _ = try? await launch.value
                throw CommandFailure((error as? LocalMediaError)?.description ?? "\(error)")
            }
            let updates = await session.media.statusUpdates()
            let loaded: MediaStatus
            do {
                _ = try await launch.value
                loaded = try await session.media.load(mirror.cast.media, autoplay: true)
            } catch {
                await mirror.stop()
                throw error
            }
            Console.out(
                "Mirroring \(source) to \(session.device) over HTTP at \(plan.size), \(plan.fps) fps, \(plan.bitRate / 1000) kb/s from \(mirror.cast.url); Ctrl-C stops.\n"
            )
            let ending: HTTPEnding = await withTaskGroup(of: HTTPEnding.self) { group in
                group.addTask {
                    await CastCommand.waitUntilEnd(of: session, updates: updates, mediaSessionId: loaded.mediaSessionId)
                    return .deviceEnded
                }
                group.addTask { await mirror.failure().map(HTTPEnding.failed) ?? .stopped }
                group.addTask {
                    await Self.untilStopped(duration: duration)
                    return .stopped
                }
                let first = await group.next() ?? .stopped
                // The encoder's end is what the failure task waits for, and it does not
                // heed cancellation: stopping it lets the group finish.
                mirror.encoder.stop()
                group.cancelAll()
                return first
            }
            await mirror.stop()
            switch ending {
            case .deviceEnded:
                Console.out("Mirroring ended: the device stopped the stream.\n")
            case .stopped:
                _ = try? await session.media.stop()
                Console.out("Mirroring stopped.\n")
            case .failed(let why):
                _ = try? await session.media.stop()
                throw CommandFailure("Mirroring over HTTP ended: \(why)")
            }
        }
    }

    enum HTTPEnding: Sendable {
        case stopped
        case deviceEnded
        case failed(String)
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
