// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// What one generation of Cast device decodes, after Google's supported-media page, keyed by
/// the model name the device announces in its TXT record (`md`).
///
/// The columns are deliberately few: a model CastDeck does not know (a speaker, a TV with
/// Cast built in, a future stick) gets the conservative column, which every Chromecast plays.
public struct DeviceCapabilities: Sendable, Hashable {
    /// The column's name as printed by `castctl cast --plan`.
    public var name: String
    /// Highest H.264 level (×10: 41 = level 4.1), 8-bit only on every device.
    public var h264MaxLevel: Int
    public var hevc: Bool
    /// HEVC Main 10 and VP9 profile 2 (10-bit).
    public var tenBit: Bool
    public var vp8: Bool
    public var vp9: Bool
    public var av1: Bool
    /// The largest picture the device decodes (height; 1080 or 2160).
    public var maxHeight: Int
    /// Audio codecs decoded (ffprobe names). AC-3/E-AC-3 only pass through to a receiver
    /// over HDMI, so they are never counted as playable.
    public var audioCodecs: Set<String>
    /// Surround codecs sent as they are, for a device whose HDMI output reaches an AV receiver
    /// or TV that decodes them (the per-device setting "Send surround sound as is"); empty by
    /// default, since a device on a plain TV plays them as silence or refuses them.
    public var passthrough: Set<String> = []

    /// Codecs the surround setting passes through: Dolby Digital and Dolby Digital Plus, which
    /// Cast devices hand to HDMI (DTS and TrueHD they do not).
    public static let surroundCodecs: Set<String> = ["ac3", "eac3"]

    /// This column with surround sound passed through (`on`) or converted to stereo.
    public func passingSurround(_ on: Bool) -> DeviceCapabilities {
        var c = self
        c.passthrough = on ? Self.surroundCodecs : []
        return c
    }

    static let commonAudio: Set<String> = ["aac", "mp3", "opus", "vorbis", "flac", "pcm_s16le", "pcm_s24le", "pcm_u8"]

    /// Chromecast 1st–3rd generation; also the column for models not in the table.
    public static let chromecast = DeviceCapabilities(
        name: "Chromecast (1st–3rd generation)", h264MaxLevel: 41, hevc: false, tenBit: false, vp8: true, vp9: false, av1: false,
        maxHeight: 1080, audioCodecs: commonAudio)
    public static let conservative: DeviceCapabilities = {
        var c = chromecast
        c.name = "unknown model (conservative)"
        return c
    }()
    public static let ultra = DeviceCapabilities(
        name: "Chromecast Ultra", h264MaxLevel: 42, hevc: true, tenBit: true, vp8: true, vp9: true, av1: false, maxHeight: 2160,
        audioCodecs: commonAudio)
    public static let googleTV = DeviceCapabilities(
        name: "Chromecast with Google TV", h264MaxLevel: 51, hevc: true, tenBit: true, vp8: true, vp9: true, av1: false, maxHeight: 2160,
        audioCodecs: commonAudio)
    public static let googleTVStreamer = DeviceCapabilities(
        name: "Google TV Streamer", h264MaxLevel: 51, hevc: true, tenBit: true, vp8: true, vp9: true, av1: true, maxHeight: 2160,
        audioCodecs: commonAudio)

    /// The column for a TXT `md` value (case and spacing ignored); nil → conservative.
    public static func forModel(_ model: String?) -> DeviceCapabilities {
        let m = (model ?? "").lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        switch m {
        case "chromecast", "chromecast 1st generation", "chromecast 2nd generation", "chromecast 3rd generation": return .chromecast
        case "chromecast ultra": return .ultra
        case "chromecast with google tv", "chromecast hd", "google tv", "chromecast google tv": return .googleTV
        case "google tv streamer": return .googleTVStreamer
        default: return .conservative
        }
    }

