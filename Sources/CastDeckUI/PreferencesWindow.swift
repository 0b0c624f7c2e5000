// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The preferences (preferences-window.ui): main menu → Preferences, or Ctrl+comma (the action
/// table's `preferences`). Its switch is the table's `remember-positions`, whose state is
/// `AppModel.remembersPositions`, kept in GSettings by `GSettingsPlaybackPreferences`; then
/// "Show the mini player when the window closes while casting" (PreferencesWindow+MiniPlayer);
/// below them, "Send surround sound as is" per device (PreferencesWindow+Surround.swift). Made when
/// asked for and destroyed when closed (Window.destroyWhenClosed says why).
@MainActor
final class PreferencesWindow {
    static let resource = CastDeckApplication.resourcePath + "/ui/preferences-window.ui"

    let model: AppModel
    /// Where the app's own preferences are kept (nil without the schema).
    let settings: Settings?
    /// The builder keeps the destroyed window's memory valid to ask about.
    private var ui: Builder?
    private var window: Window?
    private var actions: ModelActions?
    private var token: ObservationToken?
    /// The Surround Sound rows (PreferencesWindow+Surround.swift).
    var surround = SurroundRows()

    init(model: AppModel, settings: Settings?) {
        self.model = model
        self.settings = settings
    }

    func present(parent: Window?) {
        window?.destroy()
        token?.cancel()
        let ui: Builder
        do { ui = try Builder(resource: Self.resource) } catch {
            model.post(tr("The preferences could not be loaded."), detail: "\(error)")
            return
        }
        self.ui = ui
        let win: Window = ui.get("window")
        win.destroyWhenClosed()
        win.setTransientFor(parent)
        // Escape and Ctrl+W close it, as they close other GNOME secondary windows.
        win.onKeyCapture { key in
            guard key.name == "Escape" || (key.control && key.name.lowercased() == "w") else { return false }
            win.close()
            return true
        }
        // GTK 4.8 names the switch by its label and again by the row's title it is labelled by.
        ui.get("remember-switch", as: Widget.self).setSoleAccessibleName(AppAction.Name.toggleRememberPositions.label)
        let actions = ModelActions(model: model, names: [.toggleRememberPositions])
        actions.install(into: win)
        self.actions = actions
        installMiniPlayerSwitch(ui)  // PreferencesWindow+MiniPlayer.swift
        surround = SurroundRows(group: ui.get("surround-group"))
        token = observe { [unowned self] in
            self.actions?.refresh()
            self.renderSurround()
        }
        win.onCloseRequest { [unowned self] in
            self.token?.cancel()
            self.token = nil
            return false
        }
        window = win
        win.present()
    }
}
