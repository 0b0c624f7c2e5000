// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The ffmpeg command line of an HLSSession run, and the VA-API check; the type's overview is in HLSSession.swift.

import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension HLSSession {
    /// ffmpeg's arguments for run `id` from segment `index`: one segment-muxer output per
    /// rendition; a quick run (`until`) ends before that segment.
    func arguments(run id: Int, from index: Int, until: Int? = nil, initial: Bool = false) -> [String] {
        let t = boundaries[index]
        var a = ["-nostdin", "-hide_banner", "-v", "error", "-y", "-copyts"]
        if index > 0 { a += ["-ss", String(format: "%.6f", t)] }
        if let until { a += ["-t", String(format: "%.6f", boundaries[until] - t)] }
        if videoEncoder == .vaapi { a += ["-vaapi_device", VAAPI.device] }
        if let rate = Self.readRate, initial { a += ["-readrate", String(rate)] }
        a += ["-i", source]
        let cuts = boundaries[(index + 1)..<(until ?? boundaries.count)].map { String(format: "%.6f", $0) }
        for r in renditions {
            if r.isVideo {
                if r.copy {
                    a += ["-map", "0:\(r.stream.index)", "-c:v", "copy"]
                } else {
                    a += videoEncoding(r.stream, from: index, quick: until != nil)
                }
            } else {
                a += ["-map", "0:\(r.stream.index)"]
                a += r.copy ? ["-c:a", "copy"] : ["-c:a", "aac", "-ac", "\(min(r.stream.channels ?? 2, 2))", "-b:a", "160k"]
            }
            a += ["-f", "segment", "-segment_format", "mpegts", "-segment_start_number", "\(index)"]
            if !cuts.isEmpty { a += ["-segment_times", cuts.joined(separator: ",")] }
            a += ["-segment_list", listPath(id, r.name), "-segment_list_type", "csv", "-max_muxing_queue_size", "4096"]
            a.append((directory as NSString).appendingPathComponent("r\(id)_\(r.name)_%05d.ts"))
        }
        return a
    }

    private func videoEncoding(_ s: MediaProbe.Stream, from index: Int, quick: Bool) -> [String] {
        let (w, h) = outputSize(s.width ?? 1920, s.height ?? 1080)
        var filters: [String] = []
        var a: [String] = []
        if let burn = plan.burned?.stream {
            if ConversionPlan.textSubtitleCodecs.contains(burn.codecName ?? "") {
                let n = (plan.steps.filter { $0.stream.codecType == "subtitle" }.firstIndex { $0.stream.index == burn.index }) ?? 0
                let escaped = source.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
                    .replacingOccurrences(of: "'", with: "\\'")
                a += ["-map", "0:\(s.index)"]
                filters.append("subtitles='\(escaped)':si=\(n)")
                filters.append("scale=\(w):\(h)")
                a += ["-vf", filters.joined(separator: ",")]
            } else {
                a += ["-filter_complex", "[0:\(s.index)][0:\(burn.index)]overlay=eof_action=pass,scale=\(w):\(h),format=yuv420p[vout]", "-map", "[vout]"]
            }
        } else {
            a += ["-map", "0:\(s.index)"]
            if videoEncoder == .vaapi {
                a += ["-vf", "format=nv12,hwupload,scale_vaapi=w=\(w):h=\(h)"]
            } else {
                a += ["-vf", "scale=\(w):\(h),format=yuv420p"]
            }
        }
        let keys = boundaries[index...].map { String(format: "%.6f", $0) }.joined(separator: ",")
        if videoEncoder == .vaapi {
            a += ["-c:v", "h264_vaapi", "-qp", "\(quality)", "-profile:v", "high", "-level", "41"]
        } else {
            a += [
                "-c:v", "libx264", "-preset", quick ? "ultrafast" : Self.preset, "-crf", "\(quality)", "-profile:v", "high", "-level:v", "4.1", "-pix_fmt",
                "yuv420p",
            ]
        }
        a += ["-force_key_frames", keys]
        return a
    }
}

/// Finds out once whether VA-API encoding works here (a render node and a one-frame test).
enum VAAPI {
    static let device = "/dev/dri/renderD128"
    private static let cached = LockedBox<Bool?>(nil)

    static func usable(ffmpeg: String) async -> Bool {
        if let known = cached.get() { return known }
        var ok = false
        if FileManager.default.fileExists(atPath: device), ProcessInfo.processInfo.environment["CASTDECK_NO_VAAPI"] == nil {
            let r = try? await ToolRunner.run(
                ffmpeg,
                [
                    "-v", "error", "-nostdin", "-vaapi_device", device, "-f", "lavfi", "-i", "testsrc=size=64x64:duration=0.1", "-vf", "format=nv12,hwupload",
                    "-c:v", "h264_vaapi", "-f", "null", "-",
                ], timeout: .seconds(10))
            ok = r?.status == 0
        }
        cached.set(ok)
        return ok
    }
}
