// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import CastProtocol
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

extension ImageCache {
    // MARK: Variants

    func variant(url: String, key: String, box: PixelSize) async throws -> CachedImage {
        let vkey = VariantKey(key: key, box: box)
        if let running = variantTasks[vkey] { return try await running.value }
        let task = Task { try await self.makeVariant(url: url, key: key, box: box, allowRefetch: true) }
        variantTasks[vkey] = task
        let result = await task.result
        if variantTasks[vkey] == task { variantTasks[vkey] = nil }
        return try result.get()
    }

    enum DecodeOutcome: Sendable {
        case scaled(PixbufDecoder.Scaled)
        case corruptOriginal
        case tooManyPixels(width: Int, height: Int)
        case undecodable(String)
    }

    func makeVariant(url: String, key: String, box: PixelSize, allowRefetch: Bool) async throws -> CachedImage {
        guard let entry = index.entries[key] else {
            if allowRefetch {
                try await ensureOriginal(url: url, key: key, ignoreBackoff: false)
                return try await makeVariant(url: url, key: key, box: box, allowRefetch: false)
            }
            throw ImageCacheError.downloadFailed(url: url, reason: "the cached copy was removed while it was decoded; try again")
        }
        let path = originalPath(key)
        let maxPixels = configuration.maxDecodedPixels
        let expectedBytes = entry.bytes
        let expectedChecksum = entry.checksum
        let outcome: DecodeOutcome = await Task.detached {
            guard let bytes = FileIO.read(path), bytes.count == expectedBytes,
                Checksum.sha256Hex(bytes) == expectedChecksum
            else { return .corruptOriginal }
            do throws(PixbufDecoder.Failure) {
                return .scaled(try PixbufDecoder.scaledPNG(path: path, box: box, maxPixels: maxPixels))
            } catch {
                switch error {
                case .tooManyPixels(let w, let h): return .tooManyPixels(width: w, height: h)
                case .undecodable(let reason): return .undecodable(reason)
                }
            }
        }.value

        let scaled: PixbufDecoder.Scaled
        switch outcome {
        case .scaled(let s):
            scaled = s
        case .corruptOriginal:
            counters.corrupt += 1
            removeEntry(key)
            guard allowRefetch else {
                throw ImageCacheError.undecodable(url: url, reason: "the downloaded file was damaged twice")
            }
            try await ensureOriginal(url: url, key: key, ignoreBackoff: true)
            return try await makeVariant(url: url, key: key, box: box, allowRefetch: false)
        case .tooManyPixels(let w, let h):
            removeEntry(key)
            throw ImageCacheError.tooManyPixels(url: url, width: w, height: h, limitPixels: maxPixels)
        case .undecodable(let reason):
            counters.corrupt += 1
            removeEntry(key)
            throw ImageCacheError.undecodable(url: url, reason: reason)
        }

        // The original may have been replaced or evicted while decoding ran off the actor.
        guard index.entries[key]?.checksum == expectedChecksum else {
            if allowRefetch { return try await makeVariant(url: url, key: key, box: box, allowRefetch: false) }
            throw ImageCacheError.downloadFailed(url: url, reason: "the image changed while it was decoded; try again")
        }
        let target = variantPath(key, box)
        do {
            try FileIO.writeAtomically(scaled.png, to: target, tmpDirectory: tmpDirectory)
        } catch {
            throw ImageCacheError.storage(path: configuration.directory, reason: String(describing: error))
        }
        index.addVariant(
            key: key,
            VariantRecord(
                box: box, width: scaled.width, height: scaled.height,
                bytes: scaled.png.count, checksum: Checksum.sha256Hex(scaled.png)))
        index.touch(key)
        counters.variantsMade += 1
        evictIfNeeded(protecting: key)
        let image = CachedImage(sourceURL: url, path: target, width: scaled.width, height: scaled.height, png: scaled.png)
        memory.put(VariantKey(key: key, box: box), image)
        return image
    }

    /// A variant from disk, after checking its size and SHA-256 against the index; a damaged file
    /// is removed (and made again by the caller).
    func readVariant(url: String, key: String, box: PixelSize) -> CachedImage? {
        guard let record = index.entries[key]?.variants[box] else { return nil }
        let path = variantPath(key, box)
        guard let bytes = FileIO.read(path), bytes.count == record.bytes,
            Checksum.sha256Hex(bytes) == record.checksum
        else {
            counters.corrupt += 1
            FileIO.remove(path)
            index.removeVariant(key: key, box: box)
            memory.remove(VariantKey(key: key, box: box))
            return nil
        }
        return CachedImage(sourceURL: url, path: path, width: record.width, height: record.height, png: bytes)
    }

    func variantPath(_ key: String, _ box: PixelSize) -> String {
        variantsDirectory + "/" + Self.variantName(key, box)
    }

    static func variantName(_ key: String, _ box: PixelSize) -> String {
        "\(key)-\(box.width)x\(box.height).png"
    }

    static func parseVariantName(_ name: String) -> (String, PixelSize)? {
        guard name.hasSuffix(".png") else { return nil }
        let parts = name.dropLast(4).split(separator: "-")
        guard parts.count == 2, CacheIndex.isKey(String(parts[0])) else { return nil }
        let dims = parts[1].split(separator: "x")
        guard dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]) else { return nil }
        return (String(parts[0]), PixelSize(width: w, height: h))
    }

    static func clamp(_ box: PixelSize) -> PixelSize {
        PixelSize(width: min(max(box.width, 1), 8192), height: min(max(box.height, 1), 8192))
    }
}
