// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import CastProtocol

// Artwork per place: the expanded controller, the mini controller, the mini player, the device
// list's session row and the desktop's media controls each show the current media's image at
// their own size times the display's scale factor, so each asks the ArtworkProvider for its own
// ImageUse. The image picker behind it then chooses the metadata image that covers that size
// (a 48-point thumbnail does not fetch the poster; a HiDPI screen gets twice the pixels).
extension AppModel {
    /// The local file of the current media's artwork for one place, nil until it is resolved (or
    /// when the media has none): the place shows its placeholder then.
    public func artworkPath(for use: ImageUse) -> String? { artworkPaths[use] }

    /// A local copy of a queue item's artwork for its row's thumbnail (the image cache; nil when
    /// it cannot be fetched, e.g. a file of this computer's that the media server shares only
    /// with the device).
    public func queueThumbnail(_ images: [CastImage]) async -> String? {
        await artwork.localPath(for: images, use: .queueList, scale: displayScale)
    }

    func artworkScaleChanged() {
        artworkKey = nil
        resolveArtwork()
    }

    /// Resolves the current media's images for every place, once per set of images and scale.
    func resolveArtwork() {
        if let local = localCastArtwork {
            // The media server answers only the device: show the file's artwork from disk.
            artworkKey = local
            let all = Dictionary(uniqueKeysWithValues: ImageUse.currentMediaSurfaces.map { ($0, local) })
            if artworkPaths != all { artworkPaths = all }
            return
        }
        let images = media?.metadata?.images ?? []
        let key = images.map(\.url).joined(separator: "|")
        guard key != artworkKey else { return }
        artworkKey = key
        artworkPaths = [:]
        guard !images.isEmpty else { return }
        let scale = displayScale
        for use in ImageUse.currentMediaSurfaces {
            Task { [weak self, artwork] in
                let path = await artwork.localPath(for: images, use: use, scale: scale)
                guard let self, self.artworkKey == key, self.displayScale == scale else { return }
                self.artworkPaths[use] = path
            }
        }
    }
}
