// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The ad banner over the artwork: "Ad 1 of 3 · 0:25", the clip's title, Learn More when the
/// clip has a web link, and Skip Ad counting down by the receiver's break clock. The poster
/// replaces the artwork meanwhile (`render()` shows `AppModel.shownArtworkPath`).
extension ExpandedController {
    func renderAd() {
        guard let ad = model.adState else {
            adBanner.isVisible = false
            return
        }
        adBanner.isVisible = true
        adLabel.text = Localization.joinParts([ad.heading, isolateLTR(formatTime(ad.remaining))])
        let clipTitle: Label = ui.get("ad-title")
        clipTitle.text = ad.shownTitle ?? ""
        clipTitle.isVisible = ad.shownTitle != nil
        renderAdButtons(ad, skip: skipButton, learnMore: ui.get("learn-more"))
    }
}

/// Skip Ad ("Skip Ad in 5" until it can be skipped; none for a clip that never can) and Learn
/// More (only for a clip with a web link): the expanded controller's and the mini player's.
@MainActor
func renderAdButtons(_ ad: AppModel.AdState, skip: Button, learnMore: Button) {
    if let n = ad.skippableIn {
        skip.label = n > 0 ? tr("Skip Ad in {0}", Int(min(n, 1e9))) : tr("Skip Ad")
        skip.isVisible = true
    } else {
        skip.isVisible = false
    }
    skip.setAccessibleName(tr("Skip Ad"))
    learnMore.isVisible = ad.learnMoreURL != nil
}
