// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import CastClient
import CastProtocol
import CastStreaming
import Foundation
import Mirroring
import ScreenCapture

/// `castctl mirror`: the screen or one window on the device over Cast Streaming
/// (docs/mirroring.md), or with `--http` as a live video for the Default Media Receiver
/// (MirrorCommand+HTTP.swift, docs/mirroring-http.md).
struct MirrorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mirror", abstract: "Mirror the screen or one window to a device (Cast Streaming, as Chrome's tab mirroring).",
        discussion: """
            Captures the X11 display in $DISPLAY (or --display) with ffmpeg and sends VP8 or H.264 video to the device's mirroring app \
            (--codec; auto is H.264, with a hardware encoder when one works); \
            in a Wayland session (or with --portal) the desktop's screen-cast portal asks what to share and PipeWire delivers it; \
            with --audio the desktop's sound goes along as Opus (the monitor of the default PulseAudio/PipeWire output, or \
            --audio-source), and --audio-only sends the sound alone to the device's audio mirroring app (no display needed). \
            Runs until SIGINT or SIGTERM (or --duration), then stops the app. Prints one line when streaming starts and one \
            when it ends; a device that refuses, disappears or stops answering ends it with one sentence and exit status 1. \
            With --http the screen is served from this computer as a live H.264 video and played by the Default Media Receiver \
            instead (seconds behind, for devices or networks where Cast Streaming fails).
            """)

    @OptionGroup var options: ClientOptions

    @Option(help: ArgumentHelp("Mirror only this X11 window (its id, decimal or 0x…, as xwininfo prints it).", valueName: "ID"))
    var window: String?

    @Option(help: ArgumentHelp("The X11 display to capture (default: $DISPLAY).", valueName: "DISPLAY"))
    var display: String?

    @Flag(help: "Ask the desktop's screen-cast portal what to share (its own dialog; the default in a Wayland session).")
    var portal = false

    @Option(help: ArgumentHelp("sharp (text), balanced or smooth (motion).", valueName: "QUALITY"))
    var quality: String = MirrorQuality.balanced.rawValue

    @Option(help: ArgumentHelp("vp8, h264, or auto (H.264, on a hardware encoder when one works).", valueName: "CODEC"))
    var codec: String = CodecChoice.auto.rawValue

    @Option(help: ArgumentHelp("Stop after this many seconds (default: run until interrupted).", valueName: "SECONDS"))
    var duration: Double?

    @Option(name: .customLong("target-delay"), help: ArgumentHelp("The receiver's playout delay in milliseconds (Chrome: 400).", valueName: "MS"))
    var targetDelay: Int = 400

    @Flag(help: "Send the screen as a live video over HTTP for the Default Media Receiver (for devices or networks where Cast Streaming fails).")
    var http = false

    @Flag(
        inversion: .prefixedNo,
        help: "Send the desktop's sound too (the PulseAudio/PipeWire monitor of the default output), or not (the default).")
    var audio = false

    @Flag(name: .customLong("audio-only"), help: "Send the desktop's sound alone, to the device's audio mirroring app (no display needed).")
    var audioOnly = false

    @Option(
        name: .customLong("audio-source"),
        help: ArgumentHelp("The PulseAudio/PipeWire source to send (pactl list short sources; default: the default output's monitor).", valueName: "NAME"))
    var audioSource: String = EncoderArguments.defaultSoundDevice

    @Option(
        name: .customLong("media-port"),
        help: ArgumentHelp("With --http: serve the stream on this TCP port (default: the first free of 8010–8019).", valueName: "PORT"))
    var mediaPort: Int?

    func validate() throws {
        if let window, CaptureSource.windowID(window) == nil { throw ValidationError("--window takes a window id such as 0x3a0000f or 60817423.") }
        if portal, window != nil || display != nil {
            throw ValidationError("--portal lets the desktop's dialog choose; it does not go with --window or --display.")
        }
        guard MirrorQuality(rawValue: quality) != nil else { throw ValidationError("--quality takes sharp, balanced or smooth.") }
        guard CodecChoice(rawValue: codec) != nil else { throw ValidationError("--codec takes vp8, h264 or auto.") }
        if http, codec != CodecChoice.auto.rawValue { throw ValidationError("--codec goes with Cast Streaming; --http always sends H.264.") }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number of seconds.") }
        guard (20...4000).contains(targetDelay) else { throw ValidationError("--target-delay must be between 20 and 4000 milliseconds.") }
        if let mediaPort, !(1...65535).contains(mediaPort) { throw ValidationError("--media-port must be a TCP port (1–65535).") }
        if !http, mediaPort != nil { throw ValidationError("--media-port goes with --http.") }
        if audioOnly, http || window != nil || portal {
            throw ValidationError("--audio-only sends no picture, so it goes with none of --http, --window and --portal.")
        }
        if audioSource.isEmpty { throw ValidationError("--audio-source takes a PulseAudio source name (pactl list short sources).") }
    }

    func run() async throws {
        let quality = MirrorQuality(rawValue: quality) ?? .balanced
        if audioOnly {
            return try await stream(MirrorRequest(media: .sound, quality: quality, targetDelayMs: targetDelay, soundSource: audioSource))
        }
        let environment = ProcessInfo.processInfo.environment
        let usePortal = portal || (display == nil && window == nil && CaptureSource.prefersPortal(environment: environment))
        let source: CaptureSource
        if usePortal {
            // The desktop's own dialog, before any device is contacted.
            do { source = .portal(try await ScreenCastPortal.choose()) } catch { throw CommandFailure(error.description) }
        } else {
            guard let display = display ?? environment["DISPLAY"], !display.isEmpty else {
                throw CommandFailure("There is no X11 display to mirror: set DISPLAY, give --display, or use --portal in a Wayland session.")
            }
            source = window.flatMap(CaptureSource.windowID).map { .x11Window(display: display, id: $0) } ?? .x11Screen(display: display)
            // Before any device is contacted: a missing display or window is said at once.
            if case .failure(let e) = source.probeSize() { throw CommandFailure(e.description) }
        }
        defer { if case .portal(let p) = source { p.close() } }
        if http { return try await runHTTP(source: source, quality: quality) }
        try await stream(
            MirrorRequest(
                media: .screen(source, sound: audio), quality: quality, targetDelayMs: targetDelay, soundSource: audioSource,
                codec: CodecChoice(rawValue: codec) ?? .auto))
    }

    /// Mirrors over Cast Streaming until stopped, printing a line when streaming starts and one
    /// when it ends; a failure is one sentence (exit status 1).
    private func stream(_ request: MirrorRequest) async throws {
        let duration = duration
        try await options.withSession(networkThread: false) { session in
            let device = session.device
            let ending = await withTaskGroup(of: MirrorEnding?.self) { group in
                group.addTask {
                    await ScreenMirror.run(session: session, request: request) { p in
                        switch p {
                        case .streaming(let plan):
                            Console.out(
                                "Mirroring \(request.media) to \(device) at \(plan.size), \(plan.fps) fps, \(plan.bitRate / 1000) kb/s, \(plan.encoder).\n")
                        case .bitRate(let r): Console.err("castctl: the bit rate is now \(r / 1000) kb/s.\n")
                        case .sound(let r) where request.media == .sound:
                            Console.out("Sending the desktop's sound to \(device) (Opus, \(r / 1000) kb/s).\n")
                        case .sound(let r): Console.out("The sound goes along (Opus, \(r / 1000) kb/s).\n")
                        case .soundRefused: Console.err("castctl: \(device) took the picture but not the sound; mirroring without sound.\n")
                        }
                    }
                }
                group.addTask {
                    await Self.untilStopped(duration: duration)
                    return nil
                }
                // The first to end: the mirror (on its own, a failure) or a stop, which cancels
                // the mirror and waits for it to stop the app.
                var ending: MirrorEnding?
                while ending == nil, let next = await group.next() {
                    ending = next
                    group.cancelAll()
                }
                return ending ?? .stopped(resent: 0)
            }
            switch ending {
            case .failed(let sentence): throw CommandFailure(sentence)
            case .stopped(let resent): Console.out("Mirroring stopped (\(resent) packets sent again).\n")
            }
        }
    }

    /// Returns at SIGINT or SIGTERM, or once `duration` seconds have passed: how the user stops
    /// either path.
    static func untilStopped(duration: Double?) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = await ReceiverCommand.waitForTerminationSignal() }
            if let duration { group.addTask { try? await Task.sleep(for: .milliseconds(Int64(duration * 1000))) } }
            await group.next()
            group.cancelAll()
        }
    }
}
