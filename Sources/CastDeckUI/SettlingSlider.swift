// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import GtkInterop

/// A slider whose moves are sent once they settle (150 ms without another move), and which
/// shows a value that came from elsewhere (the device, another sender) without sending it back;
/// while the user is moving it, it is left alone. The device volume (VolumeControl) and each
/// speaker's own volume (GroupMembersView) are such sliders.
@MainActor
final class SettlingSlider {
    let slider: Scale
    private var debounce: UInt32 = 0
    private var updating = false

    init(_ slider: Scale, send: @escaping @MainActor (Double) -> Void) {
        self.slider = slider
        slider.onValueChanged { [unowned self] in
            guard !self.updating else { return }
            GLibSource.remove(self.debounce)
            self.debounce = GLibSource.timeout(ms: 150) { [unowned self] in
                self.debounce = 0
                send(self.slider.value)
                return false
            }
        }
    }

    /// Shows `value`, unless a move of the user's is still to be sent.
    func show(_ value: Double) {
        updating = true
        defer { updating = false }
        if debounce == 0, abs(slider.value - value) > 0.001 { slider.value = value }
    }
}
