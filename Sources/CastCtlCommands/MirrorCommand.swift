// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import Foundation
import ScreenCapture

/// `castctl mirror`: the screen or one window on the device. This branch has the HTTP live
/// path only (`--http`, MirrorCommand+HTTP.swift); Cast Streaming is the mirror-rtp branch's
/// MirrorCommand, with which this file is to be reconciled (its options are the same).
struct MirrorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mirror", abstract: "Mirror the screen or one window to a device.",
        discussion: """
            --http: captures the X11 display in $DISPLAY (or --display) with ffmpeg, serves it as a live H.264 video from this \
            computer and plays it with the Default Media Receiver (docs/mirroring-http.md). Runs until SIGINT or SIGTERM \
            (or --duration, or the device stopping it). Prints one line when mirroring starts and one when it ends.
            """)

    @OptionGroup var options: ClientOptions

    @Option(help: ArgumentHelp("Mirror only this X11 window (its id, decimal or 0x…, as xwininfo prints it).", valueName: "ID"))
    var window: String?

    @Option(help: ArgumentHelp("The X11 display to capture (default: $DISPLAY).", valueName: "DISPLAY"))
    var display: String?

    @Option(help: ArgumentHelp("sharp (text), balanced or smooth (motion).", valueName: "QUALITY"))
    var quality: String = MirrorQuality.balanced.rawValue

    @Option(help: ArgumentHelp("Stop after this many seconds (default: run until interrupted).", valueName: "SECONDS"))
    var duration: Double?

    @Flag(help: "Send the screen as a live video over HTTP for the Default Media Receiver (for devices or networks where Cast Streaming fails).")
    var http = false

    @Flag(help: "With --http: send the desktop's sound too (the PulseAudio/PipeWire monitor of the default output).")
    var audio = false

    @Option(
        name: .customLong("media-port"),
        help: ArgumentHelp("With --http: serve the stream on this TCP port (default: the first free of 8010–8019).", valueName: "PORT"))
    var mediaPort: Int?

    func validate() throws {
        guard http else { throw ValidationError("Only --http is in this build: Cast Streaming mirroring comes with the mirror-rtp branch.") }
        if let window, CaptureSource.windowID(window) == nil { throw ValidationError("--window takes a window id such as 0x3a0000f or 60817423.") }
        guard MirrorQuality(rawValue: quality) != nil else { throw ValidationError("--quality takes sharp, balanced or smooth.") }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number of seconds.") }
        if let mediaPort, !(1...65535).contains(mediaPort) { throw ValidationError("--media-port must be a TCP port (1–65535).") }
    }

    func run() async throws {
        guard let display = display ?? ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty else {
            throw CommandFailure("There is no X11 display to mirror: set DISPLAY or give --display (Wayland's screen-cast portal is not supported yet).")
        }
        let source: CaptureSource = window.flatMap(CaptureSource.windowID).map { .x11Window(display: display, id: $0) } ?? .x11Screen(display: display)
        try await runHTTP(source: source, quality: MirrorQuality(rawValue: quality) ?? .balanced)
    }
}
