// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// Reads an H.264 Annex B byte stream as it arrives, in pieces of any size, and hands out its
/// access units (one picture each, with the parameter sets and SEI before it), as Cast
/// Streaming sends them: one frame per access unit.
///
/// Framing: the encoder's output goes through ffmpeg's `h264_metadata=aud=insert`, so every
/// access unit begins with an access unit delimiter (NAL type 9), whichever encoder made it;
/// NAL units are found by their start codes (`00 00 01`, or `00 00 00 01`), which emulation
/// prevention keeps out of NAL payloads. An access unit is complete when the next delimiter
/// arrives, so a picture leaves one frame interval after the encoder wrote it (nothing in the
/// byte stream says that a picture is finished). A key frame is one with an IDR slice
/// (NAL type 5).
public struct AnnexBReader: Sendable {
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        /// A mebibyte came without an access unit delimiter: not an H.264 byte stream.
        case notH264
        /// Two pictures came without an access unit delimiter between them.
        case noDelimiters
        /// An access unit (or what came before the first delimiter) grew past any picture's size.
        case accessUnitTooLarge(Int)
        public var description: String {
            switch self {
            case .notH264: "the encoder's output is not an H.264 byte stream"
            case .noDelimiters: "the encoder's H.264 stream has no access unit delimiters, so its pictures cannot be told apart"
            case .accessUnitTooLarge(let n): "the encoder's H.264 stream has an access unit of more than \(n) bytes, more than a picture can be"
            }
        }
    }

    /// NAL unit types (ITU-T H.264 table 7-1) this reader looks at.
    enum NALType {
        static let nonIDRSlice: UInt8 = 1
        static let idrSlice: UInt8 = 5
        static let delimiter: UInt8 = 9
    }

    /// No access unit of a screen is this large; a larger one means the stream is corrupt.
    public static let maxAccessUnitBytes = IVFReader.maxFrameBytes

    private var buffer: [UInt8] = []
    /// Where the current access unit's delimiter starts (nil before the first delimiter).
    private var unitStart: Int?
    /// Where the scan for start codes goes on.
    private var scanned = 0
    /// Pictures begun in the current access unit (slices with first_mb_in_slice 0).
    private var pictures = 0
    private var isKey = false
    private var count: UInt64 = 0
    /// Bytes dropped before the first delimiter.
    private var preamble = 0

    public init() {}

    /// Adds `bytes` and returns every access unit they complete.
    public mutating func append(_ bytes: some Collection<UInt8>) throws(ReadError) -> [EncodedVideoFrame] {
        buffer.append(contentsOf: bytes)
        var frames: [EncodedVideoFrame] = []
        // A start code is three bytes and the NAL header one more; the slice header's first
        // byte is needed too.
        while true {
            guard let code = nextStartCode(from: scanned) else {
                // No start code begins before the last three bytes: none is looked for there again.
                scanned = max(scanned, buffer.count - 3)
                break
            }
            guard code.payload + 1 < buffer.count else {
                scanned = code.start
                break
            }
            let type = buffer[code.payload] & 0x1F
            if type == NALType.delimiter {
                if let start = unitStart, pictures > 0 {
                    frames.append(EncodedVideoFrame(data: Array(buffer[start..<code.start]), pts: count, isKey: isKey))
                    count += 1
                }
                unitStart = code.start
                pictures = 0
                isKey = false
            } else if type == NALType.nonIDRSlice || type == NALType.idrSlice {
                // first_mb_in_slice is ue(v): a first bit of 1 codes 0, a new picture.
                if buffer[code.payload + 1] & 0x80 != 0 {
                    pictures += 1
                    if pictures > 1 { throw .noDelimiters }
                }
                if type == NALType.idrSlice { isKey = true }
            }
            scanned = code.payload + 1
        }
        if let start = unitStart {
            if buffer.count - start > Self.maxAccessUnitBytes { throw .accessUnitTooLarge(Self.maxAccessUnitBytes) }
        } else if preamble + buffer.count > 1 << 20 {
            throw .notH264
        }
        compact()
        return frames
    }

    /// The access unit still held when the stream ends (the encoder stopped), if it has a picture.
    public mutating func finish() -> EncodedVideoFrame? {
        defer {
            buffer = []
            unitStart = nil
            scanned = 0
            pictures = 0
        }
        guard let start = unitStart, pictures > 0 else { return nil }
        return EncodedVideoFrame(data: Array(buffer[start...]), pts: count, isKey: isKey)
    }

    /// The next start code at or after `from`: where it starts (a leading zero byte of a
    /// four-byte code included) and where its NAL unit begins.
    private func nextStartCode(from: Int) -> (start: Int, payload: Int)? {
        var i = max(from, 0)
        while i + 2 < buffer.count {
            if buffer[i + 2] > 1 {
                i += 3
            } else if buffer[i] == 0, buffer[i + 1] == 0, buffer[i + 2] == 1 {
                let start = i > 0 && buffer[i - 1] == 0 && i - 1 >= from ? i - 1 : i
                return (start, i + 3)
            } else {
                i += 1
            }
        }
        return nil
    }

    /// Drops what no access unit needs any more: everything before the current one, or before
    /// the first delimiter (bytes a stream may carry before it are not a picture).
    private mutating func compact() {
        let drop = min(unitStart ?? max(0, buffer.count - 3), scanned)
        guard drop > 65536 else { return }
        buffer.removeFirst(drop)
        scanned -= drop
        if let s = unitStart { unitStart = s - drop } else { preamble += drop }
    }
}
