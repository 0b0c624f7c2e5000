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
    // MARK: Housekeeping

    func removeEntry(_ key: String) {
        Self.deleteEntry(key, index: index, originals: originalsDirectory, variants: variantsDirectory)
        memory.removeAll(forKey: key)
    }

    static func deleteEntry(_ key: String, index: CacheIndex, originals: String, variants: String) {
        if let entry = index.entries[key] {
            for box in entry.variants.keys { FileIO.remove(variants + "/" + variantName(key, box)) }
        }
        FileIO.remove(originals + "/" + key)
        index.remove(key)
    }

    /// Removes least recently used entries until the disk bound holds. The entry just written is
    /// kept even if it alone is over the bound, so the caller still gets its image.
    func evictIfNeeded(protecting protected: String?) {
        guard index.totalBytes > maxDiskBytes else { return }
        for key in index.keysByAge() {
            if index.totalBytes <= maxDiskBytes { break }
            if key == protected || downloads[key] != nil { continue }
            removeEntry(key)
            counters.evictions += 1
        }
    }

    /// Files in originals/ and variants/ the index does not list: left by a crash between the
    /// rename and the journal write, or by an index that was lost. They are never served.
    static func removeOrphans(index: CacheIndex, originals: String, variants: String) {
        for name in FileIO.list(originals) where index.entries[name] == nil {
            FileIO.remove(originals + "/" + name)
        }
        for name in FileIO.list(variants) {
            if let (key, box) = parseVariantName(name), index.entries[key]?.variants[box] != nil { continue }
            FileIO.remove(variants + "/" + name)
        }
    }

    /// Half-written files from processes that died; recent files of a live process (another
    /// CastDeck sharing the cache) are left alone.
    static func removeAbandonedTemporaryFiles(in directory: String) {
        let me = getpid()
        let hourAgo = Int(ImageCacheConfiguration.systemNow()) - 3600
        for name in FileIO.list(directory) {
            if let pid = name.split(separator: "-").first.flatMap({ Int32($0) }), pid != me, kill(pid, 0) == 0,
                let modified = FileIO.modificationTime(directory + "/" + name), modified > hourAgo
            {
                continue
            }
            FileIO.remove(directory + "/" + name)
        }
    }

    func originalPath(_ key: String) -> String { originalsDirectory + "/" + key }
}
