// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import CastProtocol
import Foundation
import NIOCore
import NIOHTTP1

/// `--fetch-media`: what a real device does with a LOAD before it plays, reduced to the
/// checks a sender can get wrong. The media is fetched with `Range: bytes=0-` and an
/// `Origin` header (the receiver page is cross-origin to every media server); it must
/// answer 200 or 206 with a type the Default Media Receiver plays. Each text track must
/// answer with CORS and start with `WEBVTT`. Media with text tracks, HLS and DASH must
/// carry CORS too (Google's CORS requirements).
///
/// Failures map to the Web Receiver's `DetailedErrorCode`: 103 MEDIA_NETWORK (not
/// reachable, or an HTTP error status), 104 MEDIA_SRC_NOT_SUPPORTED (a type it cannot
/// play, or CORS missing where it is required), 600 TEXT_UNKNOWN (a text track).
enum MediaFetcher {
    enum Outcome: Sendable, Equatable {
        /// Playable; the duration read from the media when the LOAD had none and it could be read.
        case playable(duration: Double?)
        case failed(detailedErrorCode: Int, reason: String)
    }

    static let origin = "https://www.gstatic.com"
    static let mediaNetwork = 103
    static let mediaSourceNotSupported = 104
    static let textUnknown = 600

    static let playableTypes: Set<String> = [
        "video/mp4", "video/webm", "video/quicktime", "video/mp2t", "audio/mp4", "audio/mpeg", "audio/mp3", "audio/aac", "audio/flac",
        "audio/ogg", "audio/opus", "audio/wav", "audio/x-wav", "audio/wave", "audio/webm", "image/jpeg", "image/png", "image/gif", "image/webp",
        "image/bmp", "application/x-mpegurl", "application/vnd.apple.mpegurl", "audio/mpegurl", "application/dash+xml",
    ]

