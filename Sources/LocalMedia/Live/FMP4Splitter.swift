// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// One piece of a fragmented MP4 byte stream, as ``FMP4Splitter`` cuts it.
public enum FMP4Piece: Sendable, Equatable {
    /// Everything before the first `moof` (`ftyp` + `moov`): what a player needs first.
    case initSegment([UInt8])
    /// One `moof` + `mdat` (with any box that came between the previous fragment and this
    /// `moof`). `key`: a player can start here — the video track's first sample is a sync
    /// sample (or the stream has no video).
    case fragment([UInt8], key: Bool)
}

/// Why a byte stream is not fragmented MP4 a live share can serve.
public struct FMP4Error: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "the encoder's output is not fragmented MP4: \(reason)" }
}

/// Cuts ffmpeg's fragmented MP4 (`-movflags frag_keyframe+empty_moov+default_base_moof`)
/// into the init segment and fragments, and tells which fragments start with a key frame.
///
/// Only the box headers and the few fields that say whether a sample is a sync sample are
/// read: `moov/trak/tkhd` (track id), `moov/trak/mdia/hdlr` (video or not), `moov/mvex/trex`
/// (default sample flags), and in each fragment `traf/tfhd` and the first `traf/trun` of the
/// video track (first-sample flags, else the first sample's flags, else the defaults). A
/// sample is a sync sample when `sample_is_non_sync_sample` (0x10000) is clear
/// (ISO/IEC 14496-12 §8.8.3).
public struct FMP4Splitter: Sendable {
    /// A box larger than this is refused (a broken stream, not a big frame).
    public static let maxBoxSize = 64 << 20

    private var pending: [UInt8] = []
    private var initBytes: [UInt8] = []
    private var initDone = false
    /// Boxes after the init segment not yet part of a fragment (`styp`, `prft`, a `moof`).
    private var fragmentBytes: [UInt8] = []
    private var sawMoof = false
    private var fragmentKey = false
    private var videoTrack: UInt32?
    private var trexFlags: [UInt32: UInt32] = [:]

    public init() {}

    /// Adds bytes read from the encoder; returns the pieces they completed, in order.
    public mutating func push(_ bytes: some Collection<UInt8>) throws(FMP4Error) -> [FMP4Piece] {
        pending.append(contentsOf: bytes)
        var out: [FMP4Piece] = []
        var start = 0
        defer { pending.removeFirst(start) }
        while let (type, size) = try Self.header(pending, at: start) {
            guard pending.count - start >= size else { break }
            let box = pending[start..<start + size]
            start += size
            if let piece = try take(type: type, box: box) { out.append(piece) }
        }
        return out
    }

    private mutating func take(type: String, box: ArraySlice<UInt8>) throws(FMP4Error) -> FMP4Piece? {
        if !initDone {
            if type == "moof" || type == "mdat" { throw FMP4Error(reason: "a \(type) box came before the moov box") }
            initBytes.append(contentsOf: box)
            guard type == "moov" else { return nil }
            readMoov(box)
            initDone = true
            defer { initBytes = [] }
            return .initSegment(initBytes)
        }
        switch type {
        case "moof":
            if sawMoof { throw FMP4Error(reason: "two moof boxes without an mdat between them") }
            sawMoof = true
            fragmentKey = isKey(moof: box)
            fragmentBytes.append(contentsOf: box)
            return nil
        case "mdat":
            guard sawMoof else { throw FMP4Error(reason: "an mdat box without its moof") }
            fragmentBytes.append(contentsOf: box)
            defer {
                fragmentBytes = []
                sawMoof = false
            }
            return .fragment(fragmentBytes, key: fragmentKey)
        case "mfra":
            return nil  // the index ffmpeg writes at the very end; a live player never needs it
        default:
            fragmentBytes.append(contentsOf: box)
            return nil
        }
    }

