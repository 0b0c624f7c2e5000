// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import CastProtocol
import Foundation
import NIOCore
import NIOHTTP1

/// Checks, before a LOAD of remote URLs, that the servers send the CORS headers a Cast
/// device needs (Google: media with text tracks, the tracks themselves, and HLS/DASH
/// must allow cross-origin reads). It only warns: the load goes ahead either way.
public enum CORSCheck {
    /// The origin the Default Media Receiver's page runs under.
    public static let receiverOrigin = "https://www.gstatic.com"

    /// One sentence per problem, naming the server and what is missing. The servers are
    /// asked at once, each for at most `timeout`, so a cast is delayed by one timeout at most.
    public static func warnings(for media: MediaInformation, client: HTTPClient = .shared, timeout: TimeAmount = .seconds(3)) async -> [String] {
        let textTracks = (media.tracks ?? []).filter { $0.type == .text }.compactMap(\.trackContentId).filter(isRemote)
        let adaptive = isAdaptive(media)
        var targets: [(url: String, isMedia: Bool)] = []
        if adaptive || !textTracks.isEmpty, isRemote(media.contentId) { targets.append((media.contentId, true)) }
        targets += textTracks.map { ($0, false) }
        let problems = await withTaskGroup(of: (Int, String?).self) { group in
            for (i, t) in targets.enumerated() {
                group.addTask { (i, await check(t.url, client: client, timeout: timeout)) }
            }
            var found = [String?](repeating: nil, count: targets.count)
            for await (i, p) in group { found[i] = p }
            return found
        }
        var out: [String] = []
        for (t, problem) in zip(targets, problems) {
            guard let problem else { continue }
            let host = URL(string: t.url)?.host ?? t.url
            if t.isMedia {
                out.append("The media from \(host) \(adaptive ? "will not play" : "will play without subtitles"): that server \(problem).")
            } else {
                out.append("Subtitles from \(host) will not show: that server \(problem).")
            }
        }
        return out
    }

    static func isRemote(_ url: String) -> Bool {
        let scheme = URL(string: url)?.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }

    static func isAdaptive(_ media: MediaInformation) -> Bool {
        let type = (media.contentType ?? "").lowercased()
        let path = (URL(string: media.contentId)?.path ?? "").lowercased()
        return type.contains("mpegurl") || type.contains("dash") || path.hasSuffix(".m3u8") || path.hasSuffix(".mpd")
    }

    /// nil when the answer carries a usable `Access-Control-Allow-Origin`, else what is wrong.
    static func check(_ url: String, client: HTTPClient, timeout: TimeAmount) async -> String? {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "Origin", value: receiverOrigin)
        request.headers.add(name: "Range", value: "bytes=0-0")
        do {
            let response = try await client.execute(request, timeout: timeout)
            // Only the headers matter; do not download the body.
            _ = try? await response.body.collect(upTo: 64 << 10)
            guard (200..<400).contains(response.status.code) else { return "answered \(response.status.code) \(response.status.reasonPhrase)" }
            let allow = response.headers.first(name: "Access-Control-Allow-Origin")?.trimmingCharacters(in: .whitespaces)
            guard let allow else { return "sends no Access-Control-Allow-Origin header" }
            guard allow == "*" || allow == receiverOrigin else { return "allows only the origin \(allow), not the Cast receiver's" }
            return nil
        } catch {
            return "could not be reached to check its CORS headers"
        }
    }
}