    /// Whether the device decodes this video stream as it is; nil when it does, else why not.
    public func videoProblem(_ s: MediaProbe.Stream) -> String? {
        let codec = s.codecName ?? "unknown"
        let bits = s.bitDepth
        if let h = s.height, let w = s.width, min(h, w) > maxHeight {
            return "\(w)×\(h) is larger than the \(maxHeight == 1080 ? "1080p" : "4K") the device shows"
        }
        if let f = s.pixelFormat, f.contains("444") || f.contains("422") || f.hasPrefix("gbr") || f.hasPrefix("rgb") {
            return "\(f) pictures (not 4:2:0) are decoded by no Cast device"
        }
        switch codec {
        case "h264":
            if bits > 8 { return "\(bits)-bit H.264 is decoded by no Cast device" }
            let p = (s.profile ?? "").lowercased()
            if p.contains("high 10") || p.contains("4:2:2") || p.contains("4:4:4") { return "H.264 \(s.profile ?? "") profile is not decoded" }
            if let l = s.level, l > h264MaxLevel {
                return "H.264 level \(Double(l) / 10) is above the device's \(Double(h264MaxLevel) / 10)"
            }
            return nil
        case "hevc":
            guard hevc else { return "the device has no HEVC (H.265) decoder" }
            if let p = s.profile, p != "Main", p != "Main 10" { return "HEVC \(p) profile is not decoded (Main and Main 10 are)" }
            if bits > 8, !tenBit { return "10-bit HEVC is not decoded" }
            if bits > 10 { return "\(bits)-bit HEVC is not decoded" }
            return nil
        case "vp8": return vp8 ? nil : "the device has no VP8 decoder"
        case "vp9":
            guard vp9 else { return "the device has no VP9 decoder" }
            if let p = s.profile, p == "Profile 1" || p == "Profile 3" { return "VP9 \(p) is not decoded (profiles 0 and 2 are)" }
            return bits > 8 && !tenBit ? "10-bit VP9 is not decoded" : nil
        case "av1": return av1 ? nil : "the device has no AV1 decoder"
        default: return "\(DeviceCapabilities.codecLabel(codec)) video is decoded by no Cast device"
        }
    }

    /// Whether the device decodes this audio stream as it is; nil when it does.
    public func audioProblem(_ s: MediaProbe.Stream) -> String? {
        let codec = s.codecName ?? "unknown"
        if passthrough.contains(codec) { return nil }
        if ["ac3", "eac3", "dts", "truehd"].contains(codec) {
            let setting = Self.surroundCodecs.contains(codec) ? " (the setting “Send surround sound as is” is off)" : ""
            return "\(DeviceCapabilities.codecLabel(codec)) is only passed through to an AV receiver, not decoded\(setting)"
        }
        guard audioCodecs.contains(codec) else { return "\(DeviceCapabilities.codecLabel(codec)) audio is decoded by no Cast device" }
        if let c = s.channels, c > 2, codec != "aac" { return "\(c)-channel \(DeviceCapabilities.codecLabel(codec)) is played as stereo at best" }
        return nil
    }

    /// A name for people: "HEVC (H.265)", "AC-3".
    public static func codecLabel(_ codec: String) -> String {
        [
            "hevc": "HEVC (H.265)", "h264": "H.264", "mpeg4": "MPEG-4 Part 2", "msmpeg4v3": "DivX 3", "mpeg2video": "MPEG-2", "av1": "AV1",
            "vp8": "VP8", "vp9": "VP9", "ac3": "AC-3", "eac3": "E-AC-3", "dts": "DTS", "truehd": "Dolby TrueHD", "aac": "AAC", "mp3": "MP3",
            "opus": "Opus", "vorbis": "Vorbis", "flac": "FLAC", "subrip": "SRT", "ass": "ASS", "ssa": "SSA", "mov_text": "MP4 text",
            "webvtt": "WebVTT", "hdmv_pgs_subtitle": "PGS", "dvd_subtitle": "VobSub", "dvb_subtitle": "DVB",
        ][codec] ?? codec
    }
}

extension MediaProbe.Stream {
    /// Bits per sample of the picture, from the pixel format (`yuv420p10le` → 10), else
    /// `bits_per_raw_sample`, else 8.
    public var bitDepth: Int {
        if let f = pixelFormat {
            for n in [16, 14, 12, 10, 9] where f.contains("p\(n)") { return n }
        }
        return bitsPerRawSample ?? 8
    }

    /// Frames per second from `avg_frame_rate` (`24000/1001`).
    public var framesPerSecond: Double? {
        guard let r = frameRate else { return nil }
        let parts = r.split(separator: "/").compactMap { Double($0) }
        guard parts.count == 2, parts[1] > 0, parts[0] > 0 else { return nil }
        return parts[0] / parts[1]
    }
}
