// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GLibInterop
import GtkInterop

/// Move to… (move-dialog.ui, AppAction.moveTo): the other known devices, one choice each
/// (name, and its kind: a speaker group, or the model), the connected one left out. Move runs
/// `moveToDevice` through the command table and keeps the dialog open with the model's
/// progress line until the move ends; then the window follows the target (or a toast says
/// why not, and the source plays on). Play on Group, for a speaker chosen while a speaker
/// plays, moves to a speaker group that holds both (`playOnGroup`), or says they must be
/// grouped in the Google Home app first. Like the app's other dialogs it is made for each request
/// and destroyed when it closes.
@MainActor
final class MoveDialog {
    static let resource = CastDeckApplication.resourcePath + "/ui/move-dialog.ui"
    private static var current: MoveDialog?

    let ui: Builder
    let dialog: MessageDialog
    let model: AppModel
    private var choices: [ToggleButton] = []
    private var progress: ObservationToken?
    private var moving: Task<Void, Never>?
    private var closeAsked = false
    private var closed = false

    private init(model: AppModel) throws {
        ui = try Builder(resource: Self.resource)
        dialog = ui.get("dialog")
        self.model = model
        dialog.asWindow.hideOnClose = false
        Widget(unchecked: dialog.pointer).nameButtonsByLabel()
        dialog.setBody(tr("Play “{0}” on another device. The queue, the position, the subtitles and the speed go along.", model.title))
        let box: Box = ui.get("choices")
        for device in model.moveTargets {
            let choice = ToggleButton.choice(device.friendlyName, detail: device.moveDetail, maxWidthChars: 28)
            if let first = choices.first { choice.join(first) }
            choice.onToggled { [unowned self] in self.choiceChanged() }
            box.append(choice)
            choices.append(choice)
        }
        dialog.asWindow.onCloseRequest { [unowned self] in self.closeRequested() }
        dialog.onResponse { [unowned self] response in self.respond(response) }
    }

    /// Shows a new dialog (closing one still open).
    static func present(parent: Window?, model: AppModel) {
        current?.close()
        guard let made = try? MoveDialog(model: model) else { return }
        current = made
        made.choiceChanged()
        made.dialog.asWindow.setTransientFor(parent)
        made.dialog.asWindow.present()
        made.choices.first?.grabFocus()
    }

    private var chosen: Int? { choices.firstIndex { $0.isActive } }

    private func choiceChanged() {
        dialog.setResponseEnabled("move", chosen != nil && moving == nil)
        // Adding a speaker to a speaker: neither may be a group already.
        let targets = model.moveTargets
        let speaker = chosen.map { targets.indices.contains($0) && !targets[$0].isGroup } ?? false
        dialog.setResponseEnabled("group", speaker && model.connectedDevice?.isGroup == false && moving == nil)
    }

    /// libadwaita closes a message dialog just before it reports a button's response: held
    /// back (as AddDeviceDialog does) so that Move can keep it open while the move runs.
    private func closeRequested() -> Bool {
        if closed { return false }
        closeAsked = true
        GLibSource.idle { [weak self] in
            guard let self, self.closeAsked, self.moving == nil else { return }
            self.close()
        }
        return true
    }

    private func respond(_ response: String) {
        closeAsked = false
        guard response == "move" || response == "group", let index = chosen, moving == nil else {
            if moving == nil { close() }
            return
        }
        for choice in choices { choice.isSensitive = false }
        for id in ["move", "group", "cancel"] { dialog.setResponseEnabled(id, false) }
        let row: Widget = ui.get("progress")
        let spinner: Spinner = ui.get("spinner")
        let label: Label = ui.get("progress-label")
        row.isVisible = true
        spinner.isSpinning = true
        progress = observe { [weak self] in
            guard let self, let text = self.model.moveProgress?.text else { return }
            label.text = text
        }
        moving = Task { [weak self] in
            guard let self else { return }
            await self.model.perform(AppAction(response == "group" ? .playOnGroup : .moveToDevice, .int(index)))
            self.close()
        }
    }

    private func close() {
        guard !closed else { return }
        closed = true
        progress?.cancel()
        if Self.current === self { Self.current = nil }
        dialog.asWindow.destroy()
    }
}
