// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// Each encoder's part of ffmpeg's command line, shared by mirroring and the probe.
extension EncoderArguments {
    /// The VA-API device the VA-API encoders use.
    public static let vaapiRenderNode = "/dev/dri/renderD128"

    /// The H.264 profile and level the encoders are held to, as the OFFER names them (Open
    /// Screen's OFFER examples: "main", "4"); level 4 covers 1080p at 30 and 720p at 60
    /// frames a second.
    public static let h264Profile = "main"
    public static let h264Level = "4"

    /// Options before the input: the VA-API device for VA-API encoders.
    static func deviceArguments(_ backend: VideoBackend, renderNode: String = vaapiRenderNode) -> [String] {
        backend.usesVAAPI ? ["-vaapi_device", renderNode] : []
    }

    /// Scaling to the plan's size and encoding for real time: no look-ahead, no B-frames (no
    /// reordering delay), the bit rate capped at the plan's, a key frame every `keyInterval`
    /// seconds besides those the receiver asks for (the sender restarts the encoder). libvpx
    /// also without alternate reference frames and error resilient (a lost frame does not
    /// spoil the ones after it).
    static func codecArguments(_ backend: VideoBackend, plan: VideoPlan, keyInterval: Int) -> [String] {
        let rate = "\(plan.bitRate)"
        let scale = "scale=\(plan.size.width):\(plan.size.height):flags=bilinear"
        let common = ["-b:v", rate, "-maxrate", rate, "-bufsize", "\(plan.bitRate / 2)", "-g", "\(max(1, plan.fps * keyInterval))"]
        switch backend {
        case .libvpx:
            return [
                "-vf", "\(scale),format=yuv420p", "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-lag-in-frames", "0", "-auto-alt-ref", "0",
                "-error-resilient", "1",
            ] + common + ["-threads", "2"]
        case .vp8VAAPI:
            return ["-vf", "\(scale),format=nv12,hwupload", "-c:v", "vp8_vaapi"] + common
        case .libx264:
            return [
                "-vf", "\(scale),format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-profile:v", h264Profile,
                "-level:v", "\(h264Level).0",
            ] + common + ["-threads", "2"]
        case .h264VAAPI:
            return ["-vf", "\(scale),format=nv12,hwupload", "-c:v", "h264_vaapi", "-profile:v", h264Profile, "-level:v", "\(h264Level).0", "-bf", "0"] + common
        case .h264NVENC:
            return [
                "-vf", "\(scale),format=yuv420p", "-c:v", "h264_nvenc", "-preset", "p1", "-tune", "ull", "-zerolatency", "1", "-rc", "cbr", "-bf", "0",
                "-profile:v", h264Profile,
            ] + common
        case .h264V4L2M2M:
            return ["-vf", "\(scale),format=yuv420p", "-c:v", "h264_v4l2m2m"] + common
        }
    }

    /// The encoded stream on stdout, flushed per packet: IVF for VP8 (`IVFReader`); for H.264
    /// an Annex B byte stream with an access unit delimiter before every picture, whichever
    /// encoder made it (`AnnexBReader`).
    static func outputArguments(_ codec: VideoCodec) -> [String] {
        switch codec {
        case .vp8: ["-f", "ivf", "-flush_packets", "1", "pipe:1"]
        case .h264: ["-bsf:v", h264Filters, "-f", "h264", "-flush_packets", "1", "pipe:1"]
        }
    }

    static let h264Filters = "h264_mp4toannexb,h264_metadata=aud=insert"

    /// The probe's test encode: one second of ffmpeg's test picture at 640x360 through
    /// `backend`, thrown away.
    public static func probe(_ backend: VideoBackend, renderNode: String = vaapiRenderNode) -> [String] {
        let plan = VideoPlan(size: PixelSize(width: 640, height: 360), fps: 30, bitRate: 1_000_000, encoder: backend)
        return ["-hide_banner", "-nostdin", "-loglevel", "error"] + deviceArguments(backend, renderNode: renderNode)
            + ["-f", "lavfi", "-i", "testsrc=size=640x360:rate=30", "-t", "1"] + codecArguments(backend, plan: plan, keyInterval: 1)
            + (backend.codec == .h264 ? ["-bsf:v", h264Filters] : []) + ["-f", "null", "-"]
    }
}
