// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Glibc
import AppModel
import CastProtocol
import ImageCache
import Synchronization

// The production collaborators: CastClient sessions, CastDiscovery (Avahi) and ImageCache.

func makeConnector() -> any CastConnector {
    CastClientConnector(environment: ProcessInfo.processInfo.environment)
}
/// CASTDECK_NO_DISCOVERY=1 turns browsing off (tests, benchmarks and screenshots run outside the mDNS sandbox).
func makeBrowser() -> (any DeviceBrowser)? {
    getenv("CASTDECK_NO_DISCOVERY") == nil ? AvahiDeviceBrowser() : nil
}
func makeArtworkProvider() -> any ArtworkProvider { CachedArtworkProvider() }

/// Artwork through the on-disk image cache: the picker chooses the metadata image that best
/// covers the size the window draws, the cache downloads, checks and scales it, and the window
/// gets the path of the scaled PNG. Local files (the demo sample) are used as they are. A
/// failure of any kind means "show the placeholder"; the cache retries downloads by itself.
/// The cache is opened on the first artwork request, off the main thread, not at start-up:
/// the first frame does not wait for its index to be read.
final class CachedArtworkProvider: ArtworkProvider {
    private let opened = Mutex<(tried: Bool, cache: ImageCache?)>((false, nil))
    private let local = LocalArtworkProvider()

    /// The cache directory may be unwritable (a read-only home): then only local files show.
    private var cache: ImageCache? {
        opened.withLock { state in
            if !state.tried {
                state.tried = true
                state.cache = try? ImageCache()
            }
            return state.cache
        }
    }

    func localPath(for images: [CastImage], width: Int) async -> String? {
        if let path = await local.localPath(for: images, width: width) { return path }
        guard !images.isEmpty, let cache else { return nil }
        let request = ImageRequest(use: .expandedControllerBackground, size: PixelSize(width: width, height: width))
        return try? await cache.image(from: images, for: request)?.path
    }
}
