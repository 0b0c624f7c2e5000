import AppModel
import CastClient
import CastDeckUI
import CastDiscovery
import CastProtocol
// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import GLibInterop
import Glibc
import ImageCache
import MPRIS
import Synchronization

// The production collaborators, built here and nowhere else: CastClient sessions, the device
// directory (remembered devices, probed through CastClient; Avahi browsing), ImageCache
// artwork, and MPRIS on the session bus. The window asks for them through `Services`.

@MainActor
func makeServices(startDemoReceiver: @escaping @MainActor () async throws -> DeviceInfo) -> Services {
    let artwork = CachedArtworkProvider()
    // The app's settings, read here for the services (the artwork cache's size, the interface
    // to look for devices on); kept alive with the model for the cache size's change handler.
    var appSettings: Settings?
    return Services(
        makeModel: { requireVerified, preferences in
            var client = CastClientConfiguration()
            // The reconnect test hooks (ReconnectPolicy.applying(environment:)).
            client.reconnect = client.reconnect.applying(environment: ProcessInfo.processInfo.environment)
            // Refuse devices that cannot prove they are genuine (GSettings require-verified-devices).
            if requireVerified { client.deviceAuthentication.mode = .require }
            let directory = DeviceDirectory(prober: CastClientProber(configuration: client), browser: nil)
            appSettings = Settings(schemaID: CastDeckApplication.appID)
            if let settings = appSettings {
                let key = "image-cache-size-mb"
                artwork.setDiskLimit(megabytes: settings.int(key))
                settings.onChanged(key) { [unowned settings] in artwork.setDiskLimit(megabytes: settings.int(key)) }
            }
            let model = AppModel(directory: directory, client: client, artwork: artwork, preferences: preferences)
            model.start()
            return model
        },
        startBrowsing: { model in
            // CASTDECK_NO_DISCOVERY=1 turns browsing off (tests, benchmarks and screenshots run
            // outside the mDNS sandbox).
            guard getenv("CASTDECK_NO_DISCOVERY") == nil else {
                model.discoveryIsOff()
                return
            }
            let directory = model.directory
            // GSettings discovery-interface: one network interface only (empty: all of them).
            let browser = CastBrowser(waitForDaemon: true, interface: appSettings?.string("discovery-interface"))
            Task { await directory.attach(browser: browser) }
        },
        startDemoReceiver: startDemoReceiver,
        startMediaControls: { model, connection, hooks in
            let service = MPRISService(
                model: model, connection: connection,
                hooks: .init(raise: hooks.raise, quit: hooks.quit),
                desktopEntry: CastDeckApplication.appID)
            do {
                try service.start()
            } catch {
                printError("castdeck: media controls (MPRIS) are not available: \(error)")
                return nil
            }
            return { service.stop() }
        })
}

/// Artwork through the on-disk image cache: the picker chooses the metadata image that best
/// covers the place it is shown in (its ImageUse at the display's scale), the cache downloads,
/// checks and scales it, and the window gets the path of the scaled PNG. Local files (the demo
/// sample) are used as they are. A failure of any kind means "show the placeholder"; the cache
/// retries downloads by itself. The cache is opened on the first artwork request, off the main
/// thread, not at start-up: the first frame does not wait for its index to be read. Its disk
/// bound follows the GSettings key `image-cache-size-mb`, also while it is open.
final class CachedArtworkProvider: ArtworkProvider {
    private struct State {
        var tried = false
        var cache: ImageCache?
        var maxDiskBytes = ImageCacheConfiguration().maxDiskBytes
    }
    private let state = Mutex(State())
    private let local = LocalArtworkProvider()

    /// The cache directory may be unwritable (a read-only home): then only local files show.
    private var cache: ImageCache? {
        state.withLock { state in
            if !state.tried {
                state.tried = true
                var configuration = ImageCacheConfiguration()
                configuration.maxDiskBytes = state.maxDiskBytes
                state.cache = try? ImageCache(configuration: configuration)
            }
            return state.cache
        }
    }

    /// Bounds the cache's disk use (GSettings `image-cache-size-mb`, megabytes of 1,000,000
    /// bytes); an open cache evicts what no longer fits at once.
    func setDiskLimit(megabytes: Int) {
        let cache = state.withLock { state in
            state.maxDiskBytes = megabytes * 1_000_000
            return state.cache
        }
        guard let cache else { return }
        Task { await cache.setMaxDiskBytes(self.state.withLock { $0.maxDiskBytes }) }
    }

    func localPath(for images: [CastImage], use: ImageUse, scale: Int) async -> String? {
        if let path = await local.localPath(for: images, use: use, scale: scale) { return path }
        guard !images.isEmpty, let cache else { return nil }
        return try? await cache.image(from: images, for: ImageRequest(use: use, scale: scale))?.path
    }
}
