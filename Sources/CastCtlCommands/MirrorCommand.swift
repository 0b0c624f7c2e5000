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
            (--codec; auto is H.264, with a hardware encoder when one works). \
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

    @Flag(help: "With --http: send the desktop's sound too (the PulseAudio/PipeWire monitor of the default output).")
    var audio = false

    @Option(
        name: .customLong("media-port"),
        help: ArgumentHelp("With --http: serve the stream on this TCP port (default: the first free of 8010–8019).", valueName: "PORT"))
    var mediaPort: Int?

    func validate() throws {
        if let window, CaptureSource.windowID(window) == nil { throw ValidationError("--window takes a window id such as 0x3a0000f or 60817423.") }
        guard MirrorQuality(rawValue: quality) != nil else { throw ValidationError("--quality takes sharp, balanced or smooth.") }
        guard CodecChoice(rawValue: codec) != nil else { throw ValidationError("--codec takes vp8, h264 or auto.") }
        if http, codec != CodecChoice.auto.rawValue { throw ValidationError("--codec goes with Cast Streaming; --http always sends H.264.") }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number of seconds.") }
        guard (20...4000).contains(targetDelay) else { throw ValidationError("--target-delay must be between 20 and 4000 milliseconds.") }
        if let mediaPort, !(1...65535).contains(mediaPort) { throw ValidationError("--media-port must be a TCP port (1–65535).") }
        if !http, audio || mediaPort != nil { throw ValidationError("--audio and --media-port go with --http (Cast Streaming sends no sound yet).") }
    }

    func run() async throws {
        guard let display = display ?? ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty else {
            throw CommandFailure("There is no X11 display to mirror: set DISPLAY or give --display (Wayland's screen-cast portal is not supported yet).")
        }
        let source: CaptureSource = window.flatMap(CaptureSource.windowID).map { .x11Window(display: display, id: $0) } ?? .x11Screen(display: display)
        // Before any device is contacted: a missing display or window is said at once.
        if case .failure(let e) = source.probeSize() { throw CommandFailure(e.description) }
        let quality = MirrorQuality(rawValue: quality) ?? .balanced
        if http { return try await runHTTP(source: source, quality: quality) }
        let (duration, request) = (
            duration,
            MirrorRequest(
                media: .screen(source, sound: false), quality: quality, targetDelayMs: targetDelay, codec: CodecChoice(rawValue: codec) ?? .auto)
        )
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
