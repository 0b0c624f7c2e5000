// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The mark beside the connected device (the device list's session row and the expanded
/// controller): a small shield, filled for a verified device and hollow for one that could not
/// prove it is genuine. It is information, not an alarm, so it takes no colour and no words on
/// screen; its accessible name gives the verdict ("Verified", "Unverified device") and its
/// tooltip and accessible description say why (the device certificate's name, or the reason
/// verification failed). Nothing shows while the check runs, or when there is no verdict to
/// give (not connected, or the demo's receiver inside CastDeck: `AppModel.trust` is `.unknown`).
@MainActor
enum TrustMark {
    static func render(_ mark: Image, _ verdict: DeviceTrust) {
        let name: String, detail: String, icon: String
        switch verdict {
        case .unknown, .checking:
            mark.isVisible = false
            return
        case .verified(let commonName):
            name = tr("Verified")
            detail = tr("A genuine Cast device: its certificate “{0}” chains to Google’s Cast root.", commonName)
            icon = "security-high-symbolic"
        case .unverified(let reason):
            name = tr("Unverified device")
            detail = tr("This device could not prove it is a genuine Cast device: {0}", reason)
            icon = "security-low-symbolic"
        }
        mark.setIconName(icon)
        mark.setAccessibleName(name)
        mark.setTooltip(detail)
        mark.setAccessibleDescription(detail)
        mark.isVisible = true
    }
}
