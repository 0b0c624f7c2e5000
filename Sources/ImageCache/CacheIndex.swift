// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

#if canImport(Glibc)
import Glibc
#endif

/// One scaled PNG made from an original, for one requested box.
struct VariantRecord: Equatable, Sendable {
    var box: PixelSize
    var width: Int
    var height: Int
    var bytes: Int
    var checksum: String
}

/// What the cache knows about one URL: the original's file, its HTTP validators and freshness,
/// its variants, and when it was last used (a logical clock, `tick`, for LRU order).
struct EntryRecord: Equatable, Sendable {
    var key: String
    var tick: UInt64
    var bytes: Int
    var checksum: String
    var fetchedAt: Double
    var expiresAt: Double
    var etag: String?
    var lastModified: String?
    var contentType: String
    var variants: [PixelSize: VariantRecord] = [:]

    var totalBytes: Int { bytes + variants.values.reduce(0) { $0 + $1.bytes } }
}

/// The persistent index: a snapshot file written atomically plus an append-only journal of
/// changes since. Opening reads both (no per-file stat, so 10,000 entries open quickly); a torn
/// last journal line from a crash fails its check and is ignored. The journal is folded into a
/// new snapshot once it grows past the number of entries.
///
/// Line format (tab-separated, fields escaped with %XX, last field an FNV-1a check of the rest):
///   E key tick bytes checksum fetchedAt expiresAt etag lastModified contentType   (entry, drops variants)
///   R key fetchedAt expiresAt etag lastModified                                   (revalidated)
///   V key boxW boxH width height bytes checksum                                   (variant added)
///   X key boxW boxH                                                               (variant removed)
///   T key tick                                                                    (used)
///   D key                                                                         (entry removed)
final class CacheIndex {
    static let header = "castdeck-imagecache-index 1"

    let snapshotPath: String
    let journalPath: String
    let tmpDirectory: String
    private(set) var entries: [String: EntryRecord] = [:]
    private(set) var totalBytes = 0
    private(set) var clock: UInt64 = 0
    private var journalFD: Int32 = -1
    private var journalLines = 0

