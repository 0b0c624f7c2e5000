// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import CastProtocol
import Foundation
import NIOCore

/// Whether an HLS link is a live stream, so it is LOADed as LIVE rather than BUFFERED (a
/// receiver plays a live playlist as VOD badly: no live edge, a duration that keeps growing).
/// An HLS media playlist without `#EXT-X-ENDLIST` is live (RFC 8216 §4.3.3.4: more segments
/// will be added); a master playlist is judged by its first variant.
public enum HLSLiveCheck {
    /// The stream type for `media`: LIVE for an HLS playlist that is live, else what it has.
    /// Asks the server only for HLS links; an unreachable or unreadable one keeps `media` as it is.
    public static func streamType(for media: MediaInformation, client: HTTPClient = .shared, timeout: TimeAmount = .seconds(3)) async -> StreamType? {
        guard media.streamType != .live, CORSCheck.isRemote(media.contentId), isHLS(media) else { return media.streamType }
        return await isLive(media.contentId, client: client, timeout: timeout) == true ? .live : media.streamType
    }

    static func isHLS(_ media: MediaInformation) -> Bool {
        let type = (media.contentType ?? "").lowercased()
        return type.contains("mpegurl") || (URL(string: media.contentId)?.path ?? "").lowercased().hasSuffix(".m3u8")
    }

    /// true for a live playlist, false for VOD, nil when it cannot be read.
    public static func isLive(_ url: String, client: HTTPClient = .shared, timeout: TimeAmount = .seconds(3)) async -> Bool? {
        guard let body = await text(url, client: client, timeout: timeout) else { return nil }
        if let verdict = judge(body) { return verdict }
        guard let variant = firstVariant(body, base: url), let media = await text(variant, client: client, timeout: timeout) else { return nil }
        return judge(media)
    }

    /// A media playlist's verdict (live: no ENDLIST); nil for a master playlist or not HLS.
    static func judge(_ playlist: String) -> Bool? {
        let lines = playlist.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "#EXTM3U", lines.contains(where: { $0.hasPrefix("#EXTINF") || $0.hasPrefix("#EXT-X-TARGETDURATION") }) else { return nil }
        return !lines.contains("#EXT-X-ENDLIST") && !lines.contains("#EXT-X-PLAYLIST-TYPE:VOD")
    }

    /// The URL of a master playlist's first variant.
    static func firstVariant(_ playlist: String, base: String) -> String? {
        let lines = playlist.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let i = lines.firstIndex(where: { $0.hasPrefix("#EXT-X-STREAM-INF") }), i + 1 < lines.count, !lines[i + 1].hasPrefix("#") else { return nil }
        return URL(string: lines[i + 1], relativeTo: URL(string: base))?.absoluteString
    }

    static func text(_ url: String, client: HTTPClient, timeout: TimeAmount) async -> String? {
        do {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: timeout)
            guard (200..<300).contains(response.status.code) else { return nil }
            return String(buffer: try await response.body.collect(upTo: 1 << 20))
        } catch {
            return nil
        }
    }
}
