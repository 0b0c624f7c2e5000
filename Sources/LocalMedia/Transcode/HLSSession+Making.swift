// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Making an HLSSession: renditions, segment boundaries, codec strings, the scratch folder; the type's overview is in HLSSession.swift.

import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension HLSSession {
    // MARK: - Making a session

    /// Plans the segments of `path` (keyframes read when the video is copied) and makes the
    /// scratch folder under `root`. Nothing is converted until ``start()`` or a request.
    static func make(
        path: String, probe: MediaProbe, plan: ConversionPlan, root: String, ffmpeg: String, ffprobe: String, sizeLimit: Int64, quality: Int
    ) async throws(LocalMediaError) -> HLSSession {
        let fileName = (path as NSString).lastPathComponent
        guard ToolRunner.findInPath(ffmpeg) != nil || ffmpeg.contains("/") else { throw .converterMissing(file: fileName) }
        let start = probe.format.startTime ?? 0
        let end = start + plan.duration
        guard plan.duration > 0 else { throw .converterFailed(file: fileName, reason: "ffprobe reports no duration, so no playlist can be made") }
        var renditions: [Rendition] = []
        if let v = plan.video {
            let copy = v.action == .remux
            renditions.append(Rendition(name: "v", stream: v.stream, copy: copy, codecs: copy ? codecString(v.stream) : "avc1.640029"))
        }
        for (i, a) in plan.audio.enumerated() {
            let copy = a.action == .remux
            renditions.append(Rendition(name: "a\(i)", stream: a.stream, copy: copy, codecs: copy ? codecString(a.stream) : "mp4a.40.2"))
        }
        var boundaries: [Double]
        if let v = renditions.first(where: \.isVideo), v.copy {
            boundaries = try await keyframeBoundaries(
                path: path, stream: v.stream.index, ffprobe: ffprobe, start: start, end: end, indexed: hasKeyframeIndex(probe.format.formatName),
                fileName: fileName)
        } else {
            boundaries = stride(from: start, to: end - 0.5, by: convertedSegmentLength).map { $0 }
        }
        if boundaries.isEmpty { boundaries = [start] }
        let dir = (root as NSString).appendingPathComponent("\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .scratchUnusable(path: dir, reason: error.localizedDescription)
        }
        let encoder: VideoEncoder = await VAAPI.usable(ffmpeg: ffmpeg) ? .vaapi : .x264
        return HLSSession(
            directory: dir, source: path, plan: plan, boundaries: boundaries, end: end, renditions: renditions, ffmpeg: ffmpeg, sizeLimit: sizeLimit,
            quality: quality, videoEncoder: encoder, fileName: fileName)
    }

    /// Containers whose index lists the keyframes (Matroska cues, MP4 sync samples), so a seek
    /// lands on one without reading the packets before it.
    static func hasKeyframeIndex(_ formatName: String?) -> Bool {
        let names = (formatName ?? "").split(separator: ",")
        return names.contains("matroska") || names.contains("mp4") || names.contains("mov")
    }

    /// Segment starts at keyframes about every ``segmentLength`` seconds, remembered in
    /// ``ProbeCache`` (as "keyframes") for the next cast of the same file.
    ///
    /// With an index (`indexed`), ffprobe seeks to every ``segmentLength`` seconds and reads a
    /// few packets there: each seek lands on the keyframe at or before its time, so the
    /// keyframes found start segments of about ``segmentLength`` (never more than that plus one
    /// keyframe interval), in about a quarter of the time a scan of a ten-minute film's packets
    /// takes. Without an index (MPEG-TS, AVI), or when the seeks find no keyframe, every packet
    /// is read.
    static func keyframeBoundaries(
        path: String, stream: Int, ffprobe: String, start: Double, end: Double, indexed: Bool, fileName: String
    ) async throws(LocalMediaError) -> [Double] {
        let stamp = FileStamp(path: path)
        if let stamp, let known = ProbeCache.shared.entry(stamp, tool: ffprobe)?.keyframes["\(stream)"], !known.isEmpty {
            return known
        }
        var found: [Double] = []
        if indexed {
            let targets = stride(from: start, to: end, by: segmentLength).map { String(format: "%.3f%%+#8", $0) }
            let keyframes = try await readKeyframes(
                path: path, stream: stream, ffprobe: ffprobe, extra: ["-read_intervals", targets.joined(separator: ",")], fileName: fileName)
            // One keyframe at or before every target: each starts a segment (segments of about
            // segmentLength, the first shorter), keyframes closer than half of that merged.
            found = boundaries(keyframes: keyframes, end: end, spacing: segmentLength / 2)
        }
        if found.isEmpty {
            let keyframes = try await readKeyframes(path: path, stream: stream, ffprobe: ffprobe, extra: [], fileName: fileName)
            found = boundaries(keyframes: keyframes, end: end, spacing: segmentLength)
        }
        if let stamp, !found.isEmpty, stamp == FileStamp(path: path) {
            let boundaries = found
            ProbeCache.shared.update(stamp, tool: ffprobe) { $0.keyframes["\(stream)"] = boundaries }
        }
        return found
    }

    /// The keyframe times (sorted, each once) of the packets ffprobe reads with `extra`.
    private static func readKeyframes(path: String, stream: Int, ffprobe: String, extra: [String], fileName: String) async throws(LocalMediaError) -> [Double] {
        let r: ToolResult
        do {
            r = try await ToolRunner.run(
                ffprobe, ["-v", "error", "-select_streams", "\(stream)"] + extra + ["-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", "--", path],
                timeout: .seconds(300))
        } catch {
            throw .converterFailed(file: fileName, reason: error.reason)
        }
        var keyframes: [Double] = []
        for line in String(decoding: r.stdout, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ",")
            guard parts.count >= 2, parts[1].contains("K"), let t = Double(parts[0]) else { continue }
            keyframes.append(t)
        }
        return Array(Set(keyframes)).sorted()
    }

    /// Segment starts: the first keyframe, then the first at or after each previous start plus
    /// `spacing`, none in the last half second.
    static func boundaries(keyframes: [Double], end: Double, spacing: Double) -> [Double] {
        var out: [Double] = []
        for k in keyframes where k < end - 0.5 {
            if let last = out.last {
                if k >= last + spacing - 0.05 { out.append(k) }
            } else {
                out.append(k)
            }
        }
        return out
    }

    /// `avc1.64001f`, `hvc1.2.4.L120.B0`, `mp4a.40.2`, `mp4a.40.34` for a copied stream.
    static func codecString(_ s: MediaProbe.Stream) -> String {
        switch s.codecName {
        case "h264":
            let p = (s.profile ?? "").lowercased()
            let (profile, constraint) =
                p.contains("constrained baseline")
                ? (0x42, 0xE0)
                : p.contains("baseline")
                    ? (0x42, 0)
                    : p.contains("main")
                        ? (0x4D, 0)
                        : p.contains("high 10") ? (0x6E, 0) : (0x64, 0)
            return String(format: "avc1.%02x%02x%02x", profile, constraint, max(s.level ?? 41, 0))
        case "hevc":
            let main10 = (s.profile ?? "").lowercased().contains("10")
            return main10 ? "hvc1.2.4.L\(s.level ?? 120).B0" : "hvc1.1.6.L\(s.level ?? 120).B0"
        case "mp3": return "mp4a.40.34"
        case "ac3": return "ac-3"
        case "eac3": return "ec-3"
        case "aac": return "mp4a.40.2"
        default: return s.codecName ?? "unknown"
        }
    }
}
