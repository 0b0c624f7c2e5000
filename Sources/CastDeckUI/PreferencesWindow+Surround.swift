// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The Surround Sound group's rows: one per device (`AppModel.surroundChoices`), its name
/// and a switch "Send surround sound as is to {device}"; none yet: a row saying so. Made
/// again when the devices change, kept when only a switch moved.
@MainActor
struct SurroundRows {
    var group: PreferencesGroup?
    var rows: [ActionRow] = []
    var shown: [String] = []
    var switches: [String: Switch] = [:]
}

extension PreferencesWindow {
    func renderSurround() {
        guard let group = surround.group else { return }
        let choices = model.surroundChoices
        let names = choices.map { $0.id + "\u{0}" + $0.name }
        if names != surround.shown {
            for row in surround.rows { group.remove(row) }
            surround.rows = []
            surround.switches = [:]
            surround.shown = names
            if choices.isEmpty {
                let row = ActionRow(title: tr("No devices yet"))
                row.subtitle = tr("Devices appear here once they are found or added.")
                group.add(row)
                surround.rows.append(row)
            }
            for choice in choices {
                let row = ActionRow(title: isolateLTRIfAddress(choice.name))
                row.subtitle = tr("Send surround sound as is")
                let toggle = Switch()
                toggle.setSoleAccessibleName(tr("Send surround sound as is to {0}", choice.name))
                let id = choice.id
                toggle.isOn = model.sendsSurround(to: id)
                toggle.onToggled { [weak model] in model?.setSurround(toggle.isOn, for: id) }
                row.addSuffix(toggle)
                row.setActivatableWidget(toggle)
                row.isActivatable = true
                group.add(row)
                surround.rows.append(row)
                surround.switches[id] = toggle
            }
        }
        for (id, toggle) in surround.switches { toggle.isOn = model.sendsSurround(to: id) }
    }
}
