// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// On the devices page's session row: the app CastDeck did not start (YouTube, Spotify, an
/// Android TV app, tab mirroring) with its icon (through the image cache; a generic icon until
/// it comes, or when the app gives none), its name and status text, and **Stop App**, which
/// ends it; and what the device's input says (a TV showing another input, standby). The
/// Cast actions below the row stay offered: casting replaces the app (AppModel+ForeignApp).
@MainActor
final class ForeignAppView {
    let model: AppModel
    let row: ActionRow
    let icon = Image(iconName: "application-x-executable-symbolic", pixelSize: 32)
    let stop = Button(label: tr("Stop App"))

    init(model: AppModel, row: ActionRow) {
        self.model = model
        self.row = row
        icon.isVisible = false
        row.addPrefix(icon)
        stop.actionName = "win." + AppAction.Name.stopOtherApp.rawValue
        stop.setAlignCenter()
        stop.isVisible = false
        row.addSuffix(stop)
    }

    func render() {
        var parts: [String] = []
        if model.isInputSwitchedAway { parts.append(tr("The TV shows another input.")) }
        if model.isInStandby { parts.append(tr("The TV is in standby.")) }
        let app = model.otherApp
        icon.isVisible = app != nil
        stop.isVisible = app != nil
        if let app {
            if let path = model.foreignAppIconPath {
                icon.setFile(path)
            } else {
                icon.setIconName(app.isAndroidTV ? "tv-symbolic" : "application-x-executable-symbolic")
            }
            icon.setAccessibleName(app.name)
            stop.setAccessibleName(tr("Stop {0}", app.name))
            stop.setTooltip(tr("Stop {0}", app.name))
            // The name, unless the row's sentence says it already ("… is running on this device"),
            // and the status only when it says more than the name.
            let named = model.foreignApp == nil ? [app.name] : []
            let said = named + (app.statusText.map { [$0] } ?? [])
            if !said.isEmpty { parts.append(Localization.joinParts(said)) }
        }
        guard !parts.isEmpty else { return }
        row.subtitle = Localization.joinParts(parts + [row.subtitle].filter { !$0.isEmpty })
    }
}
