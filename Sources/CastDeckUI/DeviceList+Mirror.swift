// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

// Each device row's menu (device-row.ui's "mirror-menu"): Cast Screen… (not for speakers and
// speaker groups) and Cast Desktop Audio, to that device. A menu per row rather than actions on
// the connected device: casting the screen to the TV needs no connection to it, and the window
// goes on controlling whatever it is connected to.
extension DeviceList.DeviceRow {
    func installMirrorMenu() {
        let menu: MenuButton = ui.get("mirror-menu")
        menu.setPopoverFactory { [unowned self] in
            let box = Box(vertical: true, spacing: 0)
            let popover = Popover(child: box)
            // Labelled by the command table, as the main menu is.
            let screen = Button(label: AppAction.Name.castScreenTo.label)
            let sound = Button(label: AppAction.Name.castDesktopAudioTo.label)
            for button in [screen, sound] {
                button.addCSSClass("flat")
                button.onClicked { popover.popdown() }
                box.append(button)
            }
            // The device's place in the list and its kind, as they are when the menu opens.
            popover.onShow { [unowned self] in
                let index = self.model.devices.firstIndex { $0.id == self.device.id } ?? -1
                screen.bindAction("win." + AppAction.Name.castScreenTo.rawValue, target: .int(index))
                sound.bindAction("win." + AppAction.Name.castDesktopAudioTo.rawValue, target: .int(index))
                screen.isVisible = !self.model.isAudioOnly(self.device)
            }
            return popover
        }
    }

    /// Named after its device, for assistive technology and the tooltip.
    func renderMirrorMenu() {
        let menu: MenuButton = ui.get("mirror-menu")
        menu.setAccessibleName(tr("Cast to {0}", device.friendlyName))
        menu.setTooltip(tr("Cast to {0}", device.friendlyName))
    }
}
