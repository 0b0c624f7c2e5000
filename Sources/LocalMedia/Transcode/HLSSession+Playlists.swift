// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// HLSSession's master and media playlists, and its answer for each name the server is asked for; the type's overview is in HLSSession.swift.

import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension HLSSession {
    // MARK: - Playlists

    public var masterPlaylist: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let audio = renditions.filter { !$0.isVideo }
        let video = renditions.first(where: \.isVideo)
        let defaultAudio = audio.firstIndex { $0.stream.isDefault } ?? 0
        if video != nil {
            for (i, a) in audio.enumerated() {
                // The playlist's names are English; the window names the tracks in the LOAD itself.
                let name = Self.quoted(a.stream.trackFacts(.audio, number: i + 1).name())
                var attrs = "TYPE=AUDIO,GROUP-ID=\"audio\",NAME=\(name)"
                if let lang = a.stream.languageTag { attrs += ",LANGUAGE=\"\(lang)\"" }
                attrs +=
                    ",DEFAULT=\(i == defaultAudio ? "YES" : "NO"),AUTOSELECT=YES,CHANNELS=\"\(a.copy ? a.stream.channels ?? 2 : min(a.stream.channels ?? 2, 2))\""
                attrs += ",URI=\"\(a.name).m3u8\""
                lines.append("#EXT-X-MEDIA:" + attrs)
            }
        }
        if let v = video {
            var codecs = [v.codecs]
            if let a = audio.first { codecs.append(a.codecs) }
            var attrs = "BANDWIDTH=\(bandwidth),CODECS=\"\(codecs.joined(separator: ","))\""
            if let w = v.stream.width, let h = v.stream.height { attrs += ",RESOLUTION=\(outputSize(w, h).0)x\(outputSize(w, h).1)" }
            if !audio.isEmpty { attrs += ",AUDIO=\"audio\"" }
            lines.append("#EXT-X-STREAM-INF:" + attrs)
            lines.append("v.m3u8")
        } else if let a = audio.first {
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),CODECS=\"\(a.codecs)\"")
            lines.append("\(a.name).m3u8")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A generous estimate; players use it only to choose among variants, and there is one.
    var bandwidth: Int {
        let v = renditions.first(where: \.isVideo)
        return (v == nil ? 0 : 6_000_000) + 192_000
    }

    public func mediaPlaylist(_ rendition: String) -> String {
        let durations = segmentDurations
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:\(Int((durations.max() ?? Self.segmentLength).rounded(.up)))",
            "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD",
        ]
        for (i, d) in durations.enumerated() {
            lines.append(String(format: "#EXTINF:%.6f,", d))
            lines.append(Self.segmentName(rendition, i))
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    var segmentDurations: [Double] {
        boundaries.indices.map { i in (i + 1 < boundaries.count ? boundaries[i + 1] : end) - boundaries[i] }
    }

    static func segmentName(_ rendition: String, _ index: Int) -> String { String(format: "%@_%05d.ts", rendition, index) }

    static func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "'") + "\"" }

    /// The picture size after conversion (at most 1920×1080, even sides).
    func outputSize(_ w: Int, _ h: Int) -> (Int, Int) {
        guard let v = renditions.first(where: \.isVideo), !v.copy else { return (w, h) }
        let scale = min(1, min(1920 / Double(w), 1080 / Double(h)))
        func even(_ x: Double) -> Int { max(2, Int(x) / 2 * 2) }
        return (even(Double(w) * scale), even(Double(h) * scale))
    }

    // MARK: - Serving

    /// What the server answers for `name` (a playlist, a segment made on demand, or 404).
    public func answer(_ name: String) async -> GeneratedAnswer {
        if name == "master.m3u8" { return .bytes(Array(masterPlaylist.utf8), contentType: "application/vnd.apple.mpegurl") }
        if name.hasSuffix(".m3u8") {
            let r = String(name.dropLast(5))
            guard renditions.contains(where: { $0.name == r }) else { return .notFound }
            return .bytes(Array(mediaPlaylist(r).utf8), contentType: "application/vnd.apple.mpegurl")
        }
        guard name.hasSuffix(".ts"), let underscore = name.lastIndex(of: "_") else { return .notFound }
        let r = String(name[..<underscore])
        guard renditions.contains(where: { $0.name == r }), let i = Int(name[name.index(after: underscore)...].dropLast(3)), boundaries.indices.contains(i)
        else { return .notFound }
        switch await segment(r, i) {
        case .success(let path): return .file(path: path, contentType: "video/mp2t")
        case .failure(let e): return .failed(e.description)
        }
    }
}
