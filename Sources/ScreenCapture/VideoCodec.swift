// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// The video codecs of Cast Streaming that CastDeck sends; every Cast receiver decodes both.
public enum VideoCodec: String, Sendable, CaseIterable, CustomStringConvertible {
    case vp8
    case h264

    /// The OFFER's `codecName`.
    public var codecName: String { rawValue }

    public var description: String {
        switch self {
        case .vp8: "VP8"
        case .h264: "H.264"
        }
    }
}

/// Which codec to mirror with, as a person chooses it (`castctl mirror --codec`).
public enum CodecChoice: String, Sendable, CaseIterable, CustomStringConvertible {
    /// H.264, with a hardware encoder when one works (`EncoderProbe.choose`); in software
    /// libx264 costs a third of libvpx's CPU and keeps up at 1080p (docs/mirroring.md).
    case auto
    case vp8
    case h264

    public var description: String { rawValue }
}

/// One ffmpeg encoder of a codec, as the probe found it working. Its arguments are in
/// `EncoderArguments.codecArguments`; its output is IVF (VP8) or an Annex B byte stream with an
/// access unit delimiter before every picture (H.264, `AnnexBReader`).
public enum VideoBackend: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Intel/AMD through VA-API (`/dev/dri/renderD128`).
    case vp8VAAPI = "vp8_vaapi"
    case libvpx
    case h264VAAPI = "h264_vaapi"
    /// Video4Linux memory-to-memory encoders (Raspberry Pi and other boards).
    case h264V4L2M2M = "h264_v4l2m2m"
    /// NVIDIA.
    case h264NVENC = "h264_nvenc"
    case libx264

    public var codec: VideoCodec {
        switch self {
        case .vp8VAAPI, .libvpx: .vp8
        case .h264VAAPI, .h264V4L2M2M, .h264NVENC, .libx264: .h264
        }
    }

    /// ffmpeg's name of the encoder (`-c:v`).
    public var ffmpegName: String { rawValue }

    /// Whether the encoder runs on a GPU or a media engine rather than the CPU.
    public var isHardware: Bool { self != .libvpx && self != .libx264 }

    /// Whether it needs the VA-API render node (`-vaapi_device`).
    public var usesVAAPI: Bool { self == .vp8VAAPI || self == .h264VAAPI }

    /// The order the probe tries them for `codec`: hardware first, the software encoder last.
    public static func candidates(for codec: VideoCodec) -> [VideoBackend] {
        switch codec {
        case .vp8: [.vp8VAAPI, .libvpx]
        case .h264: [.h264VAAPI, .h264V4L2M2M, .h264NVENC, .libx264]
        }
    }

    /// "VP8 (libvpx)", "H.264 (h264_vaapi)": what castctl says it streams with.
    public var description: String { "\(codec) (\(ffmpegName))" }
}
