// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// During an ad the compact surfaces (the mini controller's bar and the mini player) show the
/// ad instead of the content: the title "Ad 1 of 3", the clip's title on the second line, its
/// poster as the artwork and the clip's progress; the mini player adds Learn More and Skip Ad
/// (its ad row). After the break they show the content again.
extension CompactPlayerView {
    /// The title and second line during an ad; nil outside one.
    func adLines(castingTo device: String?) -> (title: String, subtitle: String)? {
        guard let ad = model.adState else { return nil }
        let casting = device.map { tr("Casting to {0}", $0) }
        return (ad.heading, Localization.joinParts([ad.shownTitle, casting].compactMap { $0 }))
    }
}

extension MiniPlayer {
    /// The ad row: shown during a break, with the buttons the clip allows.
    func renderAd() {
        let row: Box = ui.get("ad-row")
        guard let ad = model.adState else {
            row.isVisible = false
            return
        }
        row.isVisible = true
        renderAdButtons(ad, skip: ui.get("skip"), learnMore: ui.get("learn-more"))
    }
}
