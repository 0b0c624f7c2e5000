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
///
/// Never ask this of a media server of this computer (CastDeck's or castctl's): it answers
/// only the device it shares with, 403 to everyone else, so the answer says nothing about
/// what the device gets. Callers leave those URLs out with `skipping`.
public enum CORSCheck {
    /// The origin the Default Media Receiver's page runs under.
    public static let receiverOrigin = "https://www.gstatic.com"

    /// What is wrong with one server's answer.
    public enum Reason: Sendable, Equatable {
        /// An HTTP status outside 200–399 (code, reason phrase).
        case status(Int, String)
        case noAllowOrigin
        /// `Access-Control-Allow-Origin` names another origin.
        case otherOrigin(String)
        /// No answer (name, connection or timeout).
        case unreachable
        /// HLS or DASH media whose server refuses, in a CORS preflight, the `Range` header the
        /// receiver's player sends with each segment request (what the preflight answered).
        case rangeRefused(String)

        /// English, for castctl and for the window's Details: "answered 403 Forbidden".
        public var description: String {
            switch self {
            case .status(let code, let phrase): "answered \(code) \(phrase)"
            case .noAllowOrigin: "sends no Access-Control-Allow-Origin header"
            case .otherOrigin(let origin): "allows only the origin \(origin), not the Cast receiver's"
            case .unreachable: "could not be reached to check its CORS headers"
            case .rangeRefused(let answer): "does not let a Cast device send the Range header (its CORS preflight \(answer))"
            }
        }
    }

    /// One URL the device will not be allowed to read.
    public struct Problem: Sendable, Equatable {
        public var url: String
        /// The URL's host, as the sentence names the server.
        public var host: String
        /// The media itself (else a text track).
        public var isMedia: Bool
        /// HLS or DASH: without CORS the media does not play at all (else only its subtitles are lost).
        public var isAdaptive: Bool
        public var reason: Reason

        /// One English sentence (castctl prints it as a warning).
        public var sentence: String {
            if isMedia { return "The media from \(host) \(isAdaptive ? "will not play" : "will play without subtitles"): that server \(reason.description)." }
            return "Subtitles from \(host) will not show: that server \(reason.description)."
        }

        /// The technical text for Details: which URL, asked how, answered what.
        public var detail: String {
            if case .rangeRefused = reason {
                return "OPTIONS \(url) with Origin: \(CORSCheck.receiverOrigin), Access-Control-Request-Headers: range: \(reason.description)"
            }
            return "GET \(url) with Origin: \(CORSCheck.receiverOrigin): \(reason.description)"
        }
    }

    /// One sentence per problem, naming the server and what is missing (castctl's warnings).
    public static func warnings(for media: MediaInformation, client: HTTPClient = .shared, timeout: TimeAmount = .seconds(3)) async -> [String] {
        await problems(for: media, client: client, timeout: timeout).map(\.sentence)
    }

    /// The problems, one per URL the device could not read. The servers are asked at once,
    /// each for at most `timeout`, so a cast is delayed by one timeout at most. URLs for which
    /// `skipping` is true are not asked (this computer's own media server).
    public static func problems(
        for media: MediaInformation, client: HTTPClient = .shared, timeout: TimeAmount = .seconds(3),
        skipping: @Sendable (String) -> Bool = { _ in false }
    ) async -> [Problem] {
        let textTracks = (media.tracks ?? []).filter { $0.type == .text }.compactMap(\.trackContentId).filter(isRemote)
        let adaptive = isAdaptive(media)
        var targets: [(url: String, isMedia: Bool)] = []
        if adaptive || !textTracks.isEmpty, isRemote(media.contentId) { targets.append((media.contentId, true)) }
        targets += textTracks.map { ($0, false) }
        targets.removeAll { skipping($0.url) }
        let reasons = await withTaskGroup(of: (Int, Reason?).self) { group in
            for (i, t) in targets.enumerated() {
                // Segments of HLS and DASH are read with Range requests from script, which a
                // browser preflights; a plain file in <video> and a text track are not.
                let preflight = t.isMedia && adaptive
                group.addTask { (i, await check(t.url, preflight: preflight, client: client, timeout: timeout)) }
            }
            var found = [Reason?](repeating: nil, count: targets.count)
            for await (i, r) in group { found[i] = r }
            return found
        }
        return zip(targets, reasons).compactMap { t, reason in
            guard let reason else { return nil }
            return Problem(url: t.url, host: URL(string: t.url)?.host ?? t.url, isMedia: t.isMedia, isAdaptive: adaptive, reason: reason)
        }
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

    /// nil when the answer carries a usable `Access-Control-Allow-Origin` (and, with
    /// `preflight`, the server's preflight allows the Range header), else what is wrong.
    static func check(_ url: String, preflight: Bool = false, client: HTTPClient, timeout: TimeAmount) async -> Reason? {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "Origin", value: receiverOrigin)
        request.headers.add(name: "Range", value: "bytes=0-0")
        do {
            let response = try await client.execute(request, timeout: timeout)
            // Only the headers matter; do not download the body.
            _ = try? await response.body.collect(upTo: 64 << 10)
            guard (200..<400).contains(response.status.code) else { return .status(Int(response.status.code), response.status.reasonPhrase) }
            let allow = response.headers.first(name: "Access-Control-Allow-Origin")?.trimmingCharacters(in: .whitespaces)
            guard let allow else { return .noAllowOrigin }
            guard allow == "*" || allow == receiverOrigin else { return .otherOrigin(allow) }
            return preflight ? await preflightAllowsRange(url, client: client, timeout: timeout) : nil
        } catch {
            return .unreachable
        }
    }

    /// Asks as a browser does before a cross-origin GET with a Range header: OPTIONS with
    /// Access-Control-Request-Method and -Headers. nil when the answer allows it.
    static func preflightAllowsRange(_ url: String, client: HTTPClient, timeout: TimeAmount) async -> Reason? {
        var request = HTTPClientRequest(url: url)
        request.method = .OPTIONS
        request.headers.add(name: "Origin", value: receiverOrigin)
        request.headers.add(name: "Access-Control-Request-Method", value: "GET")
        request.headers.add(name: "Access-Control-Request-Headers", value: "range")
        do {
            let response = try await client.execute(request, timeout: timeout)
            _ = try? await response.body.collect(upTo: 64 << 10)
            guard (200..<300).contains(response.status.code) else {
                return .rangeRefused("answered \(response.status.code) \(response.status.reasonPhrase)")
            }
            let origin = response.headers.first(name: "Access-Control-Allow-Origin")?.trimmingCharacters(in: .whitespaces)
            guard origin == "*" || origin == receiverOrigin else {
                return .rangeRefused(origin.map { "allows only the origin \($0)" } ?? "sends no Access-Control-Allow-Origin")
            }
            let headers = response.headers[canonicalForm: "Access-Control-Allow-Headers"].map { $0.lowercased() }
            guard headers.contains("range") || headers.contains("*") else {
                return .rangeRefused(headers.isEmpty ? "sends no Access-Control-Allow-Headers" : "allows only \(headers.joined(separator: ", "))")
            }
            return nil
        } catch {
            return .unreachable
        }
    }
}
