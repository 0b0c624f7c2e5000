// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GLibInterop
import GtkInterop

/// "Show the mini player when the window closes while casting" (GSettings
/// `mini-player-on-close`, on by default): closing the main window while media is cast opens
/// the mini player, as a phone's video goes on in picture-in-picture when its app is left.
/// Off, the window closes to the background (the media controls and a notification remain).
enum MiniPlayerOnClose {
    static let key = "mini-player-on-close"

    /// On without the schema (the default).
    @MainActor static func isOn(_ settings: Settings?) -> Bool { settings?.bool(key) ?? true }
}

extension PreferencesWindow {
    /// The switch follows the key (which `gsettings set` may change while the window is open).
    func installMiniPlayerSwitch(_ ui: Builder) {
        let toggle: Switch = ui.get("mini-player-switch")
        toggle.setSoleAccessibleName(tr("Show the mini player when the window closes while casting"))
        toggle.isOn = MiniPlayerOnClose.isOn(settings)
        toggle.onToggled { [weak self] in
            guard let settings = self?.settings, settings.bool(MiniPlayerOnClose.key) != toggle.isOn else { return }
            settings.set(MiniPlayerOnClose.key, bool: toggle.isOn)
        }
    }
}
