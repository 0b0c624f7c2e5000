// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// ScreenCapture: what to capture and how to encode it for screen mirroring (issue 33), with
// ffmpeg as the capturer and encoder (a child process; nothing here links a codec).
//
//   CaptureSource       the whole X11 screen or one X11 window (`x11Geometry` reads its size),
//                       or what was chosen in the desktop's ScreenCast portal (Wayland)
//   ScreenCastPortal    the portal's exchange over D-Bus (GIO): its own picker, then a
//                       PipeWire node and a connection to read it (`PortalConversation`)
//   PipeWireFeed        GStreamer's pipewiresrc reading that node as raw YUV for ffmpeg
//   MirrorQuality       Sharp / Balanced / Smooth → a `VideoPlan` (size, frame rate, bit rate)
//                       fitted to the source and to what the receiver accepts (`VideoLimits`)
//   VideoCodec          VP8 or H.264; `CodecChoice` is what a person picks (auto, vp8, h264),
//                       `VideoBackend` the ffmpeg encoder of a codec (hardware or software)
//   EncoderProbe        finds the first encoder that works by a one-second test encode,
//                       once per process; auto is H.264, on hardware when it works
//   EncoderArguments    the ffmpeg command line: x11grab → the plan's encoder for real time,
//                       VP8 as IVF or H.264 as Annex B with access unit delimiters on stdout,
//                       and the desktop's sound (PulseAudio/PipeWire monitor) → Opus;
//                       the inputs alone for the HTTP live path (LocalMedia's LiveEncoding)
//   IVFReader           incremental reader of that IVF stream: frames with their key flag
//   AnnexBReader        the same for H.264: access units cut at their delimiters, IDR = key
//   VideoEncoder        runs ffmpeg, hands out encoded frames, restarts it for a key frame,
//                       a new bit rate or a new size
//   OggOpusReader       incremental reader of the sound's Ogg Opus stream: Opus packets with
//                       their length in samples (OggOpusWriter: the other way, for the receiver)
//   AudioEncoder        runs ffmpeg on a PulseAudio source, hands out Opus packets
//   EncoderChild        both encoders' ffmpeg child, one at a time, its output read on a thread
//
// Used by CastStreaming's sender (`castctl mirror`) and by the HTTP live path.

/// What is mirrored.
public enum CaptureSource: Sendable, Equatable, CustomStringConvertible {
    /// The whole screen of an X11 display (`$DISPLAY`, e.g. ":0").
    case x11Screen(display: String)
    /// One X11 window by its id (as `xwininfo` prints it), on a display.
    case x11Window(display: String, id: UInt32)
    /// What the person chose in the desktop's ScreenCast portal (Wayland), read from PipeWire.
    case portal(ScreenCastPortal)

    /// The X11 display, for the X11 sources.
    public var display: String? {
        switch self {
        case .x11Screen(let d), .x11Window(let d, _): d
        case .portal: nil
        }
    }

    public var description: String {
        switch self {
        case .x11Screen(let d): "the screen of display \(d)"
        case .x11Window(let d, let id): "window 0x\(String(id, radix: 16)) on display \(d)"
        case .portal(let p): p.description
        }
    }

    public static func == (a: CaptureSource, b: CaptureSource) -> Bool {
        switch (a, b) {
        case (.x11Screen(let x), .x11Screen(let y)): x == y
        case (.x11Window(let x, let i), .x11Window(let y, let j)): x == y && i == j
        case (.portal(let p), .portal(let q)): p === q
        default: false
        }
    }

    /// Whether this desktop should be captured through the portal: a Wayland session, where
    /// the X server (Xwayland), if any, sees only the X11 applications.
    public static func prefersPortal(environment: [String: String]) -> Bool {
        environment["XDG_SESSION_TYPE"] == "wayland" || (environment["DISPLAY"] ?? "").isEmpty && !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// A window id as given on a command line: decimal or 0x-prefixed hexadecimal.
    public static func windowID(_ text: String) -> UInt32? {
        let t = text.lowercased()
        if t.hasPrefix("0x") { return UInt32(t.dropFirst(2), radix: 16) }
        return UInt32(t)
    }
}

/// A size in pixels.
public struct PixelSize: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)x\(height)" }
}

/// Why capturing or encoding cannot go on, said so a person can act on it.
public enum ScreenCaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No X server answers on the display (or it has no such window).
    case sourceUnavailable(String)
    /// ffmpeg is missing, or could not start capturing.
    case encoderFailed(String)
    /// The person said no (or cancelled) in the desktop's screen-sharing dialog.
    case portalRefused(String)
    /// The desktop has no ScreenCast portal, or it failed.
    case portalFailed(String)

    public var description: String {
        switch self {
        case .sourceUnavailable(let s), .encoderFailed(let s), .portalRefused(let s), .portalFailed(let s): s
        }
    }
}
