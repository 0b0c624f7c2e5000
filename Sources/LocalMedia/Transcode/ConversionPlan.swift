// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore

/// How a local file reaches one device: served as it is, or as HLS whose segments are made
/// on demand (streams copied or converted), with a reason for every stream.
///
/// Only what must change is changed: an H.264 film with AC-3 sound keeps its picture and gets
/// AAC stereo; an HEVC film is converted to H.264 for a Chromecast and copied for an Ultra.
public struct ConversionPlan: Sendable, Hashable {
    public enum Action: String, Sendable, Hashable {
        /// Served in the file as it is.
        case direct
        /// Copied into the HLS segments.
        case remux
        /// Decoded and encoded again (H.264 video, AAC audio).
        case convert
        /// An embedded text subtitle sent as a WebVTT text track.
        case textTrack = "text track"
        /// Drawn into the picture (`--burn-subtitles`).
        case burn
        /// An image subtitle: not available as text.
        case notAsText = "not as text"
        /// The embedded cover, shown as the artwork.
        case artwork
        /// Not sent (a font, data, a second video stream).
        case leftOut = "left out"
    }

    public struct Step: Sendable, Hashable {
        public var stream: MediaProbe.Stream
        public var action: Action
        public var reason: String
        /// For subtitles: the number `--burn-subtitles` takes (1 = the first subtitle stream).
        public var subtitleNumber: Int?
    }

    public enum Delivery: String, Sendable, Hashable {
        /// The file as it is (ranges, sendfile).
        case direct
        /// HLS VOD made on demand.
        case hls
    }

    public var device: DeviceCapabilities
    public var delivery: Delivery
    public var steps: [Step]
    public var duration: Double
    /// A sentence for the whole file.
    public var summary: String

    public var video: Step? { steps.first { $0.stream.codecType == "video" && !$0.stream.isAttachedPicture && $0.action != .leftOut } }
    public var audio: [Step] { steps.filter { $0.stream.codecType == "audio" && $0.action != .leftOut } }
    public var textSubtitles: [Step] { steps.filter { $0.action == .textTrack } }
    public var burned: Step? { steps.first { $0.action == .burn } }
    public var convertsVideo: Bool { video?.action == .convert }

    static let textSubtitleCodecs: Set<String> = ["subrip", "srt", "ass", "ssa", "mov_text", "webvtt", "text"]

    /// Video codecs that can be copied into MPEG-TS segments.
    static let segmentableVideo: Set<String> = ["h264", "hevc"]
    /// Audio codecs copied into segments as they are (others become AAC).
    static let segmentableAudio: Set<String> = ["aac", "mp3"]

