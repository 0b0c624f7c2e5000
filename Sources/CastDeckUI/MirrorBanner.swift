// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The banner under the header bar while the screen or the desktop's sound is cast
/// (mirror-banner.ui, `AppModel.mirroring`): "Casting your screen to Living Room TV", a spinner
/// until the device answers (and "Stopping…" while Stop waits for the device), and Stop (`win.stop-mirroring`, named "Stop casting to …" for
/// assistive technology). It pushes the pages down instead of covering them, so the rest of the
/// window stays usable; it goes when mirroring ends, and the toast says how.
@MainActor
final class MirrorBanner {
    static let resource = CastDeckApplication.resourcePath + "/ui/mirror-banner.ui"

    let ui: Builder
    let revealer: Revealer
    let model: AppModel
    private var token: ObservationToken?

    init(model: AppModel) throws {
        ui = try Builder(resource: Self.resource)
        revealer = ui.get("revealer")
        self.model = model
        // Hidden once slid away, so assistive technology does not offer its Stop.
        revealer.onChildRevealedChanged { [unowned self] in
            if !self.revealer.revealsChild && !self.revealer.isChildRevealed { self.revealer.isVisible = false }
        }
        token = observe { [unowned self] in self.render() }
    }

    func render() {
        guard let m = model.mirroring else {
            revealer.revealsChild = false
            if !revealer.isChildRevealed { revealer.isVisible = false }
            return
        }
        let name = isolateLTRIfAddress(m.deviceName)
        let label: Label = ui.get("label"), icon: Image = ui.get("icon"), spinner: Spinner = ui.get("spinner")
        // Stopping waits for the device to stop the app: said at once, the button off.
        label.text = m.isStopping ? tr("Stopping…") : m.text
        icon.setIconName(m.isScreen ? "video-display-symbolic" : "audio-speakers-symbolic")
        let busy = !m.isStreaming || m.isStopping
        icon.isVisible = !busy
        spinner.isVisible = busy
        spinner.isSpinning = busy
        let stop: Button = ui.get("stop")
        stop.setSoleAccessibleName(tr("Stop casting to {0}", name))
        revealer.isVisible = true
        revealer.revealsChild = true
    }
}
