// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// ffmpeg's command lines for capturing and encoding. ffmpeg runs as a child process and
/// writes the encoded stream to its stdout, one packet flushed at a time.
public enum EncoderArguments {
    /// The screen or a window through x11grab, scaled to the plan's size and encoded by the
    /// plan's encoder for real time (`codecArguments`): VP8 as IVF, H.264 as Annex B access
    /// units (`outputArguments`).
    public static func video(source: CaptureSource, plan: VideoPlan, keyInterval: Int = 10, drawMouse: Bool = true) -> [String] {
        ["-hide_banner", "-nostdin", "-loglevel", "error", "-fflags", "nobuffer"] + deviceArguments(plan.encoder)
            + captureInput(source: source, fps: plan.fps, drawMouse: drawMouse) + codecArguments(plan.encoder, plan: plan, keyInterval: keyInterval)
            + outputArguments(plan.encoder.codec)
    }

    /// PulseAudio's name for the monitor of the default output: what the desktop plays.
    public static let defaultSoundDevice = "@DEFAULT_MONITOR@"
    /// The Opus bit rate sent (Chrome offers about 100–128 kb/s).
    public static let soundBitRate = 128_000

    /// The desktop's sound: the monitor of the default PulseAudio (or PipeWire-Pulse) output,
    /// `device` naming another source; encoded as Opus in 20 ms packets for low delay, 48 kHz
    /// stereo, written as Ogg with a page per packet.
    public static func audio(device: String = defaultSoundDevice, bitRate: Int = soundBitRate) -> [String] {
        ["-hide_banner", "-nostdin", "-loglevel", "error", "-fflags", "nobuffer"] + soundInput(device: device) + [
            "-c:a", "libopus", "-application", "lowdelay", "-frame_duration", "20", "-b:a", "\(bitRate)", "-ac", "2", "-ar", "48000",
            "-f", "ogg", "-page_duration", "20000", "-flush_packets", "1", "pipe:1",
        ]
    }

    /// The x11grab input alone (`-f x11grab … -i DISPLAY`): what `video` encodes, and what
    /// the HTTP live path (LocalMedia's `LiveEncoding`) encodes as H.264 in fragmented MP4.
    public static func captureInput(source: CaptureSource, fps: Int, drawMouse: Bool = true) -> [String] {
        var input = ["-f", "x11grab", "-framerate", "\(fps)", "-draw_mouse", drawMouse ? "1" : "0"]
        switch source {
        case .x11Screen(let display):
            input += ["-i", display]
        case .x11Window(let display, let id):
            input += ["-window_id", "\(id)", "-i", display]
        case .portal:
            // PipeWireFeed's raw frames on standard input, at the plan's size and rate.
            return ["-f", "yuv4mpegpipe", "-i", "pipe:0"]
        }
        return input
    }

    /// The PulseAudio (or PipeWire-Pulse) input alone: the monitor of the default output, or `device`.
    public static func soundInput(device: String = defaultSoundDevice) -> [String] {
        ["-f", "pulse", "-fragment_size", "3840", "-i", device]
    }
}