    /// `(type, size)` of the box at `offset`, nil when its header is not complete yet.
    static func header(_ b: [UInt8], at offset: Int) throws(FMP4Error) -> (String, Int)? {
        guard b.count - offset >= 8 else { return nil }
        var size = Int(be32(b, offset))
        let type = String(decoding: b[offset + 4..<offset + 8], as: UTF8.self)
        var headerSize = 8
        if size == 1 {
            guard b.count - offset >= 16 else { return nil }
            let large = UInt64(be32(b, offset + 8)) << 32 | UInt64(be32(b, offset + 12))
            guard large <= UInt64(maxBoxSize) else { throw FMP4Error(reason: "a \(type) box of \(large) bytes") }
            size = Int(large)
            headerSize = 16
        }
        guard size != 0 else { throw FMP4Error(reason: "a \(type) box that lasts to the end of the stream") }
        guard size >= headerSize else { throw FMP4Error(reason: "a \(type) box shorter than its header") }
        guard size <= maxBoxSize else { throw FMP4Error(reason: "a \(type) box of \(size) bytes") }
        return (type, size)
    }

    static func be32(_ b: some RandomAccessCollection<UInt8>, _ i: Int) -> UInt32 {
        var v: UInt32 = 0
        var at = b.index(b.startIndex, offsetBy: i)
        for _ in 0..<4 {
            v = v << 8 | UInt32(b[at])
            at = b.index(after: at)
        }
        return v
    }

    /// The child boxes of `box` (its payload starting `skip` bytes after the header): `(type, whole child)`.
    static func children(_ box: ArraySlice<UInt8>, skip: Int = 0) -> [(String, ArraySlice<UInt8>)] {
        let bytes = Array(box)
        var out: [(String, ArraySlice<UInt8>)] = []
        var at = 8 + skip
        while let (type, size) = try? header(bytes, at: at), at + size <= bytes.count {
            out.append((type, box[box.startIndex + at..<box.startIndex + at + size]))
            at += size
        }
        return out
    }

    private mutating func readMoov(_ moov: ArraySlice<UInt8>) {
        for (type, child) in Self.children(moov) {
            if type == "trak" {
                var id: UInt32?
                var video = false
                for (t, c) in Self.children(child) {
                    if t == "tkhd", c.count >= 32 {
                        id = Self.be32(c, c[c.startIndex + 8] == 1 ? 28 : 20)
                    }
                    if t == "mdia" {
                        for (m, h) in Self.children(c) where m == "hdlr" && h.count >= 20 {
                            video = Array(h[h.startIndex + 16..<h.startIndex + 20]) == Array("vide".utf8)
                        }
                    }
                }
                if video, videoTrack == nil { videoTrack = id }
            }
            if type == "mvex" {
                for (t, c) in Self.children(child) where t == "trex" && c.count >= 32 {
                    trexFlags[Self.be32(c, 12)] = Self.be32(c, 28)
                }
            }
        }
    }

    /// Whether the video track's first sample in this fragment is a sync sample.
    private func isKey(moof: ArraySlice<UInt8>) -> Bool {
        guard let video = videoTrack else { return true }
        for (type, traf) in Self.children(moof) where type == "traf" {
            var track: UInt32?
            var defaultFlags: UInt32?
            for (t, c) in Self.children(traf) {
                if t == "tfhd", c.count >= 16 {
                    let flags = Self.be32(c, 8) & 0xFF_FFFF
                    track = Self.be32(c, 12)
                    var at = 16
                    for (bit, width) in [(0x1, 8), (0x2, 4), (0x8, 4), (0x10, 4)] where flags & UInt32(bit) != 0 { at += width }
                    if flags & 0x20 != 0, c.count >= at + 4 { defaultFlags = Self.be32(c, at) }
                }
                guard t == "trun", track == video, c.count >= 16 else { continue }
                let flags = Self.be32(c, 8) & 0xFF_FFFF
                guard Self.be32(c, 12) > 0 else { continue }  // no samples
                var at = 16 + (flags & 0x1 != 0 ? 4 : 0)
                var first: UInt32?
                if flags & 0x4 != 0, c.count >= at + 4 {
                    first = Self.be32(c, at)
                } else if flags & 0x400 != 0 {
                    if flags & 0x100 != 0 { at += 4 }
                    if flags & 0x200 != 0 { at += 4 }
                    if c.count >= at + 4 { first = Self.be32(c, at) }
                }
                let sampleFlags = first ?? defaultFlags ?? trexFlags[video] ?? 0x10000
                return sampleFlags & 0x10000 == 0
            }
        }
        return false
    }
}
