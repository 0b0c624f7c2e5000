// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The "Verified" / "Unverified device" mark beside the connected device (device list and
/// expanded controller): the label says the verdict, its tooltip and accessible description
/// say why (the device certificate's name, or the reason verification failed).
@MainActor
enum TrustMark {
    static func render(_ label: Label, _ verdict: DeviceTrust) {
        let text: String, detail: String, style: String?
        switch verdict {
        case .unknown:
            label.isVisible = false
            return
        case .checking:
            text = tr("Checking device…")
            detail = tr("Checking that this is a genuine Cast device.")
            style = nil
        case .verified(let commonName):
            text = tr("Verified")
            detail = tr("A genuine Cast device: its certificate “{0}” chains to Google’s Cast root.", commonName)
            style = "success"
        case .unverified(let reason):
            text = tr("Unverified device")
            detail = tr("This device could not prove it is a genuine Cast device: {0}", reason)
            style = "warning"
        }
        label.isVisible = true
        label.text = text
        label.setTooltip(detail)
        label.setAccessibleDescription(detail)
        for c in ["success", "warning"] where c != style { label.removeCSSClass(c) }
        if let style { label.addCSSClass(style) }
    }
}
