// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// Why an image could not be provided. The UI shows a placeholder for every case; the message says
/// what happened in words a person can act on.
public enum ImageCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is not an absolute http or https URL.
    case unsupportedURL(String)
    /// The server answered with a status other than 200 (or 304 to a revalidation).
    case httpStatus(url: String, status: Int)
    /// The server did not send an image content type (`image/...`).
    case notAnImage(url: String, contentType: String?)
    /// The body is larger than the per-image cap (by Content-Length, or while streaming).
    case tooLarge(url: String, limitBytes: Int)
    /// The image's pixel dimensions exceed the decode cap (checked from the header, before decoding).
    case tooManyPixels(url: String, width: Int, height: Int, limitPixels: Int)
    /// The bytes could not be decoded as an image.
    case undecodable(url: String, reason: String)
    /// More redirects than allowed, or a redirect loop.
    case tooManyRedirects(url: String, limit: Int)
    /// The download failed (connection refused, timeout, too many redirects, ...).
    case downloadFailed(url: String, reason: String)
    /// An earlier download failed and the cache is waiting before the next attempt; the image is
    /// retried in the background and announced on `ImageCache.availability` when it arrives.
    case temporarilyUnavailable(url: String, reason: String, retryInSeconds: Double)
    /// The cache directory could not be created or written.
    case storage(path: String, reason: String)
    /// The cache has been shut down.
    case shutDown

    public var description: String {
        switch self {
        case .unsupportedURL(let url):
            return "The artwork address \"\(url)\" is not an http or https URL."
        case .httpStatus(let url, let status):
            return "The server answered HTTP \(status) for the artwork at \(url)."
        case .notAnImage(let url, let type):
            return "The artwork at \(url) is not an image (content type \(type ?? "missing"))."
        case .tooLarge(let url, let limit):
            return "The artwork at \(url) is larger than the \(limit / 1_000_000) MB limit for one image."
        case .tooManyPixels(let url, let w, let h, let limit):
            return "The artwork at \(url) is \(w)×\(h) pixels, more than the \(limit / 1_000_000) megapixel limit."
        case .undecodable(let url, let reason):
            return "The artwork at \(url) could not be decoded: \(reason)."
        case .tooManyRedirects(let url, let limit):
            return "The artwork at \(url) redirects more than \(limit) times or in a loop."
        case .downloadFailed(let url, let reason):
            return "The artwork at \(url) could not be downloaded: \(reason)."
        case .temporarilyUnavailable(let url, let reason, let retry):
            return "The artwork at \(url) is unavailable (\(reason)); retrying in \(Int(retry.rounded(.up))) s."
        case .storage(let path, let reason):
            return "The image cache at \(path) cannot be used: \(reason)."
        case .shutDown:
            return "The image cache has been shut down."
        }
    }

    /// Whether a later attempt may succeed (network trouble, server errors), as opposed to a
    /// verdict about the image itself (not an image, too large, 404).
    var isTransient: Bool {
        switch self {
        case .downloadFailed: return true
        case .httpStatus(_, let status): return status >= 500 || status == 408 || status == 429
        default: return false
        }
    }
}