    /// Plans `probe` of a file in `format` for `device`.
    /// - Parameter burnSubtitles: the subtitle number (1-based among the subtitle streams) to
    ///   draw into the picture, which forces the video to be converted.
    public static func make(
        probe: MediaProbe, format: MediaFormat, device: DeviceCapabilities, burnSubtitles: Int? = nil, fileName: String = "the file"
    ) throws(LocalMediaError) -> ConversionPlan {
        let videos = probe.videoStreams
        let audios = probe.audioStreams
        let subs = probe.subtitleStreams
        if let n = burnSubtitles, !(1...max(subs.count, 1)).contains(n) || subs.isEmpty {
            throw .burnUnavailable(number: n, count: subs.count)
        }
        guard !videos.isEmpty || !audios.isEmpty else {
            throw .noStreams(file: fileName)
        }
        let mainVideo = videos.first
        let videoProblem = mainVideo.flatMap { device.videoProblem($0) }
        let audioProblems = audios.map { device.audioProblem($0) }
        let containerOK = format.castable && (mainVideo == nil || ["MP4", "QuickTime", "WebM"].contains(format.name))

        // Served as it is: a container and codecs the device reads, one sound track (a
        // device plays only the first of several), nothing to burn.
        let direct =
            containerOK && videoProblem == nil && (audioProblems.first ?? nil) == nil && audios.count <= 1 && burnSubtitles == nil
            && videos.count <= 1
        var steps: [Step] = []
        var subNumber = 0
        for s in probe.streams {
            let label = Self.describe(s)
            switch s.codecType {
            case "video" where s.isAttachedPicture:
                steps.append(Step(stream: s, action: .artwork, reason: "\(label): shown as the cover art"))
            case "video":
                if s.index != mainVideo?.index {
                    steps.append(Step(stream: s, action: .leftOut, reason: "\(label): only the first video stream is sent"))
                } else if direct {
                    steps.append(Step(stream: s, action: .direct, reason: "\(label): the device plays it"))
                } else if burnSubtitles != nil {
                    steps.append(Step(stream: s, action: .convert, reason: "\(label) → H.264: subtitles are drawn into the picture"))
                } else if let p = videoProblem {
                    steps.append(Step(stream: s, action: .convert, reason: "\(label) → H.264: \(p)"))
                } else if !segmentableVideo.contains(s.codecName ?? "") {
                    steps.append(Step(stream: s, action: .convert, reason: "\(label) → H.264: the device plays it, but not inside HLS segments"))
                } else {
                    steps.append(Step(stream: s, action: .remux, reason: "\(label): copied as it is into HLS segments"))
                }
            case "audio":
                let i = audios.firstIndex { $0.index == s.index } ?? 0
                let aac = (s.channels ?? 2) > 2 ? "AAC stereo" : "AAC"
                let passed = device.passthrough.contains(s.codecName ?? "")
                if direct {
                    let how = passed ? "sent as it is to the AV receiver (“Send surround sound as is” is on)" : "the device plays it"
                    steps.append(Step(stream: s, action: .direct, reason: "\(label): \(how)"))
                } else if let p = audioProblems[i] {
                    steps.append(Step(stream: s, action: .convert, reason: "\(label) → \(aac): \(p)"))
                } else if passed {
                    steps.append(
                        Step(stream: s, action: .remux, reason: "\(label): copied as it is for the AV receiver (“Send surround sound as is” is on)"))
                } else if segmentableAudio.contains(s.codecName ?? "") {
                    let why = audios.count > 1 ? "copied; one of \(audios.count) selectable audio tracks" : "copied as it is into HLS segments"
                    steps.append(Step(stream: s, action: .remux, reason: "\(label): \(why)"))
                } else {
                    steps.append(Step(stream: s, action: .convert, reason: "\(label) → \(aac): the device plays it, but not inside HLS segments"))
                }
            case "subtitle":
                subNumber += 1
                let codec = s.codecName ?? ""
                if burnSubtitles == subNumber {
                    steps.append(Step(stream: s, action: .burn, reason: "\(label): drawn into the picture", subtitleNumber: subNumber))
                } else if textSubtitleCodecs.contains(codec) {
                    steps.append(Step(stream: s, action: .textTrack, reason: "\(label): sent as a WebVTT text track", subtitleNumber: subNumber))
                } else {
                    steps.append(
                        Step(
                            stream: s, action: .notAsText,
                            reason: "\(label): a picture subtitle, not available as text (castctl cast --burn-subtitles \(subNumber) draws it in)",
                            subtitleNumber: subNumber))
                }
            default:
                steps.append(Step(stream: s, action: .leftOut, reason: "\(label): not media the device uses"))
            }
        }
        let duration = probe.format.duration ?? mainVideo?.duration ?? audios.first?.duration ?? 0
        let summary: String
        if direct {
            summary = "served as it is: the device plays this \(format.name) file"
        } else {
            let changed = steps.filter { $0.action == .convert }.count
            summary =
                changed == 0 ? "served as HLS, streams copied (remux): nothing is converted" : "served as HLS made on demand; \(changed) stream(s) converted"
        }
        return ConversionPlan(device: device, delivery: direct ? .direct : .hls, steps: steps, duration: duration, summary: summary)
    }

    /// `#1 video: HEVC Main 10, 1920×1080, 23.976 fps, 10-bit (eng, "Film", default)`.
    public static func describe(_ s: MediaProbe.Stream) -> String {
        var parts: [String] = []
        let codec = DeviceCapabilities.codecLabel(s.codecName ?? "unknown")
        var head = codec
        if let p = s.profile, !p.isEmpty, p != "unknown", s.codecType != "subtitle" { head += " \(p)" }
        if let l = s.level, l > 0, s.codecType == "video" {
            head += s.codecName == "hevc" ? " level \(Double(l) / 30)" : " level \(Double(l) / 10)"
        }
        parts.append(head)
        if s.codecType == "video", !s.isAttachedPicture {
            if let w = s.width, let h = s.height { parts.append("\(w)×\(h)") }
            if let f = s.framesPerSecond { parts.append("\((f * 1000).rounded() / 1000) fps") }
            parts.append("\(s.bitDepth)-bit")
        }
        if s.codecType == "audio", let c = s.channels { parts.append(c == 1 ? "mono" : c == 2 ? "stereo" : "\(c) channels") }
        var flags: [String] = []
        if let l = s.language, l != "und" { flags.append(l) }
        if let t = s.title { flags.append("“\(t)”") }
        if s.isDefault { flags.append("default") }
        if s.isForced { flags.append("forced") }
        let kind = s.isAttachedPicture ? "cover" : (s.codecType ?? "data")
        return "#\(s.index) \(kind): " + parts.joined(separator: ", ") + (flags.isEmpty ? "" : " (" + flags.joined(separator: ", ") + ")")
    }

    /// What `castctl cast FILE --plan` prints.
    public func lines(fileName: String) -> [String] {
        var out = ["\(fileName) on \(device.name): \(summary)."]
        if duration > 0 { out.append("  duration \(Self.clock(duration))") }
        for s in steps { out.append("  \(s.action.rawValue): \(s.reason)") }
        return out
    }

    static func clock(_ seconds: Double) -> String {
        clockText(seconds, rounding: .toNearestOrAwayFromZero)
    }
}
