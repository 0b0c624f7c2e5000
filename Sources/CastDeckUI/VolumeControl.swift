// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// A device-volume slider and its mute button, bound to the model: moves are sent once they
/// settle (AppAction.setVolume), and the device's volume (whoever set it) is shown otherwise.
/// The expanded controller and the device page's session group each have one.
@MainActor
final class VolumeControl {
    let model: AppModel
    let slider: Scale
    let mute: ToggleButton
    private let settling: SettlingSlider

    init(model: AppModel, slider: Scale, mute: ToggleButton) {
        self.model = model
        self.slider = slider
        self.mute = mute
        settling = SettlingSlider(slider) { [unowned model] level in Task { await model.perform(.setVolume(level)) } }
    }

    func render() {
        mute.iconName = model.isMuted ? "audio-volume-muted-symbolic" : "audio-volume-high-symbolic"
        // The tooltip says what a click does; the accessible name stays "Mute", a toggle whose
        // pressed state says whether it is on.
        mute.setTooltip(model.isMuted ? tr("Unmute") : tr("Mute"))
        // A fixed-volume device (a projector, a TV's HDMI input) is turned up on the TV: no slider.
        slider.isVisible = !model.hasFixedVolume
        mute.isVisible = !model.hasFixedVolume
        slider.isSensitive = model.isEnabled(.setVolume)
        slider.setAccessibleDescription(tr("Volume of {0}", model.sessionDeviceName ?? tr("the device")))
        settling.show(model.volumeLevel)
    }
}
