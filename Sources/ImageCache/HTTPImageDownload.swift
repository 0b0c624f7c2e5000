// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One download of an artwork URL into a temporary file, with every safety check that can be made
/// before the bytes are kept: status, image content type, Content-Length against the cap, the cap
/// again while streaming (a server may lie or send no length), and a SHA-256 of what arrived.
enum HTTPImageDownload {
    struct Body: @unchecked Sendable {
        /// Not yet visible under a cache name; the cache commits (fsync + rename) or discards it.
        var file: TempFile
        var bytes: Int
        var checksum: String
        var contentType: String
        var headers: HTTPHeaders
    }

    enum Outcome: @unchecked Sendable {
        case notModified(HTTPHeaders)
        case fetched(Body)
    }

    static func run(
        http: HTTPClient, url: String, etag: String?, lastModified: String?, maxBytes: Int,
        maxRedirects: Int, timeout: Duration, tmpDirectory: String
    ) async throws -> Outcome {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "Accept", value: "image/*")
        request.headers.add(name: "User-Agent", value: "CastDeck-ImageCache/1")
        if let etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }

        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
        } catch let error as HTTPClientError where error == .redirectLimitReached || error == .redirectCycleDetected {
            throw ImageCacheError.tooManyRedirects(url: url, limit: maxRedirects)
        } catch {
            throw ImageCacheError.downloadFailed(url: url, reason: describe(error))
        }

        if response.status == .notModified && (etag != nil || lastModified != nil) {
            return .notModified(response.headers)
        }
        guard response.status == .ok else {
            throw ImageCacheError.httpStatus(url: url, status: Int(response.status.code))
        }
        let contentType = response.headers.first(name: "content-type")
        guard let contentType, contentType.lowercased().hasPrefix("image/") else {
            throw ImageCacheError.notAnImage(url: url, contentType: contentType)
        }
        if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > maxBytes {
            throw ImageCacheError.tooLarge(url: url, limitBytes: maxBytes)
        }

        let file: TempFile
        do {
            file = try TempFile(directory: tmpDirectory)
        } catch {
            throw ImageCacheError.storage(path: tmpDirectory, reason: String(describing: error))
        }
        let checksum = StreamingChecksum()
        var total = 0
        do {
            for try await buffer in response.body {
                total += buffer.readableBytes
                if total > maxBytes { throw ImageCacheError.tooLarge(url: url, limitBytes: maxBytes) }
                try buffer.withUnsafeReadableBytes { raw in
                    checksum.update(raw)
                    try file.write(raw)
                }
            }
        } catch let error as ImageCacheError {
            file.discard()
            throw error
        } catch let error as FileIO.Failure {
            file.discard()
            throw ImageCacheError.storage(path: tmpDirectory, reason: error.description)
        } catch {
            file.discard()
            throw ImageCacheError.downloadFailed(url: url, reason: describe(error))
        }
        return .fetched(
            Body(
                file: file, bytes: total, checksum: checksum.finish(), contentType: contentType,
                headers: response.headers))
    }

    /// A short reason for a network failure, fit for the error message.
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded: return "it took too long"
            case .connectTimeout: return "the server did not accept the connection in time"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: return "\(error)"
            }
        }
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("Connection refused") {
            return "the server refused the connection"
        }
        return text
    }
}
