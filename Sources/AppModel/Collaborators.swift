// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import CastProtocol

/// Resolves artwork to a local image file (ImageCache behind it in the app), for one place that
/// shows it at one display scale factor: the image chosen is the one that best fits that place.
public protocol ArtworkProvider: Sendable {
    func localPath(for images: [CastImage], use: ImageUse, scale: Int) async -> String?
}

/// Takes file:// URLs and absolute paths as they are; anything else needs ImageCache. Of several
/// local images, the smallest at least as wide as the place (else the widest); web images do not
/// count here: the cache chooses among those.
public struct LocalArtworkProvider: ArtworkProvider {
    public init() {}
    public func localPath(for images: [CastImage], use: ImageUse, scale: Int) async -> String? {
        let width = use.pixelWidth(scale: scale)
        let local = images.compactMap { image -> (path: String, width: Int?)? in
            if image.url.hasPrefix("file://") { return (String(image.url.dropFirst("file://".count)), image.width) }
            return image.url.hasPrefix("/") ? (image.url, image.width) : nil
        }
        // The smallest that is wide enough, else the widest, else the first of unknown width.
        let known = local.filter { $0.width != nil }
        if let cover = known.filter({ $0.width! >= width }).min(by: { $0.width! < $1.width! }) { return cover.path }
        return known.max { $0.width! < $1.width! }?.path ?? local.first?.path
    }
}

/// Where "Use as default" stores the subtitle style (GSettings in the app).
@MainActor
public protocol StylePreferences: AnyObject {
    var defaultTextTrackStyle: TextTrackStyle? { get set }
}

public final class MemoryStylePreferences: StylePreferences {
    public var defaultTextTrackStyle: TextTrackStyle?
    public init(_ style: TextTrackStyle? = nil) { defaultTextTrackStyle = style }
}

/// Whether the window remembers where playback stopped (GSettings `remember-positions` in the
/// app, Preferences → "Remember where playback stopped"), and the devices that get surround
/// sound as it is (GSettings `surround-devices`, Preferences → Surround Sound).
@MainActor
public protocol PlaybackPreferences: AnyObject {
    var remembersPositions: Bool { get set }
    /// Ids of the devices whose HDMI reaches an AV receiver that decodes AC-3/E-AC-3.
    var surroundDevices: [String] { get set }
}

public final class MemoryPlaybackPreferences: PlaybackPreferences {
    public var remembersPositions: Bool
    public var surroundDevices: [String]
    public init(remembersPositions: Bool = true, surroundDevices: [String] = []) {
        self.remembersPositions = remembersPositions
        self.surroundDevices = surroundDevices
    }
}

/// The Cast Screen dialog's last choices (GSettings `mirror-quality` and `mirror-sound` in the
/// app): the quality's name (`sharp`, `balanced`, `smooth`) and whether the sound goes along.
@MainActor
public protocol MirrorPreferences: AnyObject {
    var mirrorQuality: String { get set }
    var mirrorSound: Bool { get set }
}

public final class MemoryMirrorPreferences: MirrorPreferences {
    public var mirrorQuality: String
    public var mirrorSound: Bool
    public init(quality: String = "balanced", sound: Bool = true) {
        mirrorQuality = quality
        mirrorSound = sound
    }
}
