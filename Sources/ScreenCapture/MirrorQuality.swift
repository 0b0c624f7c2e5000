// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// The one quality choice a person makes; everything else follows from it, the source's size
/// and what the receiver accepts.
public enum MirrorQuality: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Text stays readable: up to 1080p at 30 frames a second, the highest bit rate.
    case sharp
    /// The default: up to 720p at 30 frames a second.
    case balanced
    /// Motion first: up to 720p at 60 frames a second on a lower bit rate per frame.
    case smooth

    public var description: String { rawValue }

    /// The largest picture, frame rate and bit rate this quality asks for.
    public var target: (size: PixelSize, fps: Int, bitRate: Int) {
        switch self {
        case .sharp: (PixelSize(width: 1920, height: 1080), 30, 6_000_000)
        case .balanced: (PixelSize(width: 1280, height: 720), 30, 3_000_000)
        case .smooth: (PixelSize(width: 1280, height: 720), 60, 4_000_000)
        }
    }

    /// The plan for a source of `source` pixels within `limits`: the picture keeps the
    /// source's aspect ratio, is never scaled up, has even sides (VP8 and H.264 want them),
    /// and fits the quality's box and the receiver's maximum; the frame rate and bit rate are
    /// clamped likewise, and the frame rate lowered when the receiver's pixel rate needs it.
    public func plan(source: PixelSize, limits: VideoLimits = VideoLimits(), encoder: VideoBackend = .libvpx) -> VideoPlan {
        let t = target
        var box = t.size
        if let m = limits.maxSize { box = PixelSize(width: min(box.width, m.width), height: min(box.height, m.height)) }
        let scale = min(1, Double(box.width) / Double(max(source.width, 1)), Double(box.height) / Double(max(source.height, 1)))
        func even(_ v: Double) -> Int { max(2, Int(v) & ~1) }
        let size = PixelSize(width: even(Double(source.width) * scale), height: even(Double(source.height) * scale))
        var fps = min(t.fps, limits.maxFrameRate ?? t.fps)
        if let pps = limits.maxPixelsPerSecond, size.width * size.height * fps > pps {
            fps = max(1, pps / (size.width * size.height))
        }
        var bitRate = t.bitRate
        if let hi = limits.maxBitRate { bitRate = min(bitRate, hi) }
        if let lo = limits.minBitRate { bitRate = max(bitRate, lo) }
        return VideoPlan(size: size, fps: max(1, fps), bitRate: bitRate, minBitRate: limits.minBitRate ?? 300_000, encoder: encoder)
    }
}

/// What a receiver says it can take (an ANSWER's video constraints); nil: no limit said.
public struct VideoLimits: Sendable, Equatable {
    public var maxSize: PixelSize?
    public var maxFrameRate: Int?
    public var maxPixelsPerSecond: Int?
    public var minBitRate: Int?
    public var maxBitRate: Int?
    public init(maxSize: PixelSize? = nil, maxFrameRate: Int? = nil, maxPixelsPerSecond: Int? = nil, minBitRate: Int? = nil, maxBitRate: Int? = nil) {
        self.maxSize = maxSize
        self.maxFrameRate = maxFrameRate
        self.maxPixelsPerSecond = maxPixelsPerSecond
        self.minBitRate = minBitRate
        self.maxBitRate = maxBitRate
    }
}

/// How video is encoded: the picture size, frames a second and the bit rate aimed at (the
/// sender lowers it toward `minBitRate` when packets are lost), and the encoder (`EncoderProbe`).
public struct VideoPlan: Sendable, Equatable {
    public var size: PixelSize
    public var fps: Int
    public var bitRate: Int
    public var minBitRate: Int
    public var encoder: VideoBackend
    public init(size: PixelSize, fps: Int, bitRate: Int, minBitRate: Int = 300_000, encoder: VideoBackend = .libvpx) {
        self.size = size
        self.fps = fps
        self.bitRate = bitRate
        self.minBitRate = minBitRate
        self.encoder = encoder
    }
}