    init(directory: String, tmpDirectory: String) throws(FileIO.Failure) {
        snapshotPath = directory + "/index"
        journalPath = directory + "/journal"
        self.tmpDirectory = tmpDirectory
        if let bytes = FileIO.read(snapshotPath) { replay(bytes, isSnapshot: true) }
        if let bytes = FileIO.read(journalPath) { journalLines = replay(bytes, isSnapshot: false) }
        journalFD = open(journalPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if journalFD < 0 { throw FileIO.Failure(operation: "open", path: journalPath, code: errno) }
        // A crash may have left a torn line at the end: start appending on a fresh line.
        if let size = FileIO.size(journalPath), size > 0,
            let last = FileIO.read(journalPath)?.last, last != UInt8(ascii: "\n")
        {
            appendRaw("\n")
        }
    }

    deinit { close() }

    func close() {
        if journalFD >= 0 {
            Glibc.close(journalFD)
            journalFD = -1
        }
    }

    // MARK: Changes (each is applied in memory and appended to the journal)

    func nextTick() -> UInt64 {
        clock += 1
        return clock
    }

    func put(_ entry: EntryRecord) {
        var entry = entry
        entry.variants = [:]
        apply(.put(entry))
        append([
            "E", entry.key, String(entry.tick), String(entry.bytes), entry.checksum,
            String(entry.fetchedAt), String(entry.expiresAt), entry.etag ?? "", entry.lastModified ?? "",
            entry.contentType,
        ])
    }

    func refresh(key: String, fetchedAt: Double, expiresAt: Double, etag: String?, lastModified: String?) {
        guard entries[key] != nil else { return }
        apply(.refresh(key: key, fetchedAt: fetchedAt, expiresAt: expiresAt, etag: etag, lastModified: lastModified))
        append(["R", key, String(fetchedAt), String(expiresAt), etag ?? "", lastModified ?? ""])
    }

    func addVariant(key: String, _ variant: VariantRecord) {
        guard entries[key] != nil else { return }
        apply(.variant(key: key, variant))
        append([
            "V", key, String(variant.box.width), String(variant.box.height), String(variant.width),
            String(variant.height), String(variant.bytes), variant.checksum,
        ])
    }

    func removeVariant(key: String, box: PixelSize) {
        guard entries[key]?.variants[box] != nil else { return }
        apply(.removeVariant(key: key, box: box))
        append(["X", key, String(box.width), String(box.height)])
    }

    func touch(_ key: String) {
        guard entries[key] != nil else { return }
        let tick = nextTick()
        apply(.touch(key: key, tick: tick))
        append(["T", key, String(tick)])
    }

    func remove(_ key: String) {
        guard entries[key] != nil else { return }
        apply(.remove(key: key))
        append(["D", key])
    }

    /// Keys in least-recently-used-first order.
    func keysByAge() -> [String] {
        entries.values.sorted { $0.tick < $1.tick }.map(\.key)
    }

    // MARK: Applying

    private enum Change {
        case put(EntryRecord)
        case refresh(key: String, fetchedAt: Double, expiresAt: Double, etag: String?, lastModified: String?)
        case variant(key: String, VariantRecord)
        case removeVariant(key: String, box: PixelSize)
        case touch(key: String, tick: UInt64)
        case remove(key: String)
    }

    private func apply(_ change: Change) {
        switch change {
        case .put(let entry):
            if let old = entries[entry.key] { totalBytes -= old.totalBytes }
            entries[entry.key] = entry
            totalBytes += entry.totalBytes
            clock = max(clock, entry.tick)
        case .refresh(let key, let fetchedAt, let expiresAt, let etag, let lastModified):
            entries[key]?.fetchedAt = fetchedAt
            entries[key]?.expiresAt = expiresAt
            entries[key]?.etag = etag
            entries[key]?.lastModified = lastModified
        case .variant(let key, let variant):
            guard var entry = entries[key] else { return }
            totalBytes -= entry.totalBytes
            entry.variants[variant.box] = variant
            totalBytes += entry.totalBytes
            entries[key] = entry
        case .removeVariant(let key, let box):
            guard var entry = entries[key] else { return }
            totalBytes -= entry.totalBytes
            entry.variants[box] = nil
            totalBytes += entry.totalBytes
            entries[key] = entry
        case .touch(let key, let tick):
            entries[key]?.tick = tick
            clock = max(clock, tick)
        case .remove(let key):
            if let old = entries.removeValue(forKey: key) { totalBytes -= old.totalBytes }
        }
    }

    // MARK: Persistence

    private func append(_ fields: [String]) {
        appendRaw(Self.encodeLine(fields))
        journalLines += 1
        if journalLines > max(1000, entries.count) { compact() }
    }

    private func appendRaw(_ line: String) {
        guard journalFD >= 0 else { return }
        var line = line
        line.withUTF8 { buf in
            var offset = 0
            while offset < buf.count {
                let n = write(journalFD, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Writes the whole state as a new snapshot (atomically) and empties the journal.
    func compact() {
        var text = Self.header + "\n"
        text.reserveCapacity(entries.count * 200)
        text += Self.encodeLine(["C", String(clock)])
        for entry in entries.values {
            text += Self.encodeLine([
                "E", entry.key, String(entry.tick), String(entry.bytes), entry.checksum,
                String(entry.fetchedAt), String(entry.expiresAt), entry.etag ?? "",
                entry.lastModified ?? "", entry.contentType,
            ])
            for v in entry.variants.values {
                text += Self.encodeLine([
                    "V", entry.key, String(v.box.width), String(v.box.height), String(v.width),
                    String(v.height), String(v.bytes), v.checksum,
                ])
            }
        }
        let bytes = Array(text.utf8)
        do {
            try FileIO.writeAtomically(bytes, to: snapshotPath, tmpDirectory: tmpDirectory)
        } catch {
            return  // keep journaling; the next compaction tries again
        }
        if journalFD >= 0 { _ = ftruncate(journalFD, 0) }
        journalLines = 0
    }

    /// Applies every valid line; returns how many lines were applied.
    @discardableResult
    private func replay(_ bytes: [UInt8], isSnapshot: Bool) -> Int {
        var applied = 0
        var start = 0
        var first = true
        let newline = UInt8(ascii: "\n")
        bytes.withUnsafeBufferPointer { buf in
            var i = 0
            while i < buf.count {
                if buf[i] == newline {
                    let line = UnsafeBufferPointer(rebasing: buf[start..<i])
                    if first && isSnapshot {
                        first = false
                        if String(decoding: line, as: UTF8.self) != Self.header { return }
                    } else if let fields = Self.decodeLine(line), applyFields(fields) {
                        applied += 1
                    }
                    start = i + 1
                }
                i += 1
            }
            // Bytes after the last newline are a torn write: ignored.
        }
        return applied
    }

    private func applyFields(_ f: [String]) -> Bool {
        func int(_ i: Int) -> Int? { i < f.count ? Int(f[i]) : nil }
        func dbl(_ i: Int) -> Double? { i < f.count ? Double(f[i]) : nil }
        func opt(_ i: Int) -> String? { i < f.count && !f[i].isEmpty ? f[i] : nil }
        guard let kind = f.first else { return false }
        switch kind {
        case "C":
            guard f.count == 2, let c = UInt64(f[1]) else { return false }
            clock = max(clock, c)
        case "E":
            guard f.count == 10, Self.isKey(f[1]), let tick = UInt64(f[2]), let bytes = int(3),
                let fetched = dbl(5), let expires = dbl(6)
            else { return false }
            apply(
                .put(
                    EntryRecord(
                        key: f[1], tick: tick, bytes: bytes, checksum: f[4], fetchedAt: fetched,
                        expiresAt: expires, etag: opt(7), lastModified: opt(8), contentType: f[9])))
        case "R":
            guard f.count == 6, let fetched = dbl(2), let expires = dbl(3) else { return false }
            apply(.refresh(key: f[1], fetchedAt: fetched, expiresAt: expires, etag: opt(4), lastModified: opt(5)))
        case "V":
            guard f.count == 8, let bw = int(2), let bh = int(3), let w = int(4), let h = int(5),
                let bytes = int(6)
            else { return false }
            apply(
                .variant(
                    key: f[1],
                    VariantRecord(
                        box: PixelSize(width: bw, height: bh), width: w, height: h,
                        bytes: bytes, checksum: f[7])))
        case "X":
            guard f.count == 4, let bw = int(2), let bh = int(3) else { return false }
            apply(.removeVariant(key: f[1], box: PixelSize(width: bw, height: bh)))
        case "T":
            guard f.count == 3, let tick = UInt64(f[2]) else { return false }
            apply(.touch(key: f[1], tick: tick))
        case "D":
            guard f.count == 2 else { return false }
            apply(.remove(key: f[1]))
        default:
            return false
        }
        return true
    }

    // MARK: Line coding

    static func isKey(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for b in bytes {
            hash ^= UInt32(b)
            hash = hash &* 16_777_619
        }
        return hash
    }

    static func escape(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 9 || $0 == 10 || $0 == 13 || $0 == 37 }) else { return s }
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\t": out += "%09"
            case "\n": out += "%0A"
            case "\r": out += "%0D"
            case "%": out += "%25"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func unescape(_ s: Substring) -> String {
        guard s.utf8.contains(37) else { return String(s) }  // no "%": nothing escaped (byte check, no Foundation)
        return String(s).replacingAll("%09", "\t").replacingAll("%0A", "\n").replacingAll("%0D", "\r")
            .replacingAll("%25", "%")
    }

    static func encodeLine(_ fields: [String]) -> String {
        let body = fields.map(escape).joined(separator: "\t")
        let check = String(fnv1a(body.utf8), radix: 16)
        return body + "\t" + check + "\n"
    }

    static func decodeLine(_ line: UnsafeBufferPointer<UInt8>) -> [String]? {
        guard let tab = line.lastIndex(of: 9), tab + 1 < line.count else { return nil }
        let body = UnsafeBufferPointer(rebasing: line[..<tab])
        var expected: UInt32 = 0
        for b in line[(tab + 1)...] {
            let digit: UInt8
            switch b {
            case 48...57: digit = b - 48
            case 97...102: digit = b - 87
            default: return nil
            }
            expected = expected &* 16 &+ UInt32(digit)
        }
        guard expected == fnv1a(body) else { return nil }
        // Split on tab bytes (no Character/grapheme work: this runs 20,000 times on open).
        var fields: [String] = []
        fields.reserveCapacity(10)
        var start = 0
        for i in 0...body.count where i == body.count || body[i] == 9 {
            let field = UnsafeBufferPointer(rebasing: body[start..<i])
            let text = String(decoding: field, as: UTF8.self)
            fields.append(field.contains(37) ? unescape(text[...]) : text)
            start = i + 1
        }
        return fields
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation needed).
    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
