// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

extension ImageCache {
    /// Benchmark support: fills `directory` with `count` synthetic entries (an original and one
    /// variant each, using the given bytes) and a compacted index, without any network. The URLs
    /// are `https://bench.invalid/<i>.png`. Files are not fsynced: this only prepares a cache to
    /// measure how long opening it takes.
    @_spi(Benchmark)
    public static func seedSyntheticEntries(
        directory: String, count: Int, original: [UInt8], variant: [UInt8],
        variantSize: PixelSize
    ) throws {
        try FileIO.makeDirectories(directory)
        for sub in ["originals", "variants", "tmp"] { try FileIO.makeDirectory(directory + "/" + sub) }
        let index = try CacheIndex(directory: directory, tmpDirectory: directory + "/tmp")
        defer { index.close() }
        let originalChecksum = Checksum.sha256Hex(original)
        let variantChecksum = Checksum.sha256Hex(variant)
        for i in 0..<count {
            let key = Checksum.sha256Hex("https://bench.invalid/\(i).png")
            let tmp = directory + "/tmp"
            try write(original, to: directory + "/originals/" + key, tmp: tmp)
            try write(variant, to: directory + "/variants/\(key)-\(variantSize.width)x\(variantSize.height).png", tmp: tmp)
            index.put(
                EntryRecord(
                    key: key, tick: index.nextTick(), bytes: original.count, checksum: originalChecksum,
                    fetchedAt: 0, expiresAt: 4_000_000_000, etag: "\"bench-\(i)\"",
                    lastModified: "Tue, 14 Nov 2023 22:13:20 GMT", contentType: "image/png"))
            index.addVariant(
                key: key,
                VariantRecord(
                    box: variantSize, width: variantSize.width, height: variantSize.height,
                    bytes: variant.count, checksum: variantChecksum))
        }
        index.compact()
    }

    private static func write(_ bytes: [UInt8], to path: String, tmp: String) throws {
        let file = try TempFile(directory: tmp)
        try bytes.withUnsafeBytes { try file.write($0) }
        try file.renameWithoutSync(to: path)
    }
}