    /// A device gives up on a server that refuses the connection; the shared client would
    /// retry until the deadline and outlast the sender's LOAD timeout. Lives as long as
    /// the process (never shut down).
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(3)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Each fetch may take `timeout`; keep the sum under a sender's LOAD timeout (10 s).
    static func check(_ media: MediaInformation, model: String = "Chromecast", avReceiver: Bool = false, timeout: TimeAmount = .seconds(3)) async -> Outcome {
        let url = media.contentUrl ?? media.contentId
        let textTracks = (media.tracks ?? []).filter { $0.type == .text }
        let type = (media.contentType ?? "").lowercased()
        let adaptive = type.contains("mpegurl") || type.contains("dash")
        let needsCORS = adaptive || !textTracks.isEmpty
        let head: Fetched
        switch await fetch(url, timeout: timeout, keep: 4096) {
        case .failure(let e): return .failed(detailedErrorCode: mediaNetwork, reason: "media: \(e.reason)")
        case .success(let f): head = f
        }
        guard head.status == 200 || head.status == 206 else {
            return .failed(detailedErrorCode: mediaNetwork, reason: "media: the server answered \(head.status)")
        }
        let served = (head.contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard playableTypes.contains(served) else {
            return .failed(detailedErrorCode: mediaSourceNotSupported, reason: "media: Content-Type “\(served)” is not a type the receiver plays")
        }
        if needsCORS, !allowsOrigin(head.allowOrigin) {
            return .failed(detailedErrorCode: mediaSourceNotSupported, reason: "media: no Access-Control-Allow-Origin, required with text tracks or HLS/DASH")
        }
        var hlsDuration: Double?
        if served.contains("mpegurl") {
            switch await HLSCheck.check(url, model: model, avReceiver: avReceiver, timeout: timeout) {
            case .failure(let f): return .failed(detailedErrorCode: f.code, reason: f.reason)
            case .success(let d): hlsDuration = d
            }
        }
        for track in textTracks {
            guard let trackURL = track.trackContentId else {
                return .failed(detailedErrorCode: textUnknown, reason: "text track \(track.trackId) has no trackContentId")
            }
            switch await fetch(trackURL, timeout: timeout, keep: 16) {
            case .failure(let e): return .failed(detailedErrorCode: textUnknown, reason: "text track \(track.trackId): \(e.reason)")
            case .success(let f):
                guard (200..<300).contains(f.status) else {
                    return .failed(detailedErrorCode: textUnknown, reason: "text track \(track.trackId): the server answered \(f.status)")
                }
                guard allowsOrigin(f.allowOrigin) else {
                    return .failed(detailedErrorCode: textUnknown, reason: "text track \(track.trackId): no Access-Control-Allow-Origin header")
                }
                let body = f.body.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(f.body.dropFirst(3)) : f.body
                guard body.starts(with: Array("WEBVTT".utf8)) else {
                    return .failed(detailedErrorCode: textUnknown, reason: "text track \(track.trackId): the file does not start with WEBVTT")
                }
            }
        }
        var duration: Double?
        if media.duration == nil, !served.hasPrefix("image/"), media.streamType != .live {  // a live stream has no duration to read
            if let hlsDuration { duration = hlsDuration } else { duration = await readDuration(url) }
        }
        return .playable(duration: duration)
    }

    static func allowsOrigin(_ value: String?) -> Bool {
        guard let v = value?.trimmingCharacters(in: .whitespaces) else { return false }
        return v == "*" || v == origin
    }

    struct Fetched: Sendable {
        var status: UInt
        var contentType: String?
        var allowOrigin: String?
        var body: [UInt8]
    }

    struct FetchError: Error { var reason: String }

    /// GET with `Range: bytes=0-` and `Origin`; keeps the first `keep` bytes of the body and
    /// stops reading there (the rest is not downloaded).
    /// A `data:` URL (a chapter or subtitle track that needs no server) is read as a browser
    /// reads it: no request, and no CORS to pass.
    static func fetch(_ url: String, timeout: TimeAmount, keep: Int) async -> Result<Fetched, FetchError> {
        if url.prefix(5).lowercased() == "data:" {
            guard let comma = url.firstIndex(of: ",") else { return .failure(FetchError(reason: "“\(url.prefix(40))…” is not a data: URL")) }
            let header = url[url.index(url.startIndex, offsetBy: 5)..<comma].lowercased()
            let payload = String(url[url.index(after: comma)...]).removingPercentEncoding ?? ""
            let body = header.hasSuffix(";base64") ? Data(base64Encoded: payload).map { Array($0) } : Array(payload.utf8)
            guard let body else { return .failure(FetchError(reason: "its data: URL is not base64")) }
            let type = header.split(separator: ";").first.map(String.init)
            return .success(Fetched(status: 200, contentType: type, allowOrigin: "*", body: Array(body.prefix(keep))))
        }
        guard let scheme = URL(string: url)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .failure(FetchError(reason: "“\(url)” is not an http(s) URL"))
        }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Range", value: "bytes=0-")
        request.headers.add(name: "Origin", value: origin)
        do {
            let response = try await client.execute(request, timeout: timeout)
            var body: [UInt8] = []
            for try await chunk in response.body {
                body += chunk.readableBytesView.prefix(keep - body.count)
                if body.count >= keep { break }
            }
            return .success(
                Fetched(
                    status: response.status.code, contentType: response.headers.first(name: "Content-Type"),
                    allowOrigin: response.headers.first(name: "Access-Control-Allow-Origin"), body: body))
        } catch {
            return .failure(FetchError(reason: "cannot fetch \(url) (\(error))"))
        }
    }

    /// The duration as ffprobe reads it from the URL (a real demuxer reading the real
    /// bytes); nil when ffprobe is not installed or cannot tell.
    static func readDuration(_ url: String) async -> Double? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Double?, Never>) in
            DispatchQueue.global().async {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                p.arguments = ["ffprobe", "-v", "error", "-rw_timeout", "3000000", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", url]
                let out = Pipe()
                p.standardOutput = out
                p.standardError = FileHandle.nullDevice
                p.standardInput = FileHandle.nullDevice
                guard (try? p.run()) != nil else { return continuation.resume(returning: nil) }
                let data = out.fileHandleForReading.readDataToEndOfFile()
                p.waitUntilExit()
                let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                continuation.resume(returning: p.terminationStatus == 0 ? Double(text).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } : nil)
            }
        }
    }
}
