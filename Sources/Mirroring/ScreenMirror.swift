// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastClient
import CastProtocol
import CastStreaming
import ScreenCapture

/// Mirroring over Cast Streaming on a connected session.
public enum ScreenMirror {
    /// Launches the mirroring app (`MirrorMedia.appID`), streams until the calling task is
    /// cancelled (`.stopped`, and the app is stopped on the device) or until the device, the
    /// link, the app or the capture ends it (`.failed` with one sentence). `progress` hears the
    /// plan when streaming starts (again after a renegotiation), bit-rate changes, and whether
    /// the sound goes out (or the device refused it).
    public static func run(
        session: CastSession, request: MirrorRequest, progress: @escaping @Sendable (MirrorProgress) -> Void = { _ in }
    ) async -> MirrorEnding {
        let device = session.device
        do {
            _ = try await session.start(appID: request.media.appID)
        } catch {
            return .failed(error.description)
        }
        let channel = await session.streamingChannel()
        guard await channel.isConnected else {
            await stopApp(session)
            return .failed("The mirroring app on \(device) does not speak Cast Streaming, so nothing can be sent.")
        }
        let signaling = StreamingSignaling(
            send: { text in try await channel.send(text) },
            incoming: AsyncStream { continuation in
                let task = Task {
                    for await payload in channel.messages() { if case .string(let s) = payload { continuation.yield(s) } }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            })
        let mirror = MirrorSession(
            media: request.media, quality: request.quality, host: device.host, targetDelayMs: request.targetDelayMs, soundDevice: request.soundSource,
            codec: request.codec, signaling: signaling, progress: progress)
        let ending = await race(mirror: mirror, session: session, channel: channel)
        if case .stopped = ending { await stopApp(session) }
        return ending
    }

    /// Stops the app even when the caller's task is cancelled (which is how it was asked to stop).
    private static func stopApp(_ session: CastSession) async {
        await Task { _ = try? await session.stop() }.value
    }

    /// The mirror against the link and the app: the first to end says how it all ended.
    private static func race(mirror: MirrorSession, session: CastSession, channel: CastChannel) async -> MirrorEnding {
        await withTaskGroup(of: MirrorEnding?.self) { group in
            group.addTask {
                do {
                    try await mirror.run()
                    return .stopped(resent: await mirror.retransmitted)
                } catch let e as CastStreamingError {
                    return .failed(e.description)
                } catch {
                    return .failed("Mirroring failed: \(error).")
                }
            }
            let lost = MirrorEnding.failed("Lost the connection to \(session.device); mirroring ended.")
            group.addTask {
                for await state in session.stateUpdates() {
                    if case .disconnected = state { return lost }
                }
                return Task.isCancelled ? nil : lost
            }
            group.addTask {
                for await event in channel.updates() where event == .didDisconnect {
                    // A dropped link also disconnects the channel, a moment before the state says so.
                    try? await Task.sleep(for: .milliseconds(300))
                    if Task.isCancelled { return nil }
                    if case .disconnected = session.state { return lost }
                    return .failed("The mirroring app on \(session.device) was stopped; mirroring ended.")
                }
                return nil
            }
            // Cancelled from outside: every task ends, the mirror's with `.stopped`.
            var ending: MirrorEnding?
            while ending == nil, let next = await group.next() { ending = next }
            group.cancelAll()
            if let ending { return ending }
            return .stopped(resent: await mirror.retransmitted)
        }
    }
}
