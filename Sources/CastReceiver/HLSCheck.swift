// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import NIOCore

/// `--fetch-media` for HLS: what the Web Receiver's player does before the first frame.
/// The master playlist must parse; every variant and audio rendition playlist it names must
/// fetch with CORS and parse as a VOD media playlist; the first segment of each must fetch
/// with CORS and be MPEG-TS (or fMP4); the `CODECS` of the chosen variant must be ones the
/// simulated model decodes. Its own small table, after Google's supported-media page (not
/// the sender's), so a sender that plans wrongly is caught.
///
/// Failures use the Web Receiver's HLS `DetailedErrorCode`s: 311 HLS_NETWORK_MASTER_PLAYLIST,
/// 312 HLS_NETWORK_PLAYLIST, 315 HLS_NETWORK_INVALID_SEGMENT, 316 HLS_SEGMENT_PARSING,
/// 411 HLS_MANIFEST_MASTER, 412 HLS_MANIFEST_PLAYLIST, 104 MEDIA_SRC_NOT_SUPPORTED (codecs).
enum HLSCheck {
    struct Failure: Error, Sendable {
        var code: Int
        var reason: String
    }

    /// The playlist's duration when everything checks out.
    static func check(_ url: String, model: String, avReceiver: Bool = false, timeout: TimeAmount) async -> Result<Double, Failure> {
        guard let master = await text(url, timeout: timeout) else {
            return .failure(Failure(code: 311, reason: "HLS: the master playlist cannot be fetched with CORS"))
        }
        let lines = master.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "#EXTM3U" else { return .failure(Failure(code: 411, reason: "HLS: the playlist does not start with #EXTM3U")) }
        var playlists: [(url: String, isVariant: Bool)] = []
        var codecs: [String] = []
        if lines.contains(where: { $0.hasPrefix("#EXTINF") }) {
            playlists = [(url, true)]
        } else {
            for (i, line) in lines.enumerated() {
                if line.hasPrefix("#EXT-X-STREAM-INF:") {
                    let attrs = attributes(String(line.dropFirst("#EXT-X-STREAM-INF:".count)))
                    guard attrs["BANDWIDTH"] != nil else { return .failure(Failure(code: 411, reason: "HLS: a variant has no BANDWIDTH")) }
                    guard i + 1 < lines.count, !lines[i + 1].hasPrefix("#"), !lines[i + 1].isEmpty else {
                        return .failure(Failure(code: 411, reason: "HLS: a variant has no URI line"))
                    }
                    if let c = attrs["CODECS"] { codecs += c.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
                    playlists.append((resolve(lines[i + 1], against: url), true))
                } else if line.hasPrefix("#EXT-X-MEDIA:") {
                    let attrs = attributes(String(line.dropFirst("#EXT-X-MEDIA:".count)))
                    guard let type = attrs["TYPE"], attrs["GROUP-ID"] != nil, attrs["NAME"] != nil else {
                        return .failure(Failure(code: 411, reason: "HLS: an EXT-X-MEDIA lacks TYPE, GROUP-ID or NAME"))
                    }
                    if type == "AUDIO", let uri = attrs["URI"] { playlists.append((resolve(uri, against: url), false)) }
                }
            }
            guard playlists.contains(where: \.isVariant) else { return .failure(Failure(code: 411, reason: "HLS: the master playlist names no variant")) }
        }
        for c in codecs {
            if let why = refusal(codec: c, model: model, avReceiver: avReceiver) { return .failure(Failure(code: 104, reason: "HLS: CODECS \(c): \(why)")) }
        }
        var duration: Double?
        for p in playlists {
            guard let body = await text(p.url, timeout: timeout) else {
                return .failure(Failure(code: 312, reason: "HLS: the media playlist \(p.url) cannot be fetched with CORS"))
            }
            let ls = body.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            guard ls.first == "#EXTM3U", ls.contains(where: { $0.hasPrefix("#EXT-X-TARGETDURATION:") }) else {
                return .failure(Failure(code: 412, reason: "HLS: \(p.url) is not a media playlist"))
            }
            guard ls.contains("#EXT-X-ENDLIST") else { return .failure(Failure(code: 412, reason: "HLS: \(p.url) is not VOD (no #EXT-X-ENDLIST)")) }
            var total = 0.0
            var segments: [String] = []
            for (i, l) in ls.enumerated() where l.hasPrefix("#EXTINF:") {
                let value = l.dropFirst("#EXTINF:".count).split(separator: ",").first.flatMap { Double($0) }
                guard let d = value, d > 0, i + 1 < ls.count, !ls[i + 1].hasPrefix("#") else {
                    return .failure(Failure(code: 412, reason: "HLS: \(p.url) has a malformed #EXTINF"))
                }
                total += d
                segments.append(resolve(ls[i + 1], against: p.url))
            }
            guard let first = segments.first else { return .failure(Failure(code: 412, reason: "HLS: \(p.url) lists no segment")) }
            switch await MediaFetcher.fetch(first, timeout: timeout + timeout + timeout, keep: 376) {
            case .failure(let e): return .failure(Failure(code: 315, reason: "HLS: segment \(first): \(e.reason)"))
            case .success(let f):
                guard (200..<300).contains(f.status), MediaFetcher.allowsOrigin(f.allowOrigin) else {
                    return .failure(Failure(code: 315, reason: "HLS: segment \(first) answered \(f.status) \(f.allowOrigin == nil ? "without CORS" : "")"))
                }
                let isTS = f.body.first == 0x47 && (f.body.count < 189 || f.body[188] == 0x47)
                let isMP4 = f.body.count >= 8 && ["ftyp", "styp", "moof"].contains(String(decoding: f.body[4..<8], as: UTF8.self))
                let isPackedAudio = f.body.starts(with: Array("ID3".utf8))
                guard isTS || isMP4 || isPackedAudio else { return .failure(Failure(code: 316, reason: "HLS: segment \(first) is not MPEG-TS or fMP4")) }
            }
            if p.isVariant, duration == nil { duration = total }
        }
        return .success(duration ?? 0)
    }

    /// Why the model does not decode `codec` (an RFC 6381 string), or nil when it does.
    static func refusal(codec: String, model: String, avReceiver: Bool = false) -> String? {
        let m = model.lowercased()
        let fourK = m.contains("ultra") || m.contains("google tv")
        let av1 = m.contains("google tv streamer")
        let family = codec.split(separator: ".").first.map { $0.lowercased() } ?? ""
        switch family {
        case "avc1", "avc3":
            // avc1.PPCCLL: level above 4.1 (4.2 on Ultra, 5.1 with Google TV) is refused.
            let hex = codec.split(separator: ".").dropFirst().first.map(String.init) ?? ""
            if hex.count == 6, let level = Int(hex.suffix(2), radix: 16) {
                let max = m.contains("google tv") ? 51 : m.contains("ultra") ? 42 : 41
                if level > max { return "H.264 level \(Double(level) / 10) is above what \(model) decodes" }
            }
            return nil
        case "hvc1", "hev1": return fourK ? nil : "\(model) has no HEVC decoder"
        case "vp09": return fourK ? nil : "\(model) has no VP9 decoder"
        case "vp8", "vp08": return nil
        case "av01": return av1 ? nil : "\(model) has no AV1 decoder"
        case "mp4a", "opus", "flac", "vorbis", "mp3": return nil
        case "ac-3", "ec-3": return avReceiver ? nil : "\(model) only passes AC-3/E-AC-3 through to an AV receiver, and none is connected"
        default: return "\(model) does not know the codec"
        }
    }

    /// `KEY=VALUE,KEY="quoted, value"` attribute lists.
    static func attributes(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        var key = "", value = "", inKey = true, quoted = false
        func flush() {
            if !key.isEmpty { out[key.trimmingCharacters(in: .whitespaces)] = value }
            key = ""
            value = ""
            inKey = true
        }
        for ch in text {
            if inKey {
                if ch == "=" { inKey = false } else if ch == "," { flush() } else { key.append(ch) }
            } else if ch == "\"" {
                quoted.toggle()
            } else if ch == ",", !quoted {
                flush()
            } else {
                value.append(ch)
            }
        }
        flush()
        return out
    }

    static func resolve(_ ref: String, against base: String) -> String {
        URL(string: ref, relativeTo: URL(string: base))?.absoluteString ?? ref
    }

    /// The whole body of a small text resource fetched with CORS, or nil.
    static func text(_ url: String, timeout: TimeAmount) async -> String? {
        guard case .success(let f) = await MediaFetcher.fetch(url, timeout: timeout, keep: 4 << 20),
            (200..<300).contains(f.status), MediaFetcher.allowsOrigin(f.allowOrigin)
        else { return nil }
        return String(decoding: f.body, as: UTF8.self)
    }
}
