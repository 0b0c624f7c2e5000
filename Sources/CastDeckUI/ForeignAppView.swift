// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// On the devices page, below the session row: the app CastDeck did not start (YouTube,
/// Spotify, an Android TV app, tab mirroring) in a row of its own (device-list.ui's
/// other-app-row), with its icon (through the image cache; a generic icon until it comes, or
/// when the app gives none), its name, its status text and **Stop App**, which ends it. On the
/// session row: what the device's input says (a TV showing another input, standby). The Cast
/// actions below stay offered: casting replaces the app (AppModel+ForeignApp).
@MainActor
final class ForeignAppView {
    let model: AppModel
    let sessionRow: ActionRow
    let row: ActionRow
    let icon: Image
    let stop: Button

    init(model: AppModel, sessionRow: ActionRow, ui: Builder) {
        self.model = model
        self.sessionRow = sessionRow
        row = ui.get("other-app-row")
        icon = ui.get("other-app-icon")
        stop = ui.get("other-app-stop")
    }

    func render() {
        var parts: [String] = []
        if model.isInputSwitchedAway { parts.append(tr("The TV shows another input.")) }
        if model.isInStandby { parts.append(tr("The TV is in standby.")) }
        if !parts.isEmpty { sessionRow.subtitle = Localization.joinParts(parts + [sessionRow.subtitle].filter { !$0.isEmpty }) }
        let app = model.otherApp
        row.isVisible = app != nil
        guard let app else { return }
        if let path = model.foreignAppIconPath {
            icon.setFile(path)
        } else {
            icon.setIconName(app.isAndroidTV ? "tv-symbolic" : "application-x-executable-symbolic")
        }
        icon.setAccessibleName(app.name)
        row.title = app.name
        row.subtitle = app.statusText ?? ""
        stop.setAccessibleName(tr("Stop {0}", app.name))
        stop.setTooltip(tr("Stop {0}", app.name))
    }
}
