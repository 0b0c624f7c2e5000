// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastCore
import CastProtocol

// The ad playing now, as every surface shows it: the expanded controller's banner, the mini
// controller, the mini player and MPRIS read `adState` (CastClient's AdPlayback, derived once
// from the snapshot) and what follows from it here: "Ad 1 of 3", the clip's title, its poster
// as the artwork (through the same artwork provider as the content's, so the image cache in
// the app), the progress of the clip, and Learn More for its click-through link.
extension AppModel {
    /// The ad at `now`, by CastClient's rule (the clip's clock runs at 1× from
    /// `currentBreakClipTime`, at the playback rate in an embedded break). Nil outside a break
    /// and while reconnecting (the clock stands still then).
    public func adState(at now: ContinuousClock.Instant) -> AdState? {
        guard !isReconnecting else { return nil }
        return snapshot?.ad(at: now)
    }
    public var adState: AdState? { adState(at: .now) }

    /// The artwork to show: the ad's poster while a clip that has one plays, else the media's.
    public func shownArtworkPath(for use: ImageUse) -> String? {
        isPlayingAd ? adArtworkPaths[use] ?? artworkPath(for: use) : artworkPath(for: use)
    }

    /// How far the compact surfaces' progress line is (0…1): through the ad clip during a
    /// break, else through what can be seeked (AppModel+Live.swift: the media, or a live window).
    public func progressFraction(at now: ContinuousClock.Instant) -> Double {
        guard let ad = adState(at: now) else { return seekableFraction(at: now) }
        let length = ad.clipDuration ?? 0
        return length > 0 && length.isFinite ? min(1, max(0, ad.clipTime / length)) : 0
    }

    /// Resolves the playing clip's poster to a local file (called with every status).
    func resolveAdArtwork() {
        let poster = mediaStatus?.breakStatus.flatMap { b in media?.breakClips?.first { $0.id == b.breakClipId }?.posterUrl }
        let key = poster.flatMap { $0.isEmpty ? nil : $0 }
        guard key != adArtworkKey else { return }
        adArtworkKey = key
        adArtworkPaths = [:]
        guard let key else { return }
        let scale = displayScale
        for use in ImageUse.currentMediaSurfaces {
            Task { [weak self, artwork] in
                let path = await artwork.localPath(for: [CastImage(url: key)], use: use, scale: scale)
                guard let self, self.adArtworkKey == key else { return }
                self.adArtworkPaths[use] = path
            }
        }
    }
}

extension AppCommand {
    /// Learn More: the clip's click-through link, opened by the desktop (only http and https
    /// links ever get here: `AdPlayback.learnMoreURL`).
    static var openAdLink: AppCommand {
        AppCommand(
            { tr("Learn More") }, enabled: { $0.adState?.learnMoreURL != nil && $0.linkOpener != nil },
            run: { m, _ in
                guard let link = m.adState?.learnMoreURL else { return }
                m.linkOpener?(link)
            })
    }
}

extension AdPlayback {
    /// "Ad 1 of 3": the title every surface gives the ad.
    public var heading: String { tr("Ad {0} of {1}", clipIndex, clipCount) }
    /// The clip's title, shortened as media titles are, for a second line.
    public var shownTitle: String? { clipTitle.map { shortened($0) } }
}
