// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// One encoded video frame as the encoder gave it.
public struct EncodedVideoFrame: Sendable, Equatable {
    public var data: [UInt8]
    /// The encoder's timestamp, in its time base (IVF: frames at the capture rate).
    public var pts: UInt64
    /// A key frame: decodable without any frame before it.
    public var isKey: Bool
    public init(data: [UInt8], pts: UInt64, isKey: Bool) {
        self.data = data
        self.pts = pts
        self.isKey = isKey
    }

    /// Whether a VP8 frame is a key frame: the lowest bit of its first byte is 0 (RFC 6386 §9.1).
    public static func isVP8KeyFrame(_ data: some Collection<UInt8>) -> Bool {
        guard let first = data.first else { return false }
        return first & 1 == 0
    }
}

/// Reads an IVF stream as it arrives, in pieces of any size: a 32-byte file header ("DKIF",
/// version, header size, codec, width, height, time base, frame count) and then frames, each
/// a 12-byte header (size, 64-bit timestamp, little endian) and the frame.
public struct IVFReader: Sendable {
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case notIVF
        case frameTooLarge(Int)
        public var description: String {
            switch self {
            case .notIVF: "the encoder's output is not an IVF stream"
            case .frameTooLarge(let n): "the encoder wrote a frame of \(n) bytes, more than a frame can be"
            }
        }
    }

    /// The codec's four characters (e.g. "VP80") and picture size from the file header.
    public private(set) var fourcc: String?
    public private(set) var size: PixelSize?
    private var buffer: [UInt8] = []
    private var start = 0
    /// No frame of a screen is this large; a size beyond it means the stream is corrupt.
    public static let maxFrameBytes = 16 << 20

    public init() {}

    /// Adds `bytes` and returns every frame they complete.
    public mutating func append(_ bytes: some Collection<UInt8>) throws(ReadError) -> [EncodedVideoFrame] {
        buffer.append(contentsOf: bytes)
        var frames: [EncodedVideoFrame] = []
        if fourcc == nil {
            guard buffer.count - start >= 32 else { return [] }
            guard buffer[start..<start + 4].elementsEqual("DKIF".utf8) else { throw .notIVF }
            let headerSize = Int(le16(start + 6))
            guard headerSize >= 32 else { throw .notIVF }
            guard buffer.count - start >= headerSize else { return [] }
            fourcc = String(decoding: buffer[start + 8..<start + 12], as: UTF8.self)
            size = PixelSize(width: Int(le16(start + 12)), height: Int(le16(start + 14)))
            start += headerSize
        }
        while buffer.count - start >= 12 {
            let length = Int(le32(start))
            guard length <= Self.maxFrameBytes else { throw .frameTooLarge(length) }
            guard buffer.count - start >= 12 + length else { break }
            let pts = UInt64(le32(start + 4)) | UInt64(le32(start + 8)) << 32
            let data = Array(buffer[start + 12..<start + 12 + length])
            frames.append(EncodedVideoFrame(data: data, pts: pts, isKey: EncodedVideoFrame.isVP8KeyFrame(data)))
            start += 12 + length
        }
        if start > 65536 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return frames
    }

    private func le16(_ i: Int) -> UInt16 { UInt16(buffer[i]) | UInt16(buffer[i + 1]) << 8 }
    private func le32(_ i: Int) -> UInt32 { UInt32(le16(i)) | UInt32(le16(i + 2)) << 16 }
}

/// Writes frames as IVF, the inverse of `IVFReader` (the simulator feeds ffmpeg's decoder with it).
public enum IVFWriter {
    public static func header(fourcc: String = "VP80", size: PixelSize, timeBase: (num: Int, den: Int) = (1, 90000)) -> [UInt8] {
        var b = Array("DKIF".utf8)
        b += le16(0) + le16(32) + Array(fourcc.utf8.prefix(4)) + le16(size.width) + le16(size.height)
        b += le32(timeBase.den) + le32(timeBase.num) + le32(0) + le32(0)
        return b
    }

    public static func frame(_ data: [UInt8], pts: UInt64) -> [UInt8] {
        le32(data.count) + le32(Int(pts & 0xFFFF_FFFF)) + le32(Int(pts >> 32)) + data
    }

    private static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    private static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16((v >> 16) & 0xFFFF) }
}
