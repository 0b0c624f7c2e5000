// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

struct VariantKey: Hashable {
    var key: String
    var box: PixelSize
}

/// The in-memory layer: PNG bytes of recently used variants, bounded in bytes, LRU.
struct MemoryLayer {
    let limit: Int
    private(set) var bytes = 0
    private var items: [VariantKey: (image: CachedImage, tick: UInt64)] = [:]
    private var tick: UInt64 = 0

    init(limit: Int) { self.limit = limit }

    mutating func get(_ key: VariantKey) -> CachedImage? {
        guard let item = items[key] else { return nil }
        tick += 1
        items[key]?.tick = tick
        return item.image
    }

    mutating func put(_ key: VariantKey, _ image: CachedImage) {
        guard image.png.count <= limit else { return }
        remove(key)
        tick += 1
        items[key] = (image, tick)
        bytes += image.png.count
        while bytes > limit, let oldest = items.min(by: { $0.value.tick < $1.value.tick })?.key {
            remove(oldest)
        }
    }

    mutating func remove(_ key: VariantKey) {
        if let old = items.removeValue(forKey: key) { bytes -= old.image.png.count }
    }

    mutating func removeAll(forKey key: String) {
        for k in items.keys where k.key == key { remove(k) }
    }

    mutating func removeAll() {
        items = [:]
        bytes = 0
    }
}
