// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GLibInterop
import GtkInterop

/// Cast Screen… (mirror-dialog.ui, AppAction.castScreen / castScreenTo): the devices with a
/// screen, one choice each (the one asked for, or the connected one, chosen), the Sound switch
/// and Sharp / Balanced / Smooth with a line each. Cast remembers the sound and quality
/// (`AppModel.setMirrorChoices`) and runs `mirror-screen` through the command table; the
/// window's banner then shows it. The whole screen is shared (one window is castctl's
/// `--window` for now). Made for each request and destroyed when it closes.
@MainActor
final class MirrorDialog {
    static let resource = CastDeckApplication.resourcePath + "/ui/mirror-dialog.ui"
    private static var current: MirrorDialog?

    let ui: Builder
    let dialog: MessageDialog
    let model: AppModel
    let sound: Switch
    private var deviceIDs: [String] = []
    private var devices: [ToggleButton] = []
    private var qualities: [(AppModel.ScreenQuality, ToggleButton)] = []

    private init(model: AppModel, deviceID: String?) throws {
        ui = try Builder(resource: Self.resource)
        dialog = ui.get("dialog")
        self.model = model
        sound = ui.get("sound")
        dialog.asWindow.hideOnClose = false
        Widget(unchecked: dialog.pointer).nameButtonsByLabel()
        dialog.setBody(tr("Show what is on this computer’s screen on a TV. Anything you open will be seen there."))
        sound.isOn = model.mirrorSound
        sound.setAccessibleDescription(ui.get("sound-detail", as: Label.self).text)
        let box: Box = ui.get("devices")
        let targets = model.screenTargets
        for device in targets {
            // The name alone: beside a model it was cut to a few letters on a phone-sized screen.
            let choice = ToggleButton.choice(device.friendlyName, maxWidthChars: 28)
            if let first = devices.first { choice.join(first) }
            choice.onToggled { [unowned self] in self.choiceChanged() }
            box.append(choice)
            devices.append(choice)
            deviceIDs.append(device.id)
        }
        let chosen = deviceID.flatMap { id in deviceIDs.firstIndex(of: id) } ?? (targets.count == 1 ? 0 : nil)
        if let chosen { devices[chosen].isActive = true }
        let list: Box = ui.get("qualities")
        for quality in AppModel.ScreenQuality.allCases {
            let line: Label = ui.get(quality.rawValue + "-detail")
            let choice = ToggleButton.choice(AppModel.title(of: quality), maxWidthChars: 28)
            choice.setAccessibleDescription(line.text)
            if let first = qualities.first { choice.join(first.1) }
            choice.isActive = quality == model.mirrorQuality
            list.append(choice, line)
            qualities.append((quality, choice))
        }
        dialog.onResponse { [unowned self] response in self.respond(response) }
    }

    /// Shows a new dialog (closing one still open), with `deviceID` chosen.
    static func present(parent: Window?, model: AppModel, deviceID: String?) {
        current?.close()
        guard let made = try? MirrorDialog(model: model, deviceID: deviceID) else { return }
        current = made
        made.choiceChanged()
        made.dialog.asWindow.setTransientFor(parent)
        made.dialog.asWindow.present()
        (made.devices.first { $0.isActive } ?? made.devices.first)?.grabFocus()
    }

    private var chosenDevice: String? { devices.firstIndex { $0.isActive }.map { deviceIDs[$0] } }

    private func choiceChanged() {
        dialog.setResponseEnabled("cast", chosenDevice != nil)
    }

    private func respond(_ response: String) {
        defer { close() }
        guard response == "cast", let id = chosenDevice, let index = model.devices.firstIndex(where: { $0.id == id }) else { return }
        let quality = qualities.first { $0.1.isActive }?.0 ?? model.mirrorQuality
        model.setMirrorChoices(quality: quality, sound: sound.isOn)
        Task { await model.perform(AppAction(.mirrorScreen, .int(index))) }
    }

    private func close() {
        guard Self.current === self else { return }
        Self.current = nil
        dialog.asWindow.destroy()
    }
}
