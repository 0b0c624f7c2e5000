// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation

/// `--first-frame`: the last step before a device shows a picture (or plays a sound) is
/// decoding the first frame of what it fetched. ffmpeg reads the media from its URL as the
/// device would (the file, or the HLS master, its playlist and first segment) and decodes one
/// video frame, or one audio frame for sound alone. Used by the `play` benchmark to time the
/// whole way from a sender's command to the first frame.
enum FirstFrame {
    /// nil when a frame was decoded, else why not.
    static func decode(_ media: MediaInformation) async -> String? {
        var url = media.contentUrl ?? media.contentId
        let type = (media.contentType ?? "").lowercased()
        let audioOnly = type.hasPrefix("audio/")
        if type.contains("mpegurl") {
            // A player decodes the first segment of the variant it chose; ffmpeg given the
            // master would also read the second segment of every rendition before a frame.
            guard let first = await firstSegment(url) else { return "the HLS playlists name no segment" }
            url = first
        }
        // A picture first; sound alone when the media has no picture (or is music).
        let attempts: [[String]] = audioOnly ? [["-vn", "-frames:a", "1"]] : [["-an", "-frames:v", "1"], ["-vn", "-frames:a", "1"]]
        var last = "ffmpeg could not decode a frame"
        for extra in attempts {
            // A player starts on the first frames it has, where ffmpeg would first read five
            // seconds of every stream to learn about them (three segments of converted HLS).
            let status = await run(["-v", "error", "-nostdin", "-probesize", "500000", "-analyzeduration", "200000", "-i", url] + extra + ["-f", "null", "-"])
            if status == 0 { return nil }
            last = status < 0 ? "ffmpeg is not installed" : "ffmpeg could not decode a frame (exit status \(status))"
        }
        return last
    }

    /// The first segment of the first variant (or of the playlist itself, when it is a media playlist).
    static func firstSegment(_ master: String) async -> String? {
        var playlist = master
        for _ in 0..<2 {
            guard let text = await HLSCheck.text(playlist, timeout: .seconds(3)) else { return nil }
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            if let i = lines.firstIndex(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }), i + 1 < lines.count {
                playlist = HLSCheck.resolve(lines[i + 1], against: playlist)
                continue
            }
            return lines.first { !$0.isEmpty && !$0.hasPrefix("#") }.map { HLSCheck.resolve($0, against: playlist) }
        }
        return nil
    }

    static func seconds(_ d: Duration) -> String {
        String(format: "%.3f", Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }

    /// ffmpeg's exit status, -1 when it cannot start; off the cooperative pool (it blocks).
    private static func run(_ arguments: [String]) async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                p.arguments = ["ffmpeg"] + arguments
                p.standardInput = FileHandle.nullDevice
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                do { try p.run() } catch { return continuation.resume(returning: -1) }
                p.waitUntilExit()
                continuation.resume(returning: p.terminationStatus == 127 ? -1 : p.terminationStatus)
            }
        }
    }
}
