// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import CastCore
import CastProtocol
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

extension ImageCache {
    // MARK: Originals

    func ensureOriginal(url: String, key: String, ignoreBackoff: Bool) async throws {
        if let running = downloads[key] {
            do {
                try await running.value
            } catch let error as ImageCacheError {
                if index.entries[key] != nil && error.isTransient { return }  // stale copy
                throw error
            }
            return
        }
        let now = configuration.now()
        let entry = index.entries[key]
        if let entry, entry.expiresAt > now { return }
        if !ignoreBackoff, let failure = failures[key], failure.nextAttempt > now {
            if entry != nil { return }  // server unreachable: keep showing the stale copy
            throw ImageCacheError.temporarilyUnavailable(
                url: url, reason: failure.error.description, retryInSeconds: failure.nextAttempt - now)
        }
        let task = Task { try await self.fetchOriginal(url: url, key: key) }
        downloads[key] = task
        let result = await task.result
        if downloads[key] == task { downloads[key] = nil }
        switch result {
        case .success:
            failures[key] = nil
        case .failure(let error):
            let typed = error as? ImageCacheError ?? .downloadFailed(url: url, reason: String(describing: error))
            recordFailure(url: url, key: key, typed)
            if index.entries[key] != nil && typed.isTransient { return }
            throw typed
        }
    }

    func fetchOriginal(url: String, key: String) async throws {
        var validators = index.entries[key]
        // Send validators only for a complete file; a damaged one must come back in full.
        if let entry = validators, FileIO.size(originalPath(key)) != entry.bytes { validators = nil }
        if validators != nil { counters.revalidations += 1 }
        let outcome = try await HTTPImageDownload.run(
            http: http, url: url, etag: validators?.etag, lastModified: validators?.lastModified,
            maxBytes: configuration.maxImageBytes, maxRedirects: configuration.maxRedirects,
            timeout: configuration.requestTimeout, tmpDirectory: tmpDirectory)
        let now = configuration.now()
        switch outcome {
        case .notModified(let headers):
            guard let entry = index.entries[key], validators != nil else {
                throw ImageCacheError.downloadFailed(url: url, reason: "the server answered 304 to an unconditional request")
            }
            counters.notModified += 1
            index.refresh(
                key: key, fetchedAt: now,
                expiresAt: Self.expiry(headers: headers, now: now, fallback: configuration.defaultFreshness),
                etag: headers.etag ?? entry.etag, lastModified: headers.lastModified ?? entry.lastModified)
        case .fetched(let body):
            counters.downloads += 1
            // Refuse what gdk-pixbuf cannot read or what is too large to decode, before storing it.
            guard let size = PixbufDecoder.headerSize(path: body.file.path) else {
                body.file.discard()
                throw ImageCacheError.undecodable(url: url, reason: "not an image format gdk-pixbuf can read")
            }
            let pixels = size.width.multipliedReportingOverflow(by: size.height)
            if pixels.overflow || pixels.partialValue > configuration.maxDecodedPixels {
                body.file.discard()
                removeEntry(key)
                throw ImageCacheError.tooManyPixels(
                    url: url, width: size.width, height: size.height,
                    limitPixels: configuration.maxDecodedPixels)
            }
            removeEntry(key)
            do {
                try body.file.commit(to: originalPath(key))
            } catch {
                throw ImageCacheError.storage(path: configuration.directory, reason: String(describing: error))
            }
            index.put(
                EntryRecord(
                    key: key, tick: index.nextTick(), bytes: body.bytes, checksum: body.checksum, fetchedAt: now,
                    expiresAt: Self.expiry(headers: body.headers, now: now, fallback: configuration.defaultFreshness),
                    etag: body.headers.etag, lastModified: body.headers.lastModified, contentType: body.contentType))
            evictIfNeeded(protecting: key)
        }
    }

    func recordFailure(url: String, key: String, _ error: ImageCacheError) {
        var state = failures[key] ?? FailureState(attempts: 0, nextAttempt: 0, error: error)
        state.attempts += 1
        state.error = error
        let delay = min(configuration.retryBaseDelay * Double(1 << min(state.attempts - 1, 20)), configuration.retryMaxDelay)
        state.nextAttempt = configuration.now() + delay
        failures[key] = state
        guard error.isTransient, state.attempts <= configuration.maxRetries, retryTasks[key] == nil, !closed else { return }
        retryTasks[key] = Task {
            try? await Task.sleep(for: .seconds(delay))
            await self.retry(url: url, key: key)
        }
    }

    func retry(url: String, key: String) async {
        retryTasks[key] = nil
        guard !closed, !Task.isCancelled else { return }
        do {
            try await ensureOriginal(url: url, key: key, ignoreBackoff: true)
            if failures[key] == nil { availabilityContinuation.yield(url) }
        } catch {
            // recordFailure has scheduled the next attempt, if any are left.
        }
    }

    /// Until when a response stays fresh: Cache-Control max-age (minus Age), immediately stale for
    /// no-cache / no-store, else `fallback` seconds.
    static func expiry(headers: HTTPHeaders, now: Double, fallback: Double) -> Double {
        let directives = headers["cache-control"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingWhitespace().lowercased() }
        if directives.contains(where: { $0 == "no-cache" || $0 == "no-store" }) { return now }
        if let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }).flatMap({ Double($0.dropFirst(8)) }) {
            let age = headers.first(name: "age").flatMap(Double.init) ?? 0
            return now + max(0, maxAge - age)
        }
        return now + fallback
    }
}
