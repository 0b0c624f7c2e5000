// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

/// The picture of a portal session, read from PipeWire by GStreamer's `pipewiresrc` (ffmpeg
/// on Debian 12 has no PipeWire input) and written as raw YUV (YUV4MPEG2) to a pipe that
/// ffmpeg encodes from (`EncoderArguments.captureInput`). Each feed has its own PipeWire
/// connection from the portal; ending ffmpeg ends the feed (its pipe breaks), and `stop`
/// ends it in any case.
public final class PipeWireFeed: Sendable {
    private let process: Process
    /// ffmpeg's standard input.
    public let output: FileHandle

    /// The gst-launch pipeline: scaled to the plan's size, a steady frame rate (the last
    /// picture repeats while the screen is still), I420 as VP8 and H.264 encoders take it.
    public static func arguments(node: UInt32, plan: VideoPlan) -> [String] {
        [
            "-q", "pipewiresrc", "fd=0", "path=\(node)", "always-copy=true", "keepalive-time=\(1000 / max(1, plan.fps))", "do-timestamp=true",
            "!", "videoconvert", "!", "videoscale", "!", "videorate",
            "!", "video/x-raw,format=I420,width=\(plan.size.width),height=\(plan.size.height),framerate=\(plan.fps)/1,pixel-aspect-ratio=1/1",
            "!", "y4menc", "!", "fdsink", "fd=1", "sync=false",
        ]
    }

    /// Starts reading `portal`'s stream at `plan`'s size and rate.
    public init(portal: ScreenCastPortal, plan: VideoPlan, gstLaunch: String = "gst-launch-1.0") throws(ScreenCaptureError) {
        let fd = try portal.openRemote()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [gstLaunch] + Self.arguments(node: portal.nodeID, plan: plan)
        let remote = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let pipe = Pipe()
        p.standardInput = remote
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        do {
            try p.run()
        } catch {
            throw .encoderFailed(
                "GStreamer could not be started (\(error.localizedDescription)); install gstreamer1.0-pipewire and gstreamer1.0-tools to cast a Wayland screen")
        }
        // The child has its own copy of the PipeWire connection.
        try? remote.close()
        try? pipe.fileHandleForWriting.close()
        process = p
        output = pipe.fileHandleForReading
    }

    public func stop() {
        if process.isRunning { process.terminate() }
        try? output.close()
    }
}
